#!/usr/bin/env bash
# `make bench`: every benchmark prints its figures; none asserts a time.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/node_modules/.bin:$PATH"
tsx bench/engine-render.ts           # warm render vs mjml2html and @react-email/render
tsx bench/first-render.ts            # a new template vs the real Maildeno engine and mrml (installed into bench/.reference/)
tsx bench/template-read.ts           # reading a template: validation, defaults and warnings of the newsletter
tsx bench/engine-limits.ts           # template size limits: refusing an oversized template, rendering the largest accepted
tsx bench/output-size.ts             # html bytes and gzip bytes against Gmail's 102 KB clip
bash scripts/bench-engine-binary.sh  # the Node executable (make engine-node): cold start, --serve round trip and throughput
bash scripts/bench-release-engine.sh # the release (QuickJS) executable (make engine): cold renders of a small, a medium and a large email
release_engine="engine/dist/$(node -p 'process.platform + "-" + process.arch')/mailrender-engine"  # the host's release engine (make engine)
tsx engine/scripts/saved-layout-budget.ts "$release_engine" || true  # a fresh process rendering the newsletter from its saved layout, against --version (instructions)
tsx engine/scripts/heap-pages-budget.ts "$release_engine" || true    # the memory a newsletter render touches (its peak, in huge pages), against its budget
bash scripts/bench-server.sh         # SDK template fetch vs a bare route
bash scripts/bench-server.sh storm   # health checks and template fetches during a storm of heavy renders
bash scripts/bench-client-python.sh  # Python client vs the engine in-process
clients/python/.venv/bin/python bench/python_import_bench.py  # what `import mailrender` costs
# Python and PHP engine runners: renders/s and CPU per render, idle and with two busy loops running.
clients/python/.venv/bin/python bench/client_runners_bench.py
