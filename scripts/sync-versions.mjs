#!/usr/bin/env node
/**
 * One version source per package, copied to the places that must repeat it, and one licence copied
 * into every package (a published package cannot point outside itself):
 *
 *   engine/package.json            -> engine/src/base/version.ts, engine/npm/* (and their pins on each
 *                                     other), clients/php/composer.json extra.mailrender-engine
 *   clients/js/package.json        -> clients/js/src/constants.ts CLIENT_VERSION
 *   clients/python/pyproject.toml  -> clients/python/src/mailrender/_constants.py VERSION
 *   clients/php/composer.json      -> clients/php/src/Defaults.php CLIENT_VERSION
 *   each package's version         -> the file names of the install commands in the client READMEs and
 *                                     docs/operations.md (dist/npm/mailrender-engine-1.2.0.tgz, …)
 *   LICENSE                        -> LICENSE of engine, engine/npm/*, server, clients/*
 *   THIRD_PARTY_NOTICES            -> the packages that ship the engine executable: engine/npm/*,
 *                                     clients/python, clients/php (the file is written by
 *                                     `make engine-all` as engine/dist/release/THIRD_PARTY_NOTICES;
 *                                     scripts/test-engine-release.sh checks the committed one is current)
 *
 * `node scripts/sync-versions.mjs` writes what differs; `--check` only lists it and exits 1 if any.
 * To release a new version: change the source, run this script, commit.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const check = process.argv.includes("--check");
const read = (file) => readFileSync(join(ROOT, file), "utf8");
const readOrEmpty = (file) => (existsSync(join(ROOT, file)) ? read(file) : "");
const readJson = (file) => JSON.parse(read(file));
const stale = [];

function put(file, expected) {
  if (readOrEmpty(file) === expected) return;
  stale.push(file);
  if (!check) writeFileSync(join(ROOT, file), expected);
}

function replaceOne(file, pattern, replacement) {
  const text = read(file);
  if (!pattern.test(text)) throw new Error(`${file}: no match for ${pattern}`);
  put(file, text.replace(pattern, replacement));
}

const json = (value) => `${JSON.stringify(value, null, 2)}\n`;

// The engine: library, npm CLI packages, the PHP installer's pin.
const engineVersion = readJson("engine/package.json").version;
replaceOne("engine/src/base/version.ts", /ENGINE_VERSION = "[^"]*"/, `ENGINE_VERSION = "${engineVersion}"`);
const npmDirs = readdirSync(join(ROOT, "engine/npm"), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => `engine/npm/${d.name}`);
for (const dir of npmDirs) {
  const manifest = readJson(`${dir}/package.json`);
  manifest.version = engineVersion;
  for (const name of Object.keys(manifest.optionalDependencies ?? {})) manifest.optionalDependencies[name] = engineVersion;
  put(`${dir}/package.json`, json(manifest));
}
const composerText = read("clients/php/composer.json");
const composer = JSON.parse(composerText);
composer.extra["mailrender-engine"].version = engineVersion;
put("clients/php/composer.json", `${JSON.stringify(composer, null, 4)}\n`);

// The clients' own versions.
const jsVersion = readJson("clients/js/package.json").version;
replaceOne("clients/js/src/constants.ts", /CLIENT_VERSION = "[^"]*"/, `CLIENT_VERSION = "${jsVersion}"`);
const pyVersion = /^version = "([^"]+)"$/m.exec(read("clients/python/pyproject.toml"))?.[1];
if (pyVersion === undefined) throw new Error("clients/python/pyproject.toml: no version");
replaceOne("clients/python/src/mailrender/_constants.py", /^VERSION = "[^"]*"/m, `VERSION = "${pyVersion}"`);
replaceOne("clients/php/src/Defaults.php", /CLIENT_VERSION = '[^']*'/, `CLIENT_VERSION = '${composer.version}'`);

// The install commands name the packages' files in dist/, versions included.
const serverVersion = readJson("server/package.json").version;
const distNames = [
  [/mailrender-engine-\d+\.\d+\.\d+\.tgz/g, `mailrender-engine-${engineVersion}.tgz`],
  [/mailrender-client-\d+\.\d+\.\d+\.tgz/g, `mailrender-client-${jsVersion}.tgz`],
  [/mailrender-server-\d+\.\d+\.\d+\.tgz/g, `mailrender-server-${serverVersion}.tgz`],
  [/mailrender==\d+\.\d+\.\d+/g, `mailrender==${pyVersion}`],
];
for (const file of ["clients/js/README.md", "clients/python/README.md", "docs/operations.md"]) {
  put(
    file,
    distNames.reduce((text, [pattern, name]) => text.replace(pattern, name), read(file)),
  );
}

// The licence.
const licence = read("LICENSE");
for (const dir of ["engine", "server", "clients/js", "clients/python", "clients/php", ...npmDirs]) put(`${dir}/LICENSE`, licence);
const notices = read("THIRD_PARTY_NOTICES");
for (const dir of ["clients/python", "clients/php", ...npmDirs]) put(`${dir}/THIRD_PARTY_NOTICES`, notices);

if (stale.length > 0) {
  process.stdout.write(`${check ? "out of sync" : "updated"}: ${stale.map((f) => relative(ROOT, join(ROOT, f))).join(", ")}\n`);
  if (check) process.exit(1);
} else {
  process.stdout.write("versions and licences in sync\n");
}
