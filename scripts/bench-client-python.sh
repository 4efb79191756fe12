#!/usr/bin/env bash
# `make bench`: renders/second of the Python client next to the engine in-process.
# Uses the test virtualenv (scripts/test-client-python.sh creates it) and the built engine and server.
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=clients/python/.venv
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r clients/python/requirements-dev.txt
fi
[ -f server/lib/cli.js ] || npm run build -w @mailrender/server --silent
"$VENV/bin/python" bench/python_client_bench.py "$@"
