/**
 * `make engine-node`: builds the standalone mailrender-engine executable as a Node single-executable
 * application (SEA) into engine/dist/node/<os>-<arch>/mailrender-engine[.exe] plus
 * engine/dist/node/SHA256SUMS: ~130 MiB against the release build's ~1.7 MiB (`make engine`), for
 * those who choose V8's `--serve` throughput over size (engine/README.md, "Distribution").
 *
 *   1. bundle engine/src/cli.ts into one CommonJS file (esbuild);
 *   2. per platform, write a SEA blob from the bundle: the host's with a V8 startup snapshot of the
 *      warmed engine (must be made by the very Node binary it is injected into), the others plain;
 *   3. copy the pinned Node runtime (engine/runtimes, from the npm registry) and inject the blob
 *      with postject; 4. smoke-test the host binary and write SHA256SUMS.
 *
 * Host only by default; ALL_PLATFORMS=1 adds every platform pinned in engine/runtimes/package.json.
 * Why Node SEA and not pkg: see engine/README.md.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { buildMarkupPassesWasm } from "./build-wasm.js";
import { sha256, smokeTest } from "./built-binary.js";
import { engineBundleOptions } from "./bundle-stubs.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const ENGINE = join(ROOT, "engine");
const RUNTIMES = join(ENGINE, "runtimes");
const DIST = join(ENGINE, "dist", "node");
const WORK = join(ENGINE, "dist", ".build");
const RUNTIME_CACHE = join(ENGINE, "dist", ".runtimes");
const BIN = join(ROOT, "node_modules", ".bin");
const SEA_FUSE = "NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2";

interface Platform {
  readonly os: "linux" | "darwin" | "win32";
  readonly arch: "x64" | "arm64";
}
const npmName = (p: Platform): string => `node-${p.os === "win32" ? "win" : p.os}-${p.arch}`;
const platformId = (p: Platform): string => `${p.os}-${p.arch}`;
const exeName = (p: Platform): string => (p.os === "win32" ? "mailrender-engine.exe" : "mailrender-engine");
const nodeIn = (dir: string, p: Platform): string => join(dir, "bin", p.os === "win32" ? "node.exe" : "node");

const HOST: Platform = { os: process.platform as Platform["os"], arch: process.arch as Platform["arch"] };
const started = Date.now();
const log = (line: string): void => void process.stderr.write(`[build-binary ${((Date.now() - started) / 1000).toFixed(1)}s] ${line}\n`);

async function main(): Promise<void> {
  const pins = readPins();
  const hostPin = pins.get(npmName(HOST));
  if (hostPin === undefined) throw new Error(`engine/runtimes/package.json pins no runtime for this host (${npmName(HOST)})`);
  const targets = process.env["ALL_PLATFORMS"] === "1" ? [...pins.keys()].map(parseNpmName) : [HOST];

  const hostNode = ensureHostRuntime(hostPin);
  rmSync(WORK, { recursive: true, force: true });
  mkdirSync(WORK, { recursive: true });
  buildMarkupPassesWasm();
  const bundle = await bundleCli();

  // SHA256SUMS lists exactly this build's binaries: drop other platforms' leftovers from earlier builds.
  mkdirSync(DIST, { recursive: true });
  for (const entry of readdirSync(DIST, { withFileTypes: true })) {
    if (entry.isDirectory() && /^(linux|darwin|win32)-/.test(entry.name) && !targets.some((t) => platformId(t) === entry.name)) {
      rmSync(join(DIST, entry.name), { recursive: true, force: true });
    }
  }
  const sums: string[] = [];
  for (const target of targets) {
    const isHost = platformId(target) === platformId(HOST);
    const version = pins.get(npmName(target)) as string;
    const runtimeDir = isHost ? dirname(dirname(hostNode)) : fetchRuntime(npmName(target), version);
    // The blob is made by a Node of the target's exact version; a snapshot only by the target binary itself.
    const blobMaker = isHost ? hostNode : version === hostPin ? hostNode : nodeIn(fetchRuntime(npmName(HOST), version), HOST);
    const blob = makeBlob(bundle, platformId(target), blobMaker, isHost);
    const exe = inject(target, nodeIn(runtimeDir, target), blob);
    if (isHost) log(`smoke test passed (engine ${smokeTest(exe)})`);
    sums.push(`${sha256(exe)}  ${relative(DIST, exe).split("\\").join("/")}`);
  }
  writeFileSync(join(DIST, "SHA256SUMS"), `${sums.sort((a, b) => a.slice(66).localeCompare(b.slice(66))).join("\n")}\n`);
  // KEEP_BUILD=1 keeps engine/dist/.build (bundle, esbuild metafile, blobs) for analysis.
  if (process.env["KEEP_BUILD"] !== "1") rmSync(WORK, { recursive: true, force: true });
  log(`done: ${targets.map(platformId).join(", ")} (SHA256SUMS written)`);
}

/** The runtime versions pinned in engine/runtimes/package.json, by npm package name. */
function readPins(): Map<string, string> {
  const manifest = JSON.parse(readFileSync(join(RUNTIMES, "package.json"), "utf8")) as { optionalDependencies: Record<string, string> };
  return new Map(Object.entries(manifest.optionalDependencies));
}

function parseNpmName(name: string): Platform {
  const [, os, arch] = /^node-(linux|darwin|win)-(x64|arm64)$/.exec(name) ?? [];
  if (os === undefined || arch === undefined) throw new Error(`unexpected runtime package ${name}`);
  return { os: os === "win" ? "win32" : (os as Platform["os"]), arch: arch as Platform["arch"] };
}

