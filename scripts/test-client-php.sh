#!/usr/bin/env bash
# The PHP client's suite: PHP 8.2, PHPUnit 9 and PHP_CodeSniffer from Debian (installed when missing),
# the engine executable (make engine) copied into the package's bin/, the server built, then phpcs
# (PSR-12) and PHPUnit against the real server and the real engine. If PHP cannot be installed the
# suite fails; it never skips.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$(pwd)"
pkg="$root/clients/php"

say() { printf 'test-client-php: %s\n' "$*" >&2; }

# --- PHP and tools from Debian (idempotent, non-interactive) -----------------------------------------
# php-psr-http-* and php-guzzlehttp-guzzle only serve the Psr18Transport test (a real PSR-18 client);
# the package itself merely suggests the PSR interfaces.
packages=(php-cli php-curl php-mbstring php-xml phpunit php-codesniffer composer
  php-psr-http-client php-psr-http-message php-psr-http-factory php-guzzlehttp-guzzle php-guzzlehttp-psr7)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done
if ((${#missing[@]} > 0)); then
  say "installing ${missing[*]}"
  sudo_cmd=()
  if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { say "need root (or sudo) to install: ${missing[*]}"; exit 1; }
    sudo_cmd=(sudo)
  fi
  export DEBIAN_FRONTEND=noninteractive
  "${sudo_cmd[@]}" apt-get update -qq || { say "apt-get update failed"; exit 1; }
  "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null \
    || { say "could not install ${missing[*]}"; exit 1; }
fi
for tool in php phpunit phpcs; do
  command -v "$tool" >/dev/null || { say "$tool is not available after installation"; exit 1; }
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
