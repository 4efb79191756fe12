#!/usr/bin/env bash
# The studio in a real browser: Debian's chromium (from scripts/bootstrap) driven by puppeteer-core,
# against a real server on SQLite. Screenshots land in server/browser/screenshots/ (git-ignored).
# If chromium cannot be installed the suite fails; it never skips. CHROMIUM_PATH overrides the binary.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'test-studio: %s\n' "$*" >&2; }

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
[ -x "$chromium" ] || { say "chromium is not at $chromium: run scripts/bootstrap (make test does)"; exit 1; }
export CHROMIUM_PATH="$chromium"

node_modules/.bin/tsx server/scripts/build-studio.ts
node_modules/.bin/vitest run --config server/browser/vitest.config.ts "$@"
