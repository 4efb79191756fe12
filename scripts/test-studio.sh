#!/usr/bin/env bash
# The studio in a real browser: Debian's chromium (installed when missing) driven by puppeteer-core,
# against a real server on SQLite. Screenshots land in server/browser/screenshots/ (git-ignored).
# If chromium cannot be installed the suite fails; it never skips. CHROMIUM_PATH overrides the binary.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'test-studio: %s\n' "$*" >&2; }

chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ ! -x "$chromium" ]; then
  say "installing chromium"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { say "need root (or sudo) to install chromium"; exit 1; }
    sudo_cmd=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq || { say "apt-get update failed"; exit 1; }
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null || { say "could not install chromium"; exit 1; }
  [ -x "$chromium" ] || { say "chromium is not at $chromium after installation"; exit 1; }
fi
export CHROMIUM_PATH="$chromium"

node_modules/.bin/tsx server/scripts/build-studio.ts
node_modules/.bin/vitest run --config server/browser/vitest.config.ts "$@"