/** npm installs the host's runtime (the others are optional dependencies for other platforms). */
function ensureHostRuntime(version: string): string {
  const node = nodeIn(join(RUNTIMES, "node_modules", npmName(HOST)), HOST);
  if (!existsSync(node) || runtimeVersion(node) !== version) {
    log(`installing ${npmName(HOST)}@${version} into engine/runtimes`);
    execFileSync("npm", ["install", "--prefix", RUNTIMES, "--no-audit", "--no-fund", "--loglevel=error"], { stdio: ["ignore", "ignore", "inherit"] });
  }
  if (runtimeVersion(node) !== version) throw new Error(`${node} is not Node ${version}`);
  return node;
}

function runtimeVersion(node: string): string {
  return execFileSync(node, ["--version"], { encoding: "utf8" }).trim().replace(/^v/, "");
}

/**
 * A runtime for another platform: `npm pack` fetches the pinned tarball (npm checks it against the
 * registry) and we check it again against engine/runtimes/package-lock.json when the lock has it.
 */
function fetchRuntime(pkg: string, version: string): string {
  const dir = join(RUNTIME_CACHE, `${pkg}-${version}`);
  if (existsSync(join(dir, "package.json"))) return dir;
  mkdirSync(RUNTIME_CACHE, { recursive: true });
  log(`fetching ${pkg}@${version}`);
  const packed = execFileSync("npm", ["pack", `${pkg}@${version}`, "--pack-destination", RUNTIME_CACHE, "--silent"], { encoding: "utf8" })
    .trim()
    .split("\n")
    .pop() as string;
  const tarball = join(RUNTIME_CACHE, packed);
  const locked = lockedIntegrity(pkg, version);
  if (locked !== undefined) {
    const actual = `sha512-${createHash("sha512").update(readFileSync(tarball)).digest("base64")}`;
    if (actual !== locked) throw new Error(`${pkg}@${version}: integrity ${actual} does not match the lock's ${locked}`);
  }
  mkdirSync(dir, { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", dir, "--strip-components=1"]);
  rmSync(tarball);
  return dir;
}

function lockedIntegrity(pkg: string, version: string): string | undefined {
  const lock = JSON.parse(readFileSync(join(RUNTIMES, "package-lock.json"), "utf8")) as { packages: Record<string, { version?: string; integrity?: string }> };
  const entry = lock.packages[`node_modules/${pkg}`];
  return entry?.version === version ? entry.integrity : undefined;
}

async function bundleCli(): Promise<string> {
  const outfile = join(WORK, "mailrender-engine.cjs");
  const result = await build({
    entryPoints: [join(ENGINE, "src", "cli.ts")],
    outfile,
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node22",
    ...engineBundleOptions,
  });
  if (result.errors.length > 0) throw new Error("esbuild failed");
  writeFileSync(join(WORK, "metafile.json"), JSON.stringify(result.metafile));
  log(`bundled engine/src/cli.ts (${(readFileSync(outfile).length / 1024).toFixed(0)} KiB)`);
  return outfile;
}

function makeBlob(bundle: string, id: string, node: string, snapshot: boolean): string {
  const blob = join(WORK, `${id}.blob`);
  const config = join(WORK, `${id}.sea-config.json`);
  writeFileSync(
    config,
    JSON.stringify({
      main: bundle,
      output: blob,
      disableExperimentalSEAWarning: true,
      // A snapshot (and a code cache) is tied to the exact binary that made it: host only.
      useSnapshot: snapshot,
      useCodeCache: false,
      // A semi-space as large as V8's default maximum from the start: a cold render of a large
      // template otherwise runs ~7 scavenges (about 7 ms) while the young generation grows to it.
      // One V8 background thread instead of Node's default four: starting and joining the other
      // three cost a one-shot run ~6 ms, and a --serve process has one render at a time to help.
      execArgv: ["--min-semi-space-size=16", "--v8-pool-size=1"],
    }),
  );
  const run = spawnSync(node, ["--experimental-sea-config", config], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`SEA blob for ${id} failed:\n${run.stderr}`);
  const warm = run.stderr.split("\n").filter((l) => l.includes("mailrender-engine build:"));
  if (warm.length > 0) throw new Error(`building the startup snapshot failed:\n${warm.join("\n")}`);
  log(`SEA blob for ${id}${snapshot ? " with startup snapshot" : ""}`);
  return blob;
}

function inject(target: Platform, runtimeNode: string, blob: string): string {
  const outDir = join(DIST, platformId(target));
  mkdirSync(outDir, { recursive: true });
  for (const stale of readdirSync(outDir)) rmSync(join(outDir, stale), { force: true });
  const exe = join(outDir, exeName(target));
  copyFileSync(runtimeNode, exe);
  chmodSync(exe, 0o755);
  const args = [exe, "NODE_SEA_BLOB", blob, "--sentinel-fuse", SEA_FUSE];
  // macOS: the injected binary's signature is invalid; see engine/README.md for re-signing.
  if (target.os === "darwin") args.push("--macho-segment-name", "NODE_SEA");
  const run = spawnSync(join(BIN, "postject"), args, { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`postject failed for ${platformId(target)}:\n${run.stdout}${run.stderr}`);
  log(`wrote ${relative(ROOT, exe)} (${(readFileSync(exe).length / 1024 / 1024).toFixed(1)} MiB)`);
  return exe;
}

main().catch((error: unknown) => {
  process.stderr.write(`build-binary: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
