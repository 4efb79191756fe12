#!/usr/bin/env bash
# The Python client's suite: a virtualenv in clients/python/.venv with pinned dev
# dependencies from PyPI, the engine executable and the server built, pyright --strict, then pytest
# against the real server and the real engine. Fails (never skips) when PyPI cannot be reached.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
PY_DIR="$ROOT/clients/python"
VENV="$PY_DIR/.venv"
PYTHON="${PYTHON:-python3}"

if [ ! -x "$VENV/bin/python" ]; then
  "$PYTHON" -m venv "$VENV"
fi
# pip answers from its cache when it can; an unreachable index with nothing cached is an error.
"$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r "$PY_DIR/requirements-dev.txt"
# Wheels of the runtime dependencies, so the packed-wheel test installs into a fresh venv offline.
"$VENV/bin/python" -m pip download --quiet --disable-pip-version-check -d "$VENV/wheelhouse" httpx==0.28.1

make -C "$ROOT" --no-print-directory engine                       # engine/dist/<os>-<arch>/mailrender-engine
make -C "$ROOT" --no-print-directory engine-all                   # engine/dist/release/*: the release wheels' engines
(cd "$ROOT" && npm run build -w @mailrender/server --silent)     # server/lib/cli.js

"$ROOT/node_modules/.bin/pyright" -p "$PY_DIR/pyrightconfig.json"
cd "$PY_DIR"
"$VENV/bin/python" -m pytest -q -p no:cacheprovider "$@"
