/**
 * The engine CLI's npm packages from the release build (make engine-all), the way esbuild ships:
 * one package per platform holding only that platform's binary (npm installs the one whose
 * `os`/`cpu` match), and @mailrender/engine-cli, which depends on all of them optionally, carries
 * their SHA-256 (checksums.json, from SHA256SUMS) and refuses a binary that differs.
 * Writes engine/dist/npm/*.tgz. Refuses a binary whose header names another platform.
 */
import { execFileSync } from "node:child_process";
import { chmodSync, copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { exeName, RELEASE_PLATFORMS } from "./build-quickjs.js";
import { readSha256sums } from "./built-binary.js";
import { readExecutableFormat } from "./executable-format.js";

const ENGINE = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const RELEASE = join(ENGINE, "dist", "release");
const NPM = join(ENGINE, "npm");
const OUT = join(ENGINE, "dist", "npm");

const sums = readSha256sums(join(RELEASE, "SHA256SUMS"));

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT, { recursive: true });
const pack = (dir: string): string =>
  execFileSync("npm", ["pack", "--silent", "--pack-destination", OUT], { cwd: dir, encoding: "utf8" }).trim().split("\n").pop() as string;

const checksums: Record<string, string> = {};
for (const { id } of RELEASE_PLATFORMS) {
  const file = `${id}/${exeName(id)}`;
  const binary = join(RELEASE, file);
  const format = readExecutableFormat(binary);
  if (format.platform !== id) throw new Error(`${binary} is a ${format.format} binary for ${format.platform}, not ${id}: refusing to pack it`);
  const hash = sums.get(file);
  if (hash === undefined) throw new Error(`SHA256SUMS lists no ${file}`);
  checksums[file] = hash;
  const dir = join(NPM, `engine-${id}`);
  copyFileSync(binary, join(dir, exeName(id)));
  chmodSync(join(dir, exeName(id)), 0o755);
  process.stdout.write(`${pack(dir)}\n`);
}
writeFileSync(join(NPM, "engine-cli", "checksums.json"), `${JSON.stringify(checksums, null, 2)}\n`);
process.stdout.write(`${pack(join(NPM, "engine-cli"))}\n`);
