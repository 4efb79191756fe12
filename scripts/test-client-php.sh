#!/usr/bin/env bash
# The PHP client's suite: PHP 8.2, PHPUnit 9 and PHP_CodeSniffer from Debian (scripts/bootstrap),
# the engine executable (make engine) copied into the package's bin/, the server built, then phpcs
# (PSR-12) and PHPUnit against the real server and the real engine. If PHP cannot be installed the
# suite fails; it never skips.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
pkg="$root/clients/php"

say() { printf 'test-client-php: %s\n' "$*" >&2; }

# --- PHP and tools from Debian, installed by scripts/bootstrap ----------------------------------------
for tool in php phpunit phpcs; do
  command -v "$tool" >/dev/null || { say "$tool is missing: run scripts/bootstrap (make test does)"; exit 1; }
done
php -r 'exit(PHP_VERSION_ID >= 80100 ? 0 : 1);' || { say "PHP >= 8.1 is needed, found $(php -r 'echo PHP_VERSION;')"; exit 1; }

# --- the engine executable and the server ------------------------------------------------------------
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
make -C "$root" --no-print-directory engine >"$log" 2>&1 || { cat "$log" >&2; say "make engine failed"; exit 1; }
platform="$(node -p 'process.platform + "-" + process.arch')"
engine="$root/engine/dist/$platform/mailrender-engine"
[ -x "$engine" ] || { say "$engine was not built"; exit 1; }
# The bundled binary: what a published package carries in bin/<os>-<arch>/ (gitignored in the repo).
mkdir -p "$pkg/bin/$platform"
if ! cmp -s "$engine" "$pkg/bin/$platform/mailrender-engine"; then
  cp "$engine" "$pkg/bin/$platform/mailrender-engine.tmp"
  chmod 0755 "$pkg/bin/$platform/mailrender-engine.tmp"
  mv -f "$pkg/bin/$platform/mailrender-engine.tmp" "$pkg/bin/$platform/mailrender-engine"
fi
# The release build for every platform, which the engine installer's test serves over HTTP.
make -C "$root" --no-print-directory engine-all >"$log" 2>&1 || { cat "$log" >&2; say "make engine-all failed"; exit 1; }
npm run build -w @mailrender/server --silent >"$log" 2>&1 || { cat "$log" >&2; say "the server build failed"; exit 1; }

# --- the other clients, for the cross-language disk-cache test (tests/Integration/CacheInteropTest.php) --
# JS runs from source under tsx (root npm install); Python in its test virtualenv, made here if the
# Python suite has not made it yet (only the runtime dependency is needed).
venv="$root/clients/python/.venv"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "$(grep '^httpx==' "$root/clients/python/requirements-dev.txt")"
fi

# --- autoloader: composer works offline for this (no dependencies); a PSR-4 fallback otherwise ------
cd "$pkg"
if command -v composer >/dev/null; then
  COMPOSER_ALLOW_SUPERUSER=1 COMPOSER_NO_INTERACTION=1 composer dump-autoload --dev --quiet
else
  mkdir -p vendor
  cat >vendor/autoload.php <<'PHP'
<?php

declare(strict_types=1);

// Written by scripts/test-client-php.sh when composer is unavailable: PSR-4 for src/ and tests/.
spl_autoload_register(static function (string $class): void {
    foreach (['Mailrender\\Tests\\' => __DIR__ . '/../tests/', 'Mailrender\\' => __DIR__ . '/../src/'] as $prefix => $dir) {
        if (str_starts_with($class, $prefix)) {
            $file = $dir . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
            if (is_file($file)) {
                require $file;
            }
            return;
        }
    }
});
PHP
fi

# --- lint, then the suite ---------------------------------------------------------------------------
for f in $(find src tests -name '*.php'); do php -l "$f" >/dev/null || { say "syntax error in $f"; exit 1; }; done
phpcs -q --report=full
phpunit "$@"
