#!/usr/bin/env bash
# The browser suite: every render fixture's html and react-email output in headless Chromium
# (Debian's `chromium`, installed when missing; puppeteer-core drives it, no browser download).
# Screenshots land in engine/build/browser/screenshots. If Chromium cannot be installed the suite
# fails; it never skips.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'test-browser: %s\n' "$*" >&2; }

chromium="${CHROMIUM:-$(command -v chromium || true)}"
if [ -z "$chromium" ]; then
  say "installing the Debian chromium package"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { say "need root (or sudo) to install chromium"; exit 1; }
    sudo_cmd=(sudo -n)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq || { say "apt-get update failed"; exit 1; }
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends chromium fonts-dejavu-core >/dev/null || { say "apt-get install chromium failed"; exit 1; }
  chromium="$(command -v chromium)"
fi
export CHROMIUM="$chromium"
cd engine
exec ../node_modules/.bin/vitest run --config test-browser/vitest.config.ts "$@"
