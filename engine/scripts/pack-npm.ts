/**
 * The engine CLI's npm packages, the way esbuild ships: one package per platform holding only that
 * platform's binary (npm installs the one whose `os`/`cpu` match), and @mailrender/engine-cli, which
 * depends on all of them optionally, carries their SHA-256 (checksums.json) and refuses a binary
 * that differs.
 *
 *   tsx engine/scripts/pack-npm.ts [--host] [--out DIR]
 *       `npm pack` of the platform packages — every platform, or with --host this machine's — and
 *       of engine-cli, into DIR (default engine/dist/npm). `make packages` uses --host.
 *   tsx ../../scripts/pack-npm.ts --prepack
 *       what each package's `prepack` runs, in its folder, so that `npm pack` never ships a package
 *       without its binary: a platform package builds its binary (`make engine` for this machine's,
 *       `make engine-all` for another's) and copies it in, refusing one whose header names another
 *       platform; engine-cli writes checksums.json for every binary built from these sources.
 */
import { execFileSync, spawnSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { exeName, RELEASE_PLATFORMS } from "./build-quickjs.js";
import { readSha256sums } from "./built-binary.js";
import { readExecutableFormat } from "./executable-format.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DIST = join(ROOT, "engine", "dist");
const NPM = join(ROOT, "engine", "npm");
const HOST_ID = `${process.platform}-${process.arch}`;

const make = (target: string): void => void execFileSync("make", ["-C", ROOT, "--no-print-directory", target], { stdio: ["ignore", 2, "inherit"] });

/** Where `make` puts a platform's binary: engine/dist/<id>/ for this machine, engine/dist/release/<id>/ for the others. */
const buildDir = (id: string): string => (id === HOST_ID ? DIST : join(DIST, "release"));

/** A platform package's prepack: the binary for its platform, built from these sources and checked. */
function preparePlatformPackage(dir: string, id: string): void {
  make(id === HOST_ID ? "engine" : "engine-all");
  const binary = join(buildDir(id), id, exeName(id));
  const format = readExecutableFormat(binary);
  if (format.platform !== id) throw new Error(`${binary} is a ${format.format} binary for ${format.platform}, not ${id}: refusing to pack it`);
  copyFileSync(binary, join(dir, exeName(id)));
  chmodSync(join(dir, exeName(id)), 0o755);
}

/**
 * engine-cli's prepack: the checksum of this machine's binary, and of the other platforms' when the
 * release build is current (`make -q engine-all`), so the CLI accepts exactly the binaries packed
 * from these sources.
 */
function prepareCliPackage(dir: string): void {
  make("engine");
  const releaseCurrent = spawnSync("make", ["-C", ROOT, "-q", "engine-all"]).status === 0;
  const checksums: Record<string, string> = {};
  for (const { id } of RELEASE_PLATFORMS) {
    if (id !== HOST_ID && !releaseCurrent) continue;
    const file = `${id}/${exeName(id)}`;
    const hash = readSha256sums(join(buildDir(id), "SHA256SUMS")).get(file);
    if (hash === undefined) throw new Error(`${join(buildDir(id), "SHA256SUMS")} lists no ${file}`);
    checksums[file] = hash;
  }
  writeFileSync(join(dir, "checksums.json"), `${JSON.stringify(checksums, null, 2)}\n`);
}

function prepack(dir: string): void {
  const { name } = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { name: string };
  if (name === "@mailrender/engine-cli") {
    prepareCliPackage(dir);
    return;
  }
  const id = /^@mailrender\/engine-(.+)$/.exec(name)?.[1];
  if (id === undefined || !RELEASE_PLATFORMS.some((p) => p.id === id)) throw new Error(`${name} is not one of the engine's npm packages`);
  preparePlatformPackage(dir, id);
}

function packAll(argv: readonly string[]): void {
  const outAt = argv.indexOf("--out");
  const out = outAt >= 0 && argv[outAt + 1] !== undefined ? resolve(argv[outAt + 1] as string) : join(DIST, "npm");
  if (outAt < 0) rmSync(out, { recursive: true, force: true }); // engine/dist/npm holds only this run's tarballs
  const platforms = argv.includes("--host") ? RELEASE_PLATFORMS.filter((p) => p.id === HOST_ID) : RELEASE_PLATFORMS;
  if (platforms.length === 0) throw new Error(`the engine is not built for this machine (${HOST_ID})`);
  mkdirSync(out, { recursive: true });
  // The platform packages first: engine-cli's checksums are those of the binaries they now hold.
  for (const dir of [...platforms.map((p) => join(NPM, `engine-${p.id}`)), join(NPM, "engine-cli")]) {
    const packed = execFileSync("npm", ["pack", "--silent", "--pack-destination", out], { cwd: dir, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] });
    process.stdout.write(`${basename(packed.trim().split("\n").pop() as string)}\n`);
  }
}

try {
  if (process.argv.includes("--prepack")) prepack(process.cwd());
  else packAll(process.argv.slice(2));
} catch (error) {
  process.stderr.write(`pack-npm: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
