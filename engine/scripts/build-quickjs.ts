/**
 * The distributed mailrender-engine, on QuickJS-ng (a small embeddable JavaScript engine; why:
 * engine/README.md, "Distribution"):
 *
 *   `make engine-all`: every platform, on one machine, into
 *     engine/dist/release/<os>-<arch>/mailrender-engine[.exe] + SHA256SUMS + THIRD_PARTY_NOTICES;
 *   `make engine` (`--host`): this machine's platform only, into engine/dist/<os>-<arch>/ (+ the
 *     same two files in engine/dist/) — the same bytes as that platform's release binary.
 *
 *   1. the QuickJS-ng C source and mimalloc's, pinned by engine/runtimes/quickjs/Cargo.lock (`cargo fetch`),
 *      QuickJS-ng's with the string-search changes of quickjs-patches.ts;
 *   2. zig (PyPI `ziglang`, pinned below) as the C compiler and cross-compiler for every target;
 *   3. the engine bundled for QuickJS (engine/runtimes/quickjs/host.ts, with its own engine host; esbuild);
 *   4. the bundle compiled to QuickJS bytecode by qjsc (built for the host), in a C file;
 *   5. per target: QuickJS's objects (cached per target) + that file + the host's native functions
 *      (runtimes/quickjs/native/), linked statically where the platform allows (musl on
 *      Linux, with mimalloc as its allocator); the host binary is smoke-tested; SHA256SUMS is written.
 *
 * PLATFORMS=linux-x64,linux-arm64 limits the release targets. ZIG=/path/to/zig uses another zig.
 *
 * `--profile`: the host's engine with a sampling profiler of its JavaScript, for measuring only
 * (bench/release-profile.ts): QuickJS with runtimes/quickjs/profile/sampler.c, the bytecode with its
 * functions' positions, into engine/dist/.build-quickjs/profile/.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { availableParallelism, homedir } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type BuildOptions, build } from "esbuild";
import { sha256, sha256sums, smokeTest } from "./built-binary.js";
import { engineBundleOptions } from "./bundle-stubs.js";
import { LAZY_MODULES, lazyModulesC, lazyModulesPlugin } from "./lazy-modules.js";
import { patchedQuickjsSource } from "./quickjs-patches.js";
import { thirdPartyNotices } from "./third-party-notices.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const ENGINE = join(ROOT, "engine");
const QUICKJS_HOST = join(ENGINE, "runtimes", "quickjs");
const DIST = join(ENGINE, "dist");
const RELEASE = join(DIST, "release");
const TOOLS = join(ENGINE, "dist", ".tools");
const WORK = join(ENGINE, "dist", ".build-quickjs");
/** The release engine's C: its bytecode and `main`, as the last release or host build wrote it. */
export const ENGINE_BYTECODE_C = join(WORK, "engine-bytecode.c");
const ZIG_VERSION = "0.17.1";

/** Every platform the engine ships for, named as Node's process.platform-process.arch. */
export const RELEASE_PLATFORMS = [
  { id: "linux-x64", zigTarget: "x86_64-linux-musl" },
  { id: "linux-arm64", zigTarget: "aarch64-linux-musl" },
  { id: "darwin-x64", zigTarget: "x86_64-macos.11.0" },
  { id: "darwin-arm64", zigTarget: "aarch64-macos.11.0" },
  { id: "win32-x64", zigTarget: "x86_64-windows-gnu" },
] as const;
type ReleasePlatform = (typeof RELEASE_PLATFORMS)[number];

export const exeName = (id: string): string => (id.startsWith("win32-") ? "mailrender-engine.exe" : "mailrender-engine");
const HOST_ID = `${process.platform}-${process.arch}`;
export const LIBRARY_SOURCES = ["quickjs.c", "libregexp.c", "libunicode.c", "dtoa.c", "quickjs-libc.c"];

