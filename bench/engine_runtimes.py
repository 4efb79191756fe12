#!/usr/bin/env python3
"""Compares engine executables built on different runtimes (prints figures; asserts nothing).

For each request file: cold one-shot renders, the executables alternating run by run so that a
noisy neighbour slows them alike; wall time (median, p90) and the process's own CPU time (user +
sys, median: less sensitive to a loaded machine than wall time). Then each executable's --serve
throughput (ref-only requests, one at a time) for the first request, and the engine process's CPU
per render there (robust to a loaded machine). Plus each file's size.

usage: engine_runtimes.py --engine LABEL=PATH [--engine ...] --request FILE [--request ...]
                          [--cold-runs 30] [--serve-renders 1000]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import time
from pathlib import Path

from engine_serve_driver import percentile, serve_round_trips


def cold_run(argv: list[str], stdin: bytes) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(argv, input=stdin, capture_output=True, check=False)
    wall = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0 or not json.loads(done.stdout).get("ok"):
        raise SystemExit(f"{argv[0]} failed ({done.returncode}): {done.stdout[:300]!r} {done.stderr[:300]!r}")
    cpu = ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000
    return wall, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--engine", action="append", required=True, help="LABEL=PATH")
    parser.add_argument("--request", action="append", required=True)
    parser.add_argument("--cold-runs", type=int, default=30)
    parser.add_argument("--serve-renders", type=int, default=1000)
    args = parser.parse_args()
    engines = [tuple(spec.split("=", 1)) for spec in args.engine]

    for label, path in engines:
        print(f"{label:<14} {os.path.getsize(path) / 1024 / 1024:7.1f} MiB  {path}")
    print()
    for request in args.request if args.cold_runs > 0 else []:
        raw = Path(request).read_bytes()
        samples: dict[str, list[tuple[float, float]]] = {label: [] for label, _ in engines}
        for i in range(args.cold_runs + 2):
            for label, path in engines:
                measured = cold_run([path], raw)
                if i >= 2:
                    samples[label].append(measured)
        print(f"cold one-shot: {os.path.basename(request)} ({args.cold_runs} interleaved runs)")
        for label, runs in samples.items():
            walls = [w for w, _ in runs]
            cpus = [c for _, c in runs]
            print(
                f"  {label:<14} wall median {statistics.median(walls):7.1f} ms  p90 {percentile(walls, 0.9):7.1f} ms   cpu median {statistics.median(cpus):7.1f} ms"
            )
    if args.serve_renders > 0:
        request = json.loads(Path(args.request[0]).read_text())
        print(
            f"\n--serve, {os.path.basename(args.request[0])} by template_ref ({args.serve_renders} sequential round trips)"
        )
        for label, path in engines:
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            times, rps = serve_round_trips(path, request, args.serve_renders)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            # The engine process's own CPU per render (its start-up and 21 warm-up renders included).
            cpu = (
                ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime))
                * 1000
                / (args.serve_renders + 21)
            )
            print(
                f"  {label:<14} {rps:8.0f} renders/s   round trip median {statistics.median(times):.3f} ms  p90 {percentile(times, 0.9):.3f} ms   engine cpu {cpu:.3f} ms/render"
            )


if __name__ == "__main__":
    main()
