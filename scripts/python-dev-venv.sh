#!/usr/bin/env bash
# Creates (once) clients/python/.venv with the pinned dev dependencies and prints its path.
# Fails, never skips, when PyPI cannot be reached and nothing is cached.
set -euo pipefail
py_dir="$(cd "$(dirname "$0")/../clients/python" && pwd)"
venv="$py_dir/.venv"
[ -x "$venv/bin/python" ] || "${PYTHON:-python3}" -m venv "$venv"
"$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$py_dir/requirements-dev.txt" >&2
echo "$venv"
