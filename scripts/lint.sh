#!/usr/bin/env bash
# `make lint`: formatters and linters for every language, checking only (`--fix` rewrites files).
#   TypeScript/JavaScript: Biome (format + lint), then knip (exports nothing imports)
#   Python: ruff (format + lint), from the Python client's dev virtualenv; pyright strict
#     (clients/python/pyrightconfig.json)
#   PHP: PHP_CodeSniffer, PSR-12 (clients/php/phpcs.xml); mago's static analyser at its strictest
#     (clients/php/mago.toml, no baseline: any finding fails; scripts/bootstrap builds it)
#   engine/src: its folders are layers, without back-imports or import cycles (engine/scripts/check-layers.ts)
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
fix=0
[ "${1:-}" = "--fix" ] && fix=1

bin="$root/node_modules/.bin"
venv="$root/clients/python/.venv"
bash "$root/scripts/python-dev-venv.sh" >/dev/null

if ((fix)); then
  "$bin/biome" check --write .
  "$venv/bin/ruff" format .
  "$venv/bin/ruff" check --fix .
  (cd clients/php && phpcbf -q || true)
else
  "$bin/biome" check .
  "$venv/bin/ruff" format --check .
  "$venv/bin/ruff" check .
  (cd clients/php && phpcs -q --report=full)
fi
"$bin/pyright" -p clients/python/pyrightconfig.json
mago="${CARGO_HOME:-$HOME/.cargo}/bin/mago"
[ -x "$mago" ] || { echo "lint: $mago is missing: run make bootstrap" >&2; exit 1; }
(cd clients/php && "$mago" analyze)
"$bin/knip" --include exports,types,files --no-progress
"$bin/tsx" engine/scripts/check-layers.ts
echo "lint: clean"