const started = Date.now();
const log = (line: string): void => void process.stderr.write(`[build-quickjs ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);

/** What to build and where: the host's engine for development and the packages, or the release set. */
function plan(argv: readonly string[]): { targets: ReleasePlatform[]; out: string } {
  if (argv.includes("--host")) {
    const host = RELEASE_PLATFORMS.find((p) => p.id === HOST_ID);
    if (host === undefined)
      throw new Error(`the engine is not built for this machine (${HOST_ID}); it is for ${RELEASE_PLATFORMS.map((p) => p.id).join(", ")}`);
    return { targets: [host], out: DIST };
  }
  const wanted = process.env["PLATFORMS"]
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const targets = RELEASE_PLATFORMS.filter((p) => wanted === undefined || wanted.includes(p.id));
  if (targets.length === 0) throw new Error(`PLATFORMS=${process.env["PLATFORMS"]} names none of ${RELEASE_PLATFORMS.map((p) => p.id).join(", ")}`);
  return { targets, out: RELEASE };
}

async function main(): Promise<void> {
  if (process.argv.includes("--profile")) return buildProfiled();
  const { targets, out } = plan(process.argv.slice(2));
  const source = quickjsSource();
  const mimalloc = mimallocSource();
  const zig = ensureZig();
  mkdirSync(WORK, { recursive: true });
  const { bundle, inputs: bundled } = await bundleHost();
  const qjsc = await buildQjsc(zig, source);
  const bytecodeC = ENGINE_BYTECODE_C;
  const lazyInputs = await compileBundle(qjsc, bundle, bytecodeC, "release");
  const inputs = [...bundled, ...lazyInputs];
  log(`compiled the bundle to bytecode (${(statSync(bytecodeC).size / 1024).toFixed(0)} KiB of C)`);

  // SHA256SUMS lists exactly this build's binaries: drop other platforms' leftovers.
  mkdirSync(out, { recursive: true });
  for (const entry of readdirSync(out, { withFileTypes: true })) {
    const stale = RELEASE_PLATFORMS.some((p) => p.id === entry.name) && !targets.some((t) => t.id === entry.name);
    if (entry.isDirectory() && stale) rmSync(join(out, entry.name), { recursive: true, force: true });
  }
  const exes = await Promise.all(targets.map((target) => link(zig, source, mimalloc, target, bytecodeC, out)));
  const host = targets.findIndex((t) => t.id === HOST_ID);
  if (host !== -1) log(`smoke test of the host binary passed (engine ${smokeTest(exes[host] as string)})`);
  if (host !== -1) await buildNativeCheck(zig, source, qjsc, targets[host] as ReleasePlatform);
  const sums = sha256sums(exes.map((exe) => ({ hash: sha256(exe), path: relative(out, exe).split("\\").join("/") })));
  writeFileSync(join(out, "SHA256SUMS"), sums);
  writeFileSync(join(out, "THIRD_PARTY_NOTICES"), thirdPartyNotices(inputs, ROOT, source, quickjsVersion(source), mimalloc, zigLib(zig)));
  log(`done: ${targets.map((t) => t.id).join(", ")} (${relative(ROOT, join(out, "SHA256SUMS"))} written)`);
}

/**
 * The bundle as qjsc's C (its bytecode and a `main`), with the host's changes to `main`. The release
 * strips source and debug information (`-s -s`): a stack keeps its function names, not their position
 * in the bundle, and every process reads ~0.9 M instructions of bytecode less. The profiling build
 * keeps the positions, which name its samples, and starts the sampler. The packages read when first
 * used (lazy-modules.ts) are compiled beside it; their bundles' inputs are returned.
 */
async function compileBundle(qjsc: string, bundle: string, bytecodeC: string, build: "release" | "profile"): Promise<string[]> {
  const strip = build === "release" ? ["-s", "-s"] : [];
  execFileSync(qjsc, ["-e", ...strip, "-m", "-n", "mailrender-engine", "-o", bytecodeC, bundle]);
  const lazy = await lazyModulesC(qjsc, dirname(bytecodeC), strip, bundleOptions(join(QUICKJS_HOST, "host.ts"), bundle));
  const mainC = withoutBytecodeChecksums(withMemoryHooks(withoutCycleCollectionForOneRender(readFileSync(bytecodeC, "utf8")), lazy), 1 + LAZY_MODULES.length);
  const sampler = `${INIT_HANDLERS}  { extern void js_profile_start(JSRuntime *rt); js_profile_start(rt); }\n`;
  writeFileSync(bytecodeC, build === "release" ? mainC : mainC.replace(INIT_HANDLERS, sampler));
  return lazy.inputs;
}

/**
 * qjsc's bytecode arrays with their checksum set to QuickJS's "not checked" value (all ones): the
 * reader otherwise sums the whole array in every process (~0.5 M instructions of the engine's
 * ~0.4 MiB) to notice a damaged file, and these bytes are part of the executable, as its code is.
 * A bytecode array begins with its version byte, then the checksum's four bytes.
 */
function withoutBytecodeChecksums(mainC: string, arrays: number): string {
  const start = /(\] = \{\n 0x[0-9a-f]{2}, )0x[0-9a-f]{2}, 0x[0-9a-f]{2}, 0x[0-9a-f]{2}, 0x[0-9a-f]{2},/g;
  const found = mainC.match(start)?.length ?? 0;
  if (found !== arrays) throw new Error(`qjsc's C changed: ${found} bytecode arrays found where ${arrays} were expected`);
  return mainC.replace(start, "$10xff, 0xff, 0xff, 0xff,");
}

