/**
 * The npm package's library (`npm run build`): its types from tsc (lib/**\/*.d.ts) and its code as
 * one ES module, lib/index.js, bundled by esbuild with the packages it uses inside (zod among them),
 * except the ones package.json names as peer dependencies (doiuse-email, optional, loaded on first
 * use). Why one file: Node's ES module loader resolves, reads, compiles and links every file of a
 * module graph one by one, and the 241 files of tsc's output and the packages it imported were most
 * of what a new process paid to import the library (docs/design/library-bundle.md). The bundled
 * packages' licences go beside it, in lib/THIRD_PARTY_NOTICES.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { ensureZig, zigLib } from "./build-quickjs.js";
import { buildMarkupPassesWasm } from "./build-wasm.js";
import { bundledPackageNotices } from "./third-party-notices.js";

const ENGINE = fileURLToPath(new URL("..", import.meta.url));
const ROOT = join(ENGINE, "..");
const LIB = join(ENGINE, "lib");

/**
 * What stays an import of the package: its peer dependencies (and their subpaths), which the caller
 * installs. Its dependencies are bundled: zod is one for its types, which the declarations import
 * (a caller's own blocks are zod schemas); zod shares its registry and configuration between copies.
 */
function externals(): string[] {
  const manifest = JSON.parse(readFileSync(join(ENGINE, "package.json"), "utf8")) as { peerDependencies?: Record<string, string> };
  return Object.keys(manifest.peerDependencies ?? {}).flatMap((name) => [name, `${name}/*`]);
}

/**
 * `entry` (a module of engine/src) bundled as the package ships its library, into `outfile`; the
 * benchmarks bundle other entries the same way. Returns the bundled files, for the notices.
 */
export async function bundleLibrary(entry: string, outfile: string): Promise<string[]> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    external: externals(),
    sourcemap: "linked",
    sourcesContent: false,
    metafile: true,
    logLevel: "error",
    absWorkingDir: ROOT,
  });
  return Object.keys(result.metafile.inputs);
}

async function main(): Promise<void> {
  buildMarkupPassesWasm();
  rmSync(LIB, { recursive: true, force: true });
  execFileSync(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", join(ENGINE, "tsconfig.build.json"), "--emitDeclarationOnly"], {
    stdio: "inherit",
  });
  const inputs = await bundleLibrary(join(ENGINE, "src", "index.ts"), join(LIB, "index.js"));
  const zigLibDir = zigLib(ensureZig());
  if (zigLibDir === undefined) throw new Error("zig does not say where its lib folder is: the notices need wasi-libc's licence");
  writeFileSync(join(LIB, "THIRD_PARTY_NOTICES"), bundledPackageNotices(inputs, ROOT, zigLibDir));
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
