#!/usr/bin/env bash
# Benchmarks the Node build of mailrender-engine (`make engine-node`; prints figures, asserts nothing):
#   cold one-shot html render of the newsletter fixture vs `node -e ""` on the same Node,
#   --serve round trip and renders/s (from a Python driver) vs one process per render.
# Builds it first when it is missing or stale. Uses hyperfine for the cold figures when present.
# Env: COLD_RUNS (default 60), SERVE_RENDERS (default 2000).
set -euo pipefail
cd "$(dirname "$0")/.."

platform="$(node -p 'process.platform + "-" + process.arch')"
binary="engine/dist/node/$platform/mailrender-engine"
node_pkg="node-$(node -p '(process.platform === "win32" ? "win" : process.platform) + "-" + process.arch')"
runtime="engine/runtimes/node_modules/$node_pkg/bin/node"
cold_runs="${COLD_RUNS:-60}"
serve_renders="${SERVE_RENDERS:-2000}"

make --no-print-directory engine-node

case_file="fixtures/render/realistic-newsletter/case.json"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
request="$tmp/request.json"
echo "case: $case_file (target html)"
python3 bench/fixture_request.py "$case_file" html >"$request"
echo "binary: $binary ($(du -m "$binary" | cut -f1) MiB), runtime: $runtime ($("$runtime" --version))"
echo

if command -v hyperfine >/dev/null 2>&1; then
  echo "== hyperfine: cold one-shot render vs the bare Node start-up =="
  hyperfine --style basic -w 3 -r "$cold_runs" -n "binary one-shot html" "$binary < $request" -n 'node -e ""' "$runtime -e ''"
  echo
fi

echo "== engine_serve_driver.py =="
python3 bench/engine_serve_driver.py --binary "$binary" --node "$runtime" --request "$request" \
  --cold-runs "$cold_runs" --serve-renders "$serve_renders"