/** Where qjsc's generated `main` has its runtime ready: the host's changes to it go after this line. */
const INIT_HANDLERS = "  js_std_init_handlers(rt);\n";

/**
 * qjsc's generated `main`, with QuickJS's cycle collector off unless the process serves (`--serve`):
 * a one-shot process exits after one render, and the collector's passes were ~5% of its
 * instructions. Reference counting still frees everything that is not a cycle.
 */
function withoutCycleCollectionForOneRender(mainC: string): string {
  if (!mainC.includes(INIT_HANDLERS)) throw new Error("qjsc's generated main() changed: js_std_init_handlers(rt) not found");
  const oneRender = [
    "  {",
    "    int serves = 0;",
    '    for (int i = 1; i < argc; i++) serves |= strcmp(argv[i], "--serve") == 0;',
    "    if (!serves) JS_SetGCThreshold(rt, (size_t)-1);",
    "  }",
    "",
  ].join("\n");
  return `#include <string.h>\n${mainC.replace(INIT_HANDLERS, `${INIT_HANDLERS}${oneRender}`)}`;
}

/**
 * The host's native functions (runtimes/quickjs/native/): its memory hooks, SHA-256, strict UTF-8
 * decoding, a request's JSON read from its bytes, a string quoted as JSON, the markup minifier and the
 * html clean-up, the conditional comments' minifier and the MJML reader; each file `x-y.c` has an
 * installer `mailrender_x_y_init`.
 */
const NATIVE_SOURCES = ["memory.c", "checksum.c", "utf8.c", "request-json.c", "json-string.c", "markup-passes.c", "conditional-minify.c", "mjml-parse.c"];
/** What the installers call that knows no runtime (Node's host runs them as WebAssembly too: build-wasm.ts). */
export const MARKUP_PASSES_C = ["markup-minify.c", "html-waste.c"].map((file) => join(QUICKJS_HOST, "native", file));
/** The native files' paths, as every build of the engine compiles them. */
export const NATIVE_C = [...NATIVE_SOURCES.map((file) => join(QUICKJS_HOST, "native", file)), ...MARKUP_PASSES_C];
const nativeInit = (file: string): string => `mailrender_${file.replace(/\.c$/, "").replaceAll("-", "_")}_init`;

