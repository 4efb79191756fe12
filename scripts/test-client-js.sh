#!/usr/bin/env bash
# The JS client suite: builds what it runs against (the engine library, the server library; the
# client itself is built by the suite's global setup), then runs vitest in clients/js.
# Needs the root `npm install` (make setup). Extra arguments go to vitest (e.g. a test file).
set -euo pipefail
cd "$(dirname "$0")/.."

npm run build --workspace @mailrender/engine --silent
npm run build --workspace @mailrender/server --silent

cd clients/js
../../node_modules/.bin/vitest run "$@"
