#!/usr/bin/env bash
# Throughput of GET /v1/sdk/template/{id} with auth vs a bare Fastify route (autocannon, loopback).
# BENCH_DURATION_S (default 5) and BENCH_CONNECTIONS (default 50) tune the run.
set -euo pipefail
cd "$(dirname "$0")/../server"
exec node --import tsx bench/bench.ts
