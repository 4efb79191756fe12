#!/usr/bin/env bash
# Throughput of GET /v1/sdk/template/{id} with auth vs a bare Fastify route (autocannon, loopback).
# BENCH_DURATION_S (default 5) and BENCH_CONNECTIONS (default 50) tune the run.
# `storm`: /healthz and the template fetch probed during a storm of heavy renders (server/bench/storm.ts;
# STORM_KIND=rows|cpu|data, STORM_CONCURRENCY, STORM_DURATION_S).
# `instructions`: the instructions per request of the same two routes under valgrind (callgrind), a figure
# the machine's load does not move (server/bench/instructions.ts; BENCH_REQUESTS, BENCH_LOG_LEVEL).
set -euo pipefail
cd "$(dirname "$0")/../server"
if [ "${1:-}" = storm ]; then exec node --import tsx bench/storm.ts; fi
if [ "${1:-}" = instructions ]; then exec node --import tsx bench/instructions.ts; fi
exec node --import tsx bench/bench.ts
