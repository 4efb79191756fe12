#!/usr/bin/env bash
# The release binaries (make engine-all: engine/dist/release/<os>-<arch>/) tested as far as this
# machine can: every binary against SHA256SUMS and its header (ELF / Mach-O / PE and the CPU); the
# host's binary is byte for byte the one `make engine` builds, which `make test-binary` and the
# engine suite run through every fixture and the protocol's edge cases; the linux-arm64 binary under
# qemu-user (Debian's qemu-user-static, from scripts/bootstrap) through the fixtures in --serve and
# a few one-shot runs. Never skips: a missing tool fails the suite.
set -euo pipefail
cd "$(dirname "$0")/.."
release="engine/dist/release"
say() { printf 'test-engine-release: %s\n' "$*" >&2; }

command -v qemu-aarch64-static >/dev/null 2>&1 || command -v qemu-aarch64 >/dev/null 2>&1 \
  || { say "qemu-user is missing: run scripts/bootstrap (make test does)"; exit 1; }
qemu="$(command -v qemu-aarch64-static || command -v qemu-aarch64)"

node_modules/.bin/tsx engine/scripts/check-release.ts
# The patched QuickJS-ng under the sanitizers, on its own test suite (the host's gcc, from scripts/bootstrap).
node_modules/.bin/tsx engine/scripts/check-quickjs-patches.ts
# Every repeated version equals its source, every package has the licence and the notices.
node scripts/sync-versions.mjs --check

host_id="$(node -p 'process.platform + "-" + process.arch')"
host="$release/$host_id/mailrender-engine"
make --no-print-directory engine
cmp "$host" "engine/dist/$host_id/mailrender-engine" \
  || { say "the release binary for $host_id differs from the one make engine built from the same sources"; exit 1; }
# The human commands, which run on the QuickJS shims of node:fs and node:util.
case_dir="fixtures/render/realistic-receipt"
python3 -c 'import json,sys; json.dump(json.load(open(sys.argv[1]))["template"], open(sys.argv[2], "w"))' "$case_dir/case.json" "${TMPDIR:-/tmp}/mailrender-release-template.json"
"$host" render --template "${TMPDIR:-/tmp}/mailrender-release-template.json" --target mjml --out "${TMPDIR:-/tmp}/mailrender-release-out.mjml" 2>/dev/null
"$host" validate --template "${TMPDIR:-/tmp}/mailrender-release-template.json" >/dev/null
if "$host" render --template /nonexistent.json --target html 2>/dev/null; then say "render of a missing file succeeded"; exit 1; fi

arm64="$release/linux-arm64/mailrender-engine"
fixtures/run --program "$qemu $arm64" --serve
fixtures/run --program "$qemu $arm64" --filter realistic

# npm: the CLI package and this platform's package, unpacked where npm puts them, run through the
# CLI's launcher; a binary changed after publishing must be refused.
node_modules/.bin/tsx engine/scripts/pack-npm.ts >/dev/null
version="$(node -p 'require("./engine/package.json").version')"
npm_tmp="$(mktemp -d)"
trap 'rm -rf "$npm_tmp"' EXIT
for pkg in engine-cli "engine-$host_id"; do
  mkdir -p "$npm_tmp/node_modules/@mailrender/$pkg"
  tar -xzf "engine/dist/npm/mailrender-$pkg-$version.tgz" -C "$npm_tmp/node_modules/@mailrender/$pkg" --strip-components=1
  for f in LICENSE THIRD_PARTY_NOTICES; do
    [ -f "$npm_tmp/node_modules/@mailrender/$pkg/$f" ] || { say "@mailrender/$pkg has no $f"; exit 1; }
  done
done
launcher="$npm_tmp/node_modules/@mailrender/engine-cli/bin/mailrender-engine.js"
got="$(node "$launcher" --version)"
[[ "$got" == "mailrender-engine $version "* ]] || { say "npm launcher --version said: $got"; exit 1; }
printf '%s' '{"template":{"template_id":"t","template_name":"t","schema_version":"1.0","canvas":{},"rows":[]},"target":"mjml"}' \
  | node "$launcher" | grep -q '"ok":true' || { say "npm launcher did not render"; exit 1; }
printf 'x' >>"$npm_tmp/node_modules/@mailrender/engine-$host_id/mailrender-engine"
if node "$launcher" --version >"$npm_tmp/out" 2>&1; then say "npm launcher ran a modified binary"; exit 1; fi
grep -q "does not match the checksum" "$npm_tmp/out" || { say "npm launcher's refusal: $(cat "$npm_tmp/out")"; exit 1; }
echo "npm packages: 3 passed, 0 failed"
