"""The README's examples, followed literally in a fresh directory against the real service: only the
API key, the service address and the template id are the reader's own (each example defines every
other name it uses)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from conftest import Server

README = Path(__file__).resolve().parents[1] / "README.md"
SRC = Path(__file__).resolve().parents[1] / "src"
EXAMPLE_ID = "6f1c2b9e-8a4d-4c3e-9b2a-1d2e3f4a5b6c"


def python_blocks() -> list[str]:
    return re.findall(r"^```python\n(.*?)^```", README.read_text(encoding="utf-8"), re.S | re.M)


def run_example(code: str, tmp: Path, server: Server, key: str, template_id: str) -> str:
    assert EXAMPLE_ID in code
    code = (
        code.replace(EXAMPLE_ID, template_id)
        .replace('"sk_live_…"', repr(key))
        .replace('"https://mailrender.example.com"', repr(server.url))
    )
    script = tmp / "example.py"
    script.write_text(code + "\nprint('example ran')\n", encoding="utf-8")
    env = {**os.environ, "MAILRENDER_API_KEY": key, "MAILRENDER_BASE_URL": server.url, "PYTHONPATH": str(SRC)}
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp, env=env, capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_every_python_example_compiles() -> None:
    blocks = python_blocks()
    assert len(blocks) >= 3
    for block in blocks:
        compile(block, "README.md", "exec")


def test_the_sync_and_async_examples_run_as_written(
    server: Server, render_key: str, template_id: str, tmp_path: Path
) -> None:
    sync_example, async_example = python_blocks()[:2]
    assert "example ran" in run_example(sync_example, tmp_path, server, render_key, template_id)
    assert "example ran" in run_example(async_example, tmp_path, server, render_key, template_id)
