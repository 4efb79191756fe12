#!/usr/bin/env bash
# The release engine (QuickJS, `make engine`) of this platform: cold one-shot renders of a small,
# a medium and a large email in each target, then its --serve throughput (prints figures, asserts
# nothing), and its CPU per template not seen before in --serve against the Node build's. Builds the
# engines when missing. Env: COLD_RUNS (default 15), SERVE_RENDERS (default 500), SERVE_NEW (default 200).
set -euo pipefail
cd "$(dirname "$0")/.."

platform="$(node -p 'process.platform + "-" + process.arch')"
binary="engine/dist/$platform/mailrender-engine"
make --no-print-directory engine

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
requests=()
for case in realistic-password-reset realistic-receipt realistic-newsletter; do
  for target in html mjml react-email; do
    python3 bench/fixture_request.py "fixtures/render/$case/case.json" "$target" >"$tmp/$case-$target.json"
    requests+=(--request "$tmp/$case-$target.json")
  done
done
echo "== release engine: $binary (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
python3 bench/engine_runtimes.py --engine release="$binary" "${requests[@]}" \
  --cold-runs "${COLD_RUNS:-15}" --serve-renders "${SERVE_RENDERS:-500}"

# A template not seen before in --serve, against the Node build's CPU (the target: within 2×).
node_binary="engine/dist/node/$platform/mailrender-engine"
make --no-print-directory engine-node
echo "== --serve, new templates: release against the Node build (load average: $(cut -d' ' -f1-3 /proc/loadavg))"
python3 bench/engine_runtimes.py --engine release="$binary" --engine node="$node_binary" \
  --request "$tmp/realistic-newsletter-html.json" --cold-runs 0 --serve-renders 0 --serve-new "${SERVE_NEW:-200}"

# A one-shot render against a Python process running mrml on the same email's MJML (the target: at most its cost).
reference_python="bench/.reference/venv/bin/python"
if [ -x "$reference_python" ]; then
  python3 bench/release_one_shot_vs_mrml.py --release "$binary" --python "$reference_python"
else
  echo "(one-shot against mrml skipped: $reference_python is missing; tsx bench/first-render.ts installs it)"
fi
