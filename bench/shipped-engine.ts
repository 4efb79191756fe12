import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { bundleLibrary } from "../engine/scripts/build-lib.js";

const ENGINE = fileURLToPath(new URL("../engine/", import.meta.url));

/**
 * The engine library as its npm package ships it: `engine/lib`, built here by the package's own
 * build script (what `make setup` runs; a few seconds), so a change to the sources is measured; the
 * MJML compiler, which the package does not export, bundled the same way. A benchmark that sets the
 * engine against other engines loads these rather than the sources through tsx, whose transpiler
 * (esbuild with `keepNames`) names every function as it is created — a call for each closure a
 * render makes, which the package does not pay (~8% of the MJML compile).
 */
export async function shippedEngine({ built = false } = {}): Promise<{
  render: typeof import("../engine/src/index.js").render;
  compileMjmlToHtml: typeof import("../engine/src/mjml-to-html/index.js").compileMjmlToHtml;
}> {
  // `built`: a process the bench started after building them itself loads them as they are.
  const lib = built ? join(ENGINE, "lib") : builtEngineLib();
  const { render } = (await import(pathToFileURL(join(lib, "index.js")).href)) as typeof import("../engine/src/index.js");
  const compiler = join(ENGINE, "dist", "bench", "mjml-to-html.js");
  if (!built) await bundleLibrary(join(ENGINE, "src", "mjml-to-html", "index.ts"), compiler);
  const { compileMjmlToHtml } = (await import(pathToFileURL(compiler).href)) as typeof import("../engine/src/mjml-to-html/index.js");
  return { render, compileMjmlToHtml };
}

/** `engine/lib` of `checkout` (this one by default; another needs its node_modules installed), built by its own build script. */
export function builtEngineLib(checkout: string = fileURLToPath(new URL("..", import.meta.url))): string {
  execFileSync("npm", ["run", "build", "--workspace", "@mailrender/engine", "--silent"], { cwd: checkout, stdio: "inherit" });
  return join(checkout, "engine", "lib");
}