/** qjsc's generated `main`, installing the host's native functions (and the lazy packages' loaders) before the engine runs. */
function withMemoryHooks(mainC: string, lazy = { definitions: "", installs: "" }): string {
  const anchor = "  js_std_add_helpers(ctx, argc, argv);\n";
  const main = "int main(int argc, char **argv)\n";
  if (!mainC.includes(anchor) || !mainC.includes(main)) throw new Error("qjsc's generated main() changed: js_std_add_helpers(ctx, argc, argv) not found");
  const inits = NATIVE_SOURCES.map(nativeInit);
  return mainC
    .replace(main, `${lazy.definitions}${inits.map((init) => `void ${init}(JSContext *ctx);\n`).join("")}\n${main}`)
    .replace(anchor, `${anchor}${inits.map((init) => `  ${init}(ctx);\n`).join("")}${lazy.installs}`);
}

/** cargo: CARGO, else on PATH, else where rustup puts it (not always on a non-login shell's PATH). */
function cargo(): string {
  if (process.env["CARGO"]) return process.env["CARGO"];
  const onPath = spawnSync("cargo", ["--version"], { encoding: "utf8" });
  if (onPath.status === 0) return "cargo";
  const rustup = join(homedir(), ".cargo", "bin", "cargo");
  if (existsSync(rustup)) return rustup;
  throw new Error("cargo is needed to fetch the pinned QuickJS-ng source (set CARGO, or install Rust's cargo)");
}

/** A crate pinned by engine/runtimes/quickjs/Cargo.lock, fetched by cargo (which checks it against the lock): its directory. */
function pinnedCrate(name: string): string {
  const manifest = join(QUICKJS_HOST, "Cargo.toml");
  execFileSync(cargo(), ["fetch", "--locked", "--manifest-path", manifest], { stdio: ["ignore", "ignore", "inherit"] });
  const metadata = JSON.parse(
    execFileSync(cargo(), ["metadata", "--locked", "--offline", "--format-version", "1", "--manifest-path", manifest], {
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
    }),
  ) as {
    packages: { name: string; version: string; manifest_path: string }[];
  };
  const crate = metadata.packages.find((p) => p.name === name);
  if (crate === undefined) throw new Error(`cargo metadata lists no ${name}`);
  return dirname(crate.manifest_path);
}

/** The pinned QuickJS-ng source directory, patched (quickjs-patches.ts). */
export function quickjsSource(): string {
  const dir = join(pinnedCrate("libquickjs-ng-sys"), "embed", "quickjs");
  if (!existsSync(join(dir, "quickjs.c"))) throw new Error(`no QuickJS-ng source in ${dir}`);
  return patchedQuickjsSource(dir, join(DIST, ".quickjs-source"));
}

/** The pinned mimalloc source directory (version 2, the one its authors call stable). */
function mimallocSource(): string {
  const dir = join(pinnedCrate("libmimalloc-sys"), "c_src", "mimalloc", "v2");
  if (!existsSync(join(dir, "src", "static.c"))) throw new Error(`no mimalloc source in ${dir}`);
  return dir;
}

/** zig from PyPI (`ziglang`), installed once into engine/dist/.tools; ZIG overrides it. */
export function ensureZig(): string[] {
  const override = process.env["ZIG"];
  if (override) return [override];
  const venv = join(TOOLS, `zig-${ZIG_VERSION}`);
  const python = join(venv, process.platform === "win32" ? "Scripts/python.exe" : "bin/python");
  const zig = [python, "-m", "ziglang"];
  const installed = (): boolean => existsSync(python) && spawnSync(python, ["-m", "ziglang", "version"], { encoding: "utf8" }).stdout.trim() === ZIG_VERSION;
  if (!installed()) {
    log(`installing ziglang==${ZIG_VERSION} from PyPI into ${relative(ROOT, venv)}`);
    rmSync(venv, { recursive: true, force: true });
    execFileSync("python3", ["-m", "venv", venv], { stdio: "inherit" });
    execFileSync(python, ["-m", "pip", "install", "--quiet", "--disable-pip-version-check", `ziglang==${ZIG_VERSION}`], { stdio: "inherit" });
    if (!installed()) throw new Error(`zig ${ZIG_VERSION} did not install`);
  }
  return zig;
}

/** The test executable of the host's native functions (runtimes/quickjs/native-check.ts), for this machine: never shipped. */
export const NATIVE_CHECK = join(WORK, "native-check");

