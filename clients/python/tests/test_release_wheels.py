"""scripts/build_wheels.py: one wheel per release binary (make engine-all), tagged for its platform,
each holding that platform's engine, the licence and the third-party notices; a binary whose header
names another platform than its tag stops the build."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from conftest import PYTHON_ROOT

REPO = PYTHON_ROOT.parent.parent
RELEASE = REPO / "engine" / "dist" / "release"
SCRIPT = PYTHON_ROOT / "scripts" / "build_wheels.py"
_VERSION_LINE = re.search(r'^version = "([^"]+)"$', (PYTHON_ROOT / "pyproject.toml").read_text(encoding="utf-8"), re.M)
assert _VERSION_LINE is not None, "pyproject.toml has no version"
VERSION = _VERSION_LINE.group(1)

EXPECTED = {
    "linux-x64": "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64",
    "linux-arm64": "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64",
    "darwin-x64": "macosx_11_0_x86_64",
    "darwin-arm64": "macosx_11_0_arm64",
    "win32-x64": "win_amd64",
}


def _exe(platform_id: str) -> str:
    return "mailrender-engine.exe" if platform_id.startswith("win32") else "mailrender-engine"


@pytest.fixture(scope="module")
def wheels(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if not (RELEASE / "SHA256SUMS").is_file():
        pytest.fail(f"{RELEASE} is not built: run `make engine-all` (scripts/test-client-python.sh does)")
    out = tmp_path_factory.mktemp("wheels")
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--out", str(out)], capture_output=True, text=True, timeout=900, check=False
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return {p.name: p for p in out.glob("*.whl")}


def test_one_wheel_per_platform_with_its_tag(wheels: dict[str, Path]) -> None:
    assert sorted(wheels) == sorted(f"mailrender-{VERSION}-py3-none-{tag}.whl" for tag in EXPECTED.values())


@pytest.mark.parametrize("platform_id", sorted(EXPECTED))
def test_each_wheel_holds_its_platforms_engine_and_the_licences(wheels: dict[str, Path], platform_id: str) -> None:
    wheel = wheels[f"mailrender-{VERSION}-py3-none-{EXPECTED[platform_id]}.whl"]
    with zipfile.ZipFile(wheel) as zf:
        names = zf.namelist()
        engines = [n for n in names if n.startswith("mailrender/_bin/")]
        assert engines == [f"mailrender/_bin/{platform_id}/{_exe(platform_id)}"]
        assert zf.read(engines[0]) == (RELEASE / platform_id / _exe(platform_id)).read_bytes()
        assert (zf.getinfo(engines[0]).external_attr >> 16) & 0o111
        licences = {Path(n).name for n in names if ".dist-info/licenses/" in n}
        assert licences == {"LICENSE", "THIRD_PARTY_NOTICES"}
        wheel_meta = zf.read(next(n for n in names if n.endswith(".dist-info/WHEEL"))).decode()
        assert f"Tag: py3-none-{EXPECTED[platform_id]}" in wheel_meta or all(
            f"Tag: py3-none-{tag}" in wheel_meta for tag in EXPECTED[platform_id].split(".")
        )
    assert wheel.stat().st_size < 5 * 1024 * 1024


def test_a_binary_for_another_platform_stops_the_build(tmp_path: Path) -> None:
    # An x86_64 binary in the arm64 folder: the wheel would be tagged aarch64 and carry x86_64.
    fake = tmp_path / "release" / "linux-arm64"
    fake.mkdir(parents=True)
    shutil.copy2(RELEASE / "linux-x64" / "mailrender-engine", fake / "mailrender-engine")
    out = tmp_path / "out"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--dist", str(tmp_path / "release"), "--out", str(out)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode != 0
    assert "is for linux-x64, but this wheel is for linux-arm64" in done.stderr
    assert not list(out.glob("*.whl"))
