/**
 * Builds the studio's front end (server/studio/src) into server/studio/dist: one ES module bundle
 * with Preact and htm inside, and its stylesheet. The server serves them at /studio/assets/.
 */
import { copyFileSync, mkdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const studio = fileURLToPath(new URL("../studio/", import.meta.url));
mkdirSync(`${studio}dist`, { recursive: true });
await build({
  entryPoints: [`${studio}src/main.ts`],
  outfile: `${studio}dist/studio.js`,
  bundle: true,
  format: "esm",
  target: "es2020",
  minify: true,
  sourcemap: true,
  legalComments: "linked",
  logLevel: "warning",
});
copyFileSync(`${studio}src/studio.css`, `${studio}dist/studio.css`);
