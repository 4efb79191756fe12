import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

/**
 * The engine library as its npm package ships it: `engine/lib`, built here by the package's own
 * build script (what `make setup` runs; a few seconds), so a change to the sources is measured. A
 * benchmark that sets the engine against other engines loads it rather than the sources through
 * tsx, whose transpiler (esbuild with `keepNames`) names every function as it is created — a call
 * for each closure a render makes, which the package does not pay (~8% of the MJML compile).
 */
export async function shippedEngine(): Promise<{
  render: typeof import("../engine/src/index.js").render;
  compileMjmlToHtml: typeof import("../engine/src/mjml-to-html/index.js").compileMjmlToHtml;
}> {
  execFileSync("npm", ["run", "build", "--workspace", "@mailrender/engine", "--silent"], {
    cwd: fileURLToPath(new URL("..", import.meta.url)),
    stdio: "inherit",
  });
  const lib = (module: string) => new URL(`../engine/lib/${module}`, import.meta.url).href;
  const { render } = (await import(lib("index.js"))) as typeof import("../engine/src/index.js");
  const { compileMjmlToHtml } = (await import(lib("mjml-to-html/index.js"))) as typeof import("../engine/src/mjml-to-html/index.js");
  return { render, compileMjmlToHtml };
}