async function buildNativeCheck(zig: string[], source: string, qjsc: string, target: ReleasePlatform): Promise<void> {
  const bundle = join(WORK, "native-check.mjs");
  await build({ ...bundleOptions(join(QUICKJS_HOST, "native-check.ts"), bundle), metafile: false });
  const bytecodeC = join(WORK, "native-check-bytecode.c");
  execFileSync(qjsc, ["-e", "-m", "-n", "native-check", "-o", bytecodeC, bundle]);
  writeFileSync(bytecodeC, withMemoryHooks(readFileSync(bytecodeC, "utf8")));
  const objects = await libraryObjects(zig, source, target.zigTarget);
  const staticLink = target.zigTarget.includes("linux") ? ["-static"] : [];
  await zigCc(zig, [
    "-target",
    target.zigTarget,
    ...cflags(target.zigTarget),
    `-I${source}`,
    "-s",
    ...staticLink,
    "-o",
    NATIVE_CHECK,
    bytecodeC,
    ...NATIVE_C,
    ...objects,
    "-lm",
  ]);
  log(`wrote ${relative(ROOT, NATIVE_CHECK)} (the native functions' test executable)`);
}

/** esbuild's options for a QuickJS entry: one ES module for qjsc, the engine's bundle patches applied. */
function bundleOptions(entry: string, outfile: string) {
  return {
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2023",
    mainFields: ["module", "main"],
    external: ["qjs:std", "qjs:os"],
    ...engineBundleOptions,
    absWorkingDir: ROOT,
  } satisfies BuildOptions;
}

async function bundleHost(): Promise<{ bundle: string; inputs: string[] }> {
  const outfile = join(WORK, "mailrender-engine.mjs");
  const options = bundleOptions(join(QUICKJS_HOST, "host.ts"), outfile);
  // The source map (beside the bundle, not named in it) lets bench/release-profile.ts name a bundle position's source.
  const result = await build({ ...options, sourcemap: "external", plugins: [lazyModulesPlugin, ...options.plugins] });
  log(`bundled engine/runtimes/quickjs/host.ts (${(statSync(outfile).size / 1024).toFixed(0)} KiB)`);
  return { bundle: outfile, inputs: Object.keys(result.metafile.inputs) };
}

/** Compiler flags QuickJS-ng's own build uses (CMakeLists.txt), per target. */
function cflags(zigTarget: string): string[] {
  const flags = ["-O2", "-D_GNU_SOURCE", "-DQJS_BUILD_LIBC", "-funsigned-char", "-fwrapv", "-Wno-everything"];
  if (zigTarget.includes("windows")) flags.push("-DWIN32_LEAN_AND_MEAN", "-D_WIN32_WINNT=0x0601");
  return flags;
}

/** QuickJS's own objects for one target, compiled once per QuickJS source and zig version. */
async function libraryObjects(zig: string[], source: string, zigTarget: string): Promise<string[]> {
  const cache = join(ENGINE, "dist", ".quickjs-objects", `${basename(dirname(dirname(source)))}-zig${ZIG_VERSION}`, zigTarget);
  mkdirSync(cache, { recursive: true });
  return Promise.all(
    LIBRARY_SOURCES.map(async (file) => {
      const object = join(cache, file.replace(/\.c$/, ".o"));
      if (!existsSync(object)) {
        await zigCc(zig, ["-target", zigTarget, ...cflags(zigTarget), `-I${source}`, "-c", join(source, file), "-o", `${object}.tmp`]);
        renameSync(`${object}.tmp`, object);
        log(`compiled ${file} for ${zigTarget}`);
      }
      return object;
    }),
  );
}

/**
 * qjsc, for the host's release target when there is one (so its QuickJS objects and zig's libc are
 * the ones the host's engine links: compiled once, not twice), else for zig's "native" target.
 */
