/**
 * Where this machine's mailrender-engine executable is, checked: the optional dependency
 * `@mailrender/engine-<os>-<arch>` that npm installed for this platform, whose binary must have the
 * SHA-256 this package was published with (checksums.json, made from the release's SHA256SUMS).
 * A binary that differs is refused, whatever put it there.
 */
const { createHash } = require("node:crypto");
const { readFileSync } = require("node:fs");
const { join } = require("node:path");

const platform = `${process.platform}-${process.arch}`;
const exe = process.platform === "win32" ? "mailrender-engine.exe" : "mailrender-engine";

class EngineNotInstalled extends Error {}

function enginePath() {
  const pkg = `@mailrender/engine-${platform}`;
  const checksums = JSON.parse(readFileSync(join(__dirname, "checksums.json"), "utf8"));
  const expected = checksums[`${platform}/${exe}`];
  if (expected === undefined) throw new EngineNotInstalled(`mailrender-engine has no build for ${platform}`);
  let path;
  try {
    path = join(require.resolve(`${pkg}/package.json`), "..", exe);
  } catch {
    throw new EngineNotInstalled(`${pkg} is not installed: npm skips optional dependencies with --no-optional / --omit=optional; reinstall without it`);
  }
  let actual;
  try {
    actual = createHash("sha256").update(readFileSync(path)).digest("hex");
  } catch (error) {
    throw new EngineNotInstalled(`cannot read ${path}: ${error.message}`);
  }
  if (actual !== expected)
    throw new EngineNotInstalled(
      `${path} does not match the checksum @mailrender/engine-cli was published with (expected ${expected}, got ${actual}): refusing to run it`,
    );
  return path;
}

module.exports = { enginePath, EngineNotInstalled };
