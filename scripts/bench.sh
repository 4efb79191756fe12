#!/usr/bin/env bash
# `make bench`: every benchmark prints its figures; none asserts a time.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
tsx bench/engine-render.ts
for extra in scripts/bench-engine-binary.sh scripts/bench-server.sh; do
  if [ -f "$extra" ]; then bash "$extra"; fi
done
