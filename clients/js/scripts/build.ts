/**
 * Builds the dual package into dist/:
 *   dist/esm/index.js  (ESM bundle)      + dist/esm/*.d.ts  (declarations from tsc)
 *   dist/cjs/index.js  (CommonJS bundle) + dist/cjs/*.d.ts  (the same declarations; dist/cjs/package.json
 *                                          says "commonjs" so TypeScript reads them as CommonJS typings)
 * The engine stays external (it is the one runtime dependency) and is loaded with import() in both
 * formats; esbuild keeps that import() as written, so the CommonJS build runs without require(esm).
 */
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const pkgDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const dist = path.join(pkgDir, "dist");
const tsc = path.resolve(pkgDir, "../../node_modules/.bin/tsc");

rmSync(dist, { recursive: true, force: true });

for (const format of ["esm", "cjs"] as const) {
  await build({
    entryPoints: [path.join(pkgDir, "src/index.ts")],
    outfile: path.join(dist, format, "index.js"),
    bundle: true,
    format,
    platform: "node",
    target: "node20",
    external: ["@mailrender/engine"],
    sourcemap: true,
    logLevel: "warning",
  });
}

execFileSync(tsc, ["-p", path.join(pkgDir, "tsconfig.build.json")], { stdio: "inherit" });
cpSync(path.join(dist, "esm"), path.join(dist, "cjs"), { recursive: true, filter: (src) => !/\.js(\.map)?$/.test(src) });
mkdirSync(path.join(dist, "cjs"), { recursive: true });
writeFileSync(path.join(dist, "cjs", "package.json"), `${JSON.stringify({ type: "commonjs" }, null, 2)}\n`);
process.stdout.write(`built ${path.relative(process.cwd(), dist) || dist}\n`);
