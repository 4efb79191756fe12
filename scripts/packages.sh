#!/usr/bin/env bash
# `make packages`: every installable artefact, built from this checkout into dist/ (git-ignored):
#
#   dist/npm/      @mailrender/engine (the library), @mailrender/client, @mailrender/server,
#                  @mailrender/engine-cli and the engine's platform package(s) — `npm pack` of each,
#                  whose `prepack` builds what it ships
#   dist/python/   the mailrender wheel(s), each with its platform's release engine inside
#   dist/php/      mailrender/client as a zip, for a composer "artifact" repository
#   dist/engine/   the engine executable(s) + SHA256SUMS + THIRD_PARTY_NOTICES, laid out as a release
#                  (what `vendor/bin/mailrender-install-engine --from=` reads)
#
# For this machine's platform by default; `--all` (make packages-all) for every platform, from the
# release build (make engine-all). Needs only what `make test` installs.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
all=0
[ "${1:-}" = "--all" ] && all=1

say() { printf 'packages: %s\n' "$*" >&2; }
host="$(node -p 'process.platform + "-" + process.arch')"
dist="$root/dist"
rm -rf "$dist"
mkdir -p "$dist/npm" "$dist/python" "$dist/php" "$dist/engine"

# --- the engine executable(s): release builds, laid out as a release ---------------------------------
if ((all)); then
  make --no-print-directory engine-all >&2
  engines="$root/engine/dist/release"
  platforms=(--all)
else
  make --no-print-directory engine >&2
  engines="$root/engine/dist"
  platforms=(--host)
fi
cp "$engines/SHA256SUMS" "$engines/THIRD_PARTY_NOTICES" "$dist/engine/"
for sum_path in $(awk '{print $2}' "$engines/SHA256SUMS"); do
  mkdir -p "$dist/engine/$(dirname "$sum_path")"
  cp -p "$engines/$sum_path" "$dist/engine/$sum_path"
done
(cd "$dist/engine" && sha256sum --quiet -c SHA256SUMS) || { say "dist/engine does not match its SHA256SUMS"; exit 1; }

# --- npm: each package's prepack builds what it ships -----------------------------------------------
# Outside any `npm run` of the workspace root, so npm packs the package folder it is given.
for pkg in engine clients/js server; do
  (cd "$root/$pkg" && npm pack --silent --pack-destination "$dist/npm" >/dev/null)
done
if ((all)); then
  node_modules/.bin/tsx engine/scripts/pack-npm.ts --out "$dist/npm" >/dev/null
else
  node_modules/.bin/tsx engine/scripts/pack-npm.ts --host --out "$dist/npm" >/dev/null
fi
# A package without its built files is the mistake prepack exists to prevent: check the tarballs.
for check in "mailrender-engine-[0-9]*.tgz:package/lib/index.js" "mailrender-client-*.tgz:package/dist/esm/index.js" \
  "mailrender-server-*.tgz:package/lib/cli.js" "mailrender-server-*.tgz:package/studio/dist/studio.js" \
  "mailrender-engine-$host-*.tgz:package/mailrender-engine" "mailrender-engine-cli-*.tgz:package/checksums.json"; do
  pattern="${check%%:*}" file="${check#*:}"
  tarball="$(compgen -G "$dist/npm/$pattern" | head -1)" || { say "no $pattern in dist/npm"; exit 1; }
  tar -tzf "$tarball" | grep -x "$file" >/dev/null || { say "$(basename "$tarball") has no $file"; exit 1; }
done

# --- Python: one platform wheel per engine, from the dev virtualenv's build tools ------------------
venv="$(bash scripts/python-dev-venv.sh)"
if ((all)); then
  "$venv/bin/python" clients/python/scripts/build_wheels.py --dist "$engines" --out "$dist/python" >&2
else
  "$venv/bin/python" clients/python/scripts/build_wheels.py --dist "$engines" --platform "$host" --out "$dist/python" >&2
fi

# --- PHP: the package as composer archives it (composer.json's archive.exclude) ----------------------
command -v composer >/dev/null || { say "composer is missing: run scripts/bootstrap (or install composer)"; exit 1; }
version="$(node -p 'require("./clients/php/composer.json").version')"
(cd clients/php && COMPOSER_ALLOW_SUPERUSER=1 COMPOSER_NO_INTERACTION=1 composer archive --quiet --format=zip \
  --dir="$dist/php" --file="mailrender-client-$version")
unzip -Z1 "$dist/php/mailrender-client-$version.zip" | grep -x bin/mailrender-install-engine >/dev/null \
  || { say "the PHP archive has no bin/mailrender-install-engine"; exit 1; }

echo "dist/ (${platforms[0]#--}):"
(cd "$dist" && find . -type f ! -path './engine/*' -printf '%s %P\n' | sort -k2 | awk '{printf "  %-72s %8.1f KiB\n", $2, $1 / 1024}')
(cd "$dist" && find engine -type f -printf '%s %P\n' | sort -k2 | awk '{printf "  %-72s %8.1f KiB\n", $2, $1 / 1024}')
