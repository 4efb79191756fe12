#!/usr/bin/env bash
# The browser suite: every render fixture's html and react-email output in headless Chromium
# (Debian's `chromium`, from scripts/bootstrap; puppeteer-core drives it, no browser download).
# Screenshots land in engine/build/browser/screenshots. Without Chromium the suite fails; it
# never skips.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'test-browser: %s\n' "$*" >&2; }

chromium="${CHROMIUM:-$(command -v chromium || true)}"
[ -n "$chromium" ] || { say "chromium is missing: run scripts/bootstrap (make test does)"; exit 1; }
export CHROMIUM="$chromium"
cd engine
exec ../node_modules/.bin/vitest run --config test-browser/vitest.config.ts "$@"