async function buildQjsc(zig: string[], source: string): Promise<string> {
  const target = RELEASE_PLATFORMS.find((p) => p.id === HOST_ID)?.zigTarget ?? "native";
  const qjsc = join(WORK, `qjsc-${basename(dirname(dirname(source)))}-${target}${process.platform === "win32" ? ".exe" : ""}`);
  if (!existsSync(qjsc)) {
    const system = target.includes("windows") ? [] : ["-lm"];
    const staticLink = target.includes("linux") ? ["-static"] : [];
    await zigCc(zig, [
      "-target",
      target,
      ...cflags(target),
      `-I${source}`,
      ...staticLink,
      "-o",
      qjsc,
      join(source, "qjsc.c"),
      ...(await libraryObjects(zig, source, target)),
      ...system,
    ]);
  }
  return qjsc;
}

/**
 * How mimalloc is compiled for a Linux target: small (-Os, no statistics, unused functions dropped
 * at link time: +80 KiB), and with smaller pages. mimalloc asks for transparent huge pages, each of
 * which the kernel clears on its first touch (~0.2 ms here), and gives each block size pages of its
 * own: 64 KiB for small blocks, 512 KiB for each size between 8 and 64 KiB. A one-shot render's
 * ~4.5 MiB in use (dozens of sizes, a few blocks of most) spread over five huge pages; with 128 KiB
 * medium pages, four; with 32 KiB slices (small pages) as well, three
 * (docs/design/executable-runtimes.md, "Memory pages"; `heap-pages-budget.ts` keeps it). Slices
 * stay 64 KiB on ARM64, whose Linux may run with 64 KiB pages: mimalloc commits and returns memory
 * a slice at a time.
 */
function mimallocFlags(zigTarget: string): string[] {
  const slices = zigTarget.startsWith("x86_64") ? ["-DMI_SEGMENT_SLICE_SHIFT=15"] : [];
  return [
    "-Os",
    "-DNDEBUG",
    "-DMI_MALLOC_OVERRIDE",
    "-DMI_STAT=0",
    ...slices,
    "-DMI_MEDIUM_PAGE_SHIFT=17",
    "-ffunction-sections",
    "-fdata-sections",
    "-Wno-date-time",
  ];
}

/**
 * mimalloc for a Linux target, replacing zig's static C library's malloc (whose symbols are weak),
 * which never returns a page small allocations once used (runtimes/quickjs/native/memory.c).
 * Compiled once per version, target and flags.
 */
async function mimallocObject(zig: string[], mimalloc: string, zigTarget: string): Promise<string> {
  const flags = mimallocFlags(zigTarget);
  const flagsHash = createHash("sha256").update(flags.join(" ")).digest("hex").slice(0, 12);
  const version = `${basename(dirname(dirname(dirname(mimalloc))))}-zig${ZIG_VERSION}-${flagsHash}`;
  const cache = join(ENGINE, "dist", ".quickjs-objects", version, zigTarget);
  const object = join(cache, "mimalloc.o");
  if (!existsSync(object)) {
    mkdirSync(cache, { recursive: true });
    await zigCc(zig, ["-target", zigTarget, ...flags, `-I${join(mimalloc, "include")}`, "-c", join(mimalloc, "src", "static.c"), "-o", `${object}.tmp`]);
    renameSync(`${object}.tmp`, object);
    log(`compiled mimalloc for ${zigTarget}`);
  }
  return object;
}

/** A build other than the release's: QuickJS's own object replaced, symbols kept (`--profile`). */
interface LinkVariant {
  readonly quickjsObject: string;
}

