#!/usr/bin/env bash
# `make run`: builds the server, then starts it on http://localhost:8787 with SQLite under ./data/,
# seeding the starter templates and demo keys on first start and printing the studio's address, the
# keys and copy-paste commands to fetch, render and store a template. On a terminal the log is one
# line per request (MAILRENDER_LOG_FORMAT=json for JSON). Override with PORT, HOST, DATABASE_URL
# (see server/README.md). Ctrl-C / SIGTERM stops it gracefully.
set -euo pipefail
cd "$(dirname "$0")/.."
node_modules/.bin/tsc -p server/tsconfig.build.json
node_modules/.bin/tsx server/scripts/build-studio.ts
export PORT="${PORT:-8787}"
exec node server/lib/cli.js serve --demo
