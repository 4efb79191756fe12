#!/usr/bin/env python3
"""One platform wheel per engine binary: ``python scripts/build_wheels.py [--dist DIR] [--out DIR]``.

Reads the release binaries (``engine/dist/release/<os>-<arch>/mailrender-engine[.exe]``, made by
``make engine-all``) and builds, from a clean copy of this package, one wheel per platform with the
tag PyPI expects for it. The engine is a static executable on Linux (musl), so one Linux wheel
serves glibc and musl distributions alike. setup.py refuses a binary whose header names another OS
or CPU than the wheel's tag, so a mislabelled wheel cannot be built.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
ROOT = PACKAGE.parent.parent

# <os>-<arch> (Node's names, the engine's folders) -> the wheel's platform tag.
PLATFORM_TAGS = {
    "linux-x64": "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64",
    "linux-arm64": "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64",
    "darwin-x64": "macosx_11_0_x86_64",
    "darwin-arm64": "macosx_11_0_arm64",
    "win32-x64": "win_amd64",
}


def build_wheel(platform_id: str, binary: Path, out: Path) -> Path:
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "source"
        ignore = shutil.ignore_patterns(
            ".venv", "build", "dist", "*.egg-info", "_bin", "__pycache__", ".pytest_cache", "tests", "scripts"
        )
        shutil.copytree(PACKAGE, source, ignore=ignore)
        env = {
            **os.environ,
            "MAILRENDER_ENGINE_BINARY": str(binary),
            "MAILRENDER_ENGINE_PLATFORM": platform_id,
            "MAILRENDER_WHEEL_PLATFORM_TAG": PLATFORM_TAGS[platform_id],
        }
        before = set(out.glob("*.whl"))
        done = subprocess.run(
            [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(source)],
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        if done.returncode != 0:
            raise SystemExit(
                f"build_wheels: the {platform_id} wheel failed:\n{done.stdout[-2000:]}{done.stderr[-3000:]}"
            )
        made = set(out.glob("*.whl")) - before
        if len(made) != 1:
            raise SystemExit(
                f"build_wheels: expected one new wheel for {platform_id}, found {sorted(p.name for p in made)}"
            )
        return made.pop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--dist", type=Path, default=ROOT / "engine" / "dist" / "release", help="folder of <os>-<arch>/ engine binaries"
    )
    parser.add_argument("--out", type=Path, default=PACKAGE / "dist")
    parser.add_argument(
        "--platform",
        action="append",
        choices=sorted(PLATFORM_TAGS),
        help="only these platforms (default: every one in --dist)",
    )
    args = parser.parse_args()

    found = (
        sorted(p.name for p in args.dist.iterdir() if p.is_dir() and p.name in PLATFORM_TAGS)
        if args.dist.is_dir()
        else []
    )
    wanted = args.platform or found
    if not wanted:
        raise SystemExit(f"build_wheels: no engine binaries in {args.dist} (run `make engine-all`)")
    args.out.mkdir(parents=True, exist_ok=True)
    for platform_id in wanted:
        binary = (
            args.dist
            / platform_id
            / ("mailrender-engine.exe" if platform_id.startswith("win32") else "mailrender-engine")
        )
        if not binary.is_file():
            raise SystemExit(f"build_wheels: {binary} is missing")
        wheel = build_wheel(platform_id, binary, args.out)
        print(f"{wheel.name}  ({wheel.stat().st_size / 1024 / 1024:.1f} MiB)")


if __name__ == "__main__":
    main()
