"""``import mailrender`` loads only what importing needs: httpx when a client is made, the engine's
process machinery with the client, asyncio and the async client when ``AsyncMailrenderClient`` is
first looked up. Checked on ``sys.modules`` of a fresh interpreter, so the test fails on the import
that comes back, whatever the machine's speed (bench/python_import_bench.py prints the time)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import PYTHON_ROOT

#: Never loaded by ``import mailrender`` (or ``from mailrender import MailrenderClient``).
NOT_ON_IMPORT = {
    "httpx",
    "asyncio",
    "concurrent.futures",
    "subprocess",
    "email.utils",
    "platform",
    "mailrender._async_client",
    "mailrender._engine",
    "mailrender._engine_process",
}


def python(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` in a fresh interpreter that finds the package in src/."""
    env = {**os.environ, "PYTHONPATH": str(PYTHON_ROOT / "src")}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)


def modules_after(code: str) -> set[str]:
    done = python(f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))")
    assert done.returncode == 0, done.stderr
    return set(json.loads(done.stdout.splitlines()[-1]))


def test_importing_the_package_loads_neither_httpx_nor_asyncio() -> None:
    for code in ("import mailrender", "from mailrender import MailrenderClient, MailrenderError, RenderResult"):
        loaded = modules_after(code)
        assert "mailrender._client" in loaded
        assert sorted(loaded & NOT_ON_IMPORT) == [], code


def test_a_sync_client_loads_httpx_and_the_engine_runner_but_never_asyncio(tmp_path: Path) -> None:
    engine = tmp_path / "mailrender-engine"  # found at construction; started only by a render
    engine.write_text("#!/bin/sh\n", encoding="utf-8")
    engine.chmod(0o755)
    loaded = modules_after(f"import mailrender\nmailrender.MailrenderClient('k', engine_path={str(engine)!r}).close()")
    assert {"httpx", "mailrender._engine", "mailrender._engine_process"} <= loaded
    assert "asyncio" not in loaded and "mailrender._async_client" not in loaded


def test_the_async_client_is_loaded_when_first_looked_up() -> None:
    loaded = modules_after("from mailrender import AsyncMailrenderClient")
    assert {"mailrender._async_client", "asyncio", "httpx"} <= loaded
    assert modules_after("import mailrender\nmailrender.AsyncMailrenderClient") >= {"mailrender._async_client"}
    missing = python("import mailrender; mailrender.NoSuchName")
    assert missing.returncode == 1 and "has no attribute 'NoSuchName'" in missing.stderr
