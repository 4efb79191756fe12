#!/usr/bin/env python3
"""What ``import mailrender`` costs over a bare interpreter (target: at most 60 ms).

Each sample is a fresh interpreter that times its own import: wall time and CPU time (the process's
own, which a loaded machine inflates less than wall time). Prints the minimum and the median of each;
asserts nothing (clients/python/tests/test_import.py checks which modules the import loads).

usage: clients/python/.venv/bin/python bench/python_import_bench.py [--runs 30]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "clients" / "python" / "src"
PROBE = (
    "import time\n"
    "w, c = time.perf_counter(), time.process_time()\n"
    "{statement}\n"
    "print((time.perf_counter() - w) * 1000, (time.process_time() - c) * 1000)\n"
)


def sample(statement: str) -> tuple[float, float]:
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    code = PROBE.format(statement=statement)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True).stdout
    wall, cpu = out.split()
    return float(wall), float(cpu)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    runs = parser.parse_args().runs
    for statement in ("import mailrender", "from mailrender import AsyncMailrenderClient"):
        samples = [sample(statement) for _ in range(runs)]
        walls, cpus = [s[0] for s in samples], [s[1] for s in samples]
        print(
            f"{statement}: wall min {min(walls):.1f} ms, median {statistics.median(walls):.1f} ms; "
            f"cpu min {min(cpus):.1f} ms, median {statistics.median(cpus):.1f} ms ({runs} runs)"
        )


if __name__ == "__main__":
    main()
