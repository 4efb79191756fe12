#!/usr/bin/env bash
# Throughput of GET /v1/sdk/template/{id} with auth vs a bare Fastify route (autocannon, loopback).
# BENCH_DURATION_S (default 5) and BENCH_CONNECTIONS (default 50) tune the run.
# `storm`: /healthz and the template fetch probed during a storm of heavy renders (server/bench/storm.ts;
# STORM_KIND=rows|cpu|data, STORM_CONCURRENCY, STORM_DURATION_S).
# `instructions`: the instructions a request of the SDK route and of the bare route, counted by
# valgrind in one process serving both (server/bench/route-instructions.ts; ROUTE_LEVELS, ROUTE_REQUESTS).
set -euo pipefail
cd "$(dirname "$0")/../server"
# The service is measured as it ships: compiled (bench/serve-app.ts runs lib/) — this tree's, and
# each other checkout's named in BENCH_SERVICES (`level:dir`), with that checkout's own compiler.
../node_modules/.bin/tsc -p tsconfig.build.json
IFS=, read -ra specs <<< "${BENCH_SERVICES:-}"
for spec in "${specs[@]}"; do
  case "$spec" in *:*) (cd "${spec#*:}" && ../node_modules/.bin/tsc -p tsconfig.build.json) ;; esac
done
if [ "${1:-}" = storm ]; then exec node --import tsx bench/storm.ts; fi
if [ "${1:-}" = instructions ]; then exec node --import tsx bench/route-instructions.ts; fi
exec node --import tsx bench/bench.ts
