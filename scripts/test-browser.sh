#!/usr/bin/env bash
# The browser suite: every render fixture's html and react-email output in three engines, each
# from Debian (scripts/bootstrap installs them; no browser is downloaded): Chromium (`chromium`,
# puppeteer-core over CDP), Gecko (`firefox-esr`, puppeteer-core over WebDriver BiDi) and WebKit
# (`webkit2gtk-driver`'s WebKitWebDriver and MiniBrowser, over W3C WebDriver, on an `xvfb` display).
# Screenshots land in engine/build/browser/screenshots/<engine>. A missing browser fails the suite;
# it never skips. Arguments go to vitest: `scripts/test-browser.sh webkit` runs one engine.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf 'test-browser: %s\n' "$*" >&2; }

missing=()
chromium="${CHROMIUM:-$(command -v chromium || true)}"
[ -x "$chromium" ] || missing+=("chromium (package chromium)")
firefox="${FIREFOX:-$(command -v firefox-esr || true)}"
[ -x "$firefox" ] || missing+=("firefox-esr (package firefox-esr)")
command -v WebKitWebDriver >/dev/null || missing+=("WebKitWebDriver (package webkit2gtk-driver)")
compgen -G "/usr/lib/*/webkit2gtk-4.1/MiniBrowser" >/dev/null || missing+=("MiniBrowser (package libwebkit2gtk-4.1-0)")
command -v Xvfb >/dev/null || missing+=("Xvfb (package xvfb)")
command -v openssl >/dev/null || missing+=("openssl (package openssl)")
if ((${#missing[@]} > 0)); then
  say "missing: ${missing[*]}; run scripts/bootstrap (make test does)"
  exit 1
fi
export CHROMIUM="$chromium" FIREFOX="$firefox"
cd engine
exec ../node_modules/.bin/vitest run --config test-browser/vitest.config.ts "$@"
