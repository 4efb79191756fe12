"""The packed artefact: build the platform wheel, install it into a fresh virtualenv, render from there.

The fresh environment has no MAILRENDER_ENGINE_PATH and no source tree on its path, so the render
uses the engine bundled in the wheel. Dependencies come from clients/python/.venv/wheelhouse when the
test script prepared it (offline), else from the package index.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

from conftest import ENGINE, FIXTURES, PYTHON_ROOT, Server

WHEELHOUSE = PYTHON_ROOT / ".venv" / "wheelhouse"
_VERSION_LINE = re.search(r'^version = "([^"]+)"$', (PYTHON_ROOT / "pyproject.toml").read_text(encoding="utf-8"), re.M)
assert _VERSION_LINE is not None, "pyproject.toml has no version"
VERSION = _VERSION_LINE.group(1)

SCRIPT = """
import json, os, sys
import mailrender
from mailrender._engine_discovery import bundled_engine_path, find_engine
assert "MAILRENDER_ENGINE_PATH" not in os.environ
base_url, key, tid, case_path = sys.argv[1:5]
case = json.load(open(case_path, encoding="utf-8"))
with mailrender.MailrenderClient(key, base_url=base_url) as client:
    out = client.render_html(tid, case["dynamic_data"])
print(json.dumps({"file": mailrender.__file__, "version": mailrender.__version__,
                  "engine": find_engine(None, os.environ), "bundled": bundled_engine_path(), "output": out}))
"""


def test_wheel_installs_into_a_fresh_venv_and_renders(server: Server, render_key: str, tmp_path: Path) -> None:
    # Built from a clean copy of the sources (no earlier build output, no bundled binary), with the
    # engine taken from the repository's build as the release build does.
    source = tmp_path / "source"
    ignore = shutil.ignore_patterns(
        ".venv", "build", "dist", "*.egg-info", "_bin", "__pycache__", ".pytest_cache", "tests"
    )
    shutil.copytree(PYTHON_ROOT, source, ignore=ignore)
    dist = tmp_path / "dist"
    build_env = {**os.environ, "MAILRENDER_ENGINE_BINARY": str(ENGINE)}
    built = subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(source)],
        env=build_env,
        capture_output=True,
        timeout=300,
        check=False,
    )
    assert built.returncode == 0, built.stderr.decode()[-3000:]
    wheels = list(dist.glob("*.whl"))
    assert len(wheels) == 1
    wheel = wheels[0]
    plat = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    assert wheel.name == f"mailrender-{VERSION}-py3-none-{plat}.whl"
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        binaries = [n for n in names if n.startswith("mailrender/_bin/") and n.endswith("mailrender-engine")]
        assert len(binaries) == 1 and "mailrender/py.typed" in names
        assert (zf.getinfo(binaries[0]).external_attr >> 16) & 0o111, "the engine must be executable in the wheel"
        wheel_meta = zf.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
        assert "Root-Is-Purelib: false" in wheel_meta

    venv = tmp_path / "fresh"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    install = [str(py), "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    if WHEELHOUSE.is_dir():
        install += ["--no-index", "--find-links", str(WHEELHOUSE)]
    subprocess.run([*install, str(wheel)], check=True, capture_output=True, timeout=300)

    case_path = FIXTURES / "render" / "realistic-newsletter" / "case.json"
    case = json.loads(case_path.read_text(encoding="utf-8"))
    tid = server.create_template(case["template"])
    env = {
        k: v for k, v in os.environ.items() if k not in ("MAILRENDER_ENGINE_PATH", "PYTHONPATH", "MAILRENDER_API_KEY")
    }
    done = subprocess.run(
        [str(py), "-c", SCRIPT, server.url, render_key, tid, str(case_path)],
        env=env,
        cwd=str(tmp_path),
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    report = json.loads(done.stdout)
    assert report["file"].startswith(str(venv)) and report["version"] == VERSION
    assert report["engine"] == report["bundled"] and report["engine"].startswith(str(venv))
    assert report["output"] == (FIXTURES / "render" / "realistic-newsletter" / "expected.html").read_text(
        encoding="utf-8"
    )