async function link(
  zig: string[],
  source: string,
  mimalloc: string,
  target: ReleasePlatform,
  bytecodeC: string,
  out: string,
  variant?: LinkVariant,
): Promise<string> {
  const outDir = join(out, target.id);
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const exe = join(outDir, exeName(target.id));
  const library = await libraryObjects(zig, source, target.zigTarget);
  const objects = variant === undefined ? library : library.map((object) => (basename(object) === "quickjs.o" ? variant.quickjsObject : object));
  const system = target.zigTarget.includes("windows") ? [] : ["-lm"];
  const linux = target.zigTarget.includes("linux");
  const staticLink = linux ? ["-static", "-Wl,--gc-sections"] : [];
  const allocator = linux ? [await mimallocObject(zig, mimalloc, target.zigTarget)] : [];
  const hooks = linux ? ["-DMAILRENDER_MIMALLOC", `-I${join(mimalloc, "include")}`] : [];
  await zigCc(zig, [
    "-target",
    target.zigTarget,
    ...cflags(target.zigTarget),
    `-I${source}`,
    ...hooks,
    ...(variant === undefined ? ["-s"] : []),
    ...staticLink,
    "-o",
    exe,
    ...objects,
    bytecodeC,
    ...NATIVE_C,
    ...allocator,
    ...system,
  ]);
  for (const leftover of readdirSync(outDir)) if (leftover !== exeName(target.id)) rmSync(join(outDir, leftover), { force: true });
  log(`wrote ${relative(ROOT, exe)} (${(statSync(exe).size / 1024 / 1024).toFixed(2)} MiB)`);
  return exe;
}

/** `--profile` (see the header): the host's engine with the sampler, its bytecode keeping positions. */
async function buildProfiled(): Promise<void> {
  const target = RELEASE_PLATFORMS.find((p) => p.id === HOST_ID && p.zigTarget.includes("linux"));
  if (target === undefined) throw new Error(`the profiling build is for Linux hosts (this is ${HOST_ID})`);
  const source = quickjsSource();
  const zig = ensureZig();
  const work = join(WORK, "profile");
  mkdirSync(work, { recursive: true });
  const { bundle } = await bundleHost();
  const qjsc = await buildQjsc(zig, source);
  const bytecodeC = join(work, "engine-bytecode.c");
  await compileBundle(qjsc, bundle, bytecodeC, "profile");
  const quickjsC = join(work, "quickjs-profile.c");
  writeFileSync(quickjsC, readFileSync(join(source, "quickjs.c"), "utf8") + readFileSync(join(QUICKJS_HOST, "profile", "sampler.c"), "utf8"));
  const quickjsObject = join(work, "quickjs-profile.o");
  await zigCc(zig, ["-target", target.zigTarget, ...cflags(target.zigTarget), `-I${source}`, "-c", quickjsC, "-o", quickjsObject]);
  await link(zig, source, mimallocSource(), target, bytecodeC, work, { quickjsObject });
}

function quickjsVersion(source: string): string {
  const header = readFileSync(join(source, "quickjs.h"), "utf8");
  const part = (name: string): string => new RegExp(`#define QJS_VERSION_${name} (\\d+)`).exec(header)?.[1] ?? "?";
  return `${part("MAJOR")}.${part("MINOR")}.${part("PATCH")}`;
}

/** zig's lib directory (where the libc sources and their licences are), when zig says. */
export function zigLib(zig: string[]): string | undefined {
  const [command, ...prefix] = zig as [string, ...string[]];
  const run = spawnSync(command, [...prefix, "env"], { encoding: "utf8" });
  // JSON in older zig versions, ZON (`.lib_dir = "…"`) in newer ones.
  return /"?lib_dir"?\s*[:=]\s*"([^"]+)"/.exec(run.stdout ?? "")?.[1];
}

/** zig compiles, as many at once as there are CPUs. */
const jobs = { running: 0, waiting: [] as (() => void)[], limit: Math.max(1, availableParallelism()) };

async function zigCc(zig: string[], args: string[]): Promise<void> {
  if (jobs.running >= jobs.limit) await new Promise<void>((resume) => jobs.waiting.push(resume));
  jobs.running++;
  try {
    const [command, ...prefix] = zig as [string, ...string[]];
    const child = spawn(command, [...prefix, "cc", ...args], { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d: Buffer) => (output += d.toString()));
    child.stderr.on("data", (d: Buffer) => (output += d.toString()));
    const status = await new Promise<number | null>((done) => child.on("close", done));
    if (status !== 0) throw new Error(`zig cc ${args.join(" ")} failed:\n${output}`);
  } finally {
    jobs.running--;
    jobs.waiting.shift()?.();
  }
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error: unknown) => {
    process.stderr.write(`build-quickjs: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
}
