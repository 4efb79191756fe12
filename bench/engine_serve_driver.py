#!/usr/bin/env python3
"""Benchmark driver for the mailrender-engine binary, as a Python client would use it (stdlib only).

Prints figures side by side; asserts nothing:
  - cold one-shot render: one process per request, wall time per run (median, p90), against
    `node -e ""` on the same Node runtime (the floor no Node-based binary can beat), the two
    alternating run by run;
  - --serve: one long-lived process; the template is sent once with a template_ref, then every
    request names the ref and waits for its response (round trip median, p90, renders/second);
  - throughput of --serve against one process per render.

usage: engine_serve_driver.py --binary B --node N --request REQ.json [--cold-runs 30] [--serve-renders 2000]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import time
from pathlib import Path


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(p * (len(ordered) - 1)))]


def time_spawns(commands: list[tuple[list[str], bytes]], runs: int) -> list[list[float]]:
    """Wall milliseconds of `runs` processes of each command, after two unmeasured warm-up rounds
    (page cache). The commands alternate run by run, so that a noisy neighbour slows them alike
    instead of whichever happened to run during the noise."""
    times: list[list[float]] = [[] for _ in commands]
    for i in range(runs + 2):
        for (argv, stdin), samples in zip(commands, times):
            start = time.perf_counter()
            done = subprocess.run(argv, input=stdin, capture_output=True, check=False)
            elapsed = (time.perf_counter() - start) * 1000
            if done.returncode != 0:
                raise SystemExit(f"{argv[0]} exited {done.returncode}: {done.stdout[:300]!r} {done.stderr[:300]!r}")
            if i >= 2:
                samples.append(elapsed)
    return times


def serve_round_trips(binary: str, request: dict, renders: int) -> tuple[list[float], float]:
    """Round-trip milliseconds of each ref-only request, and renders/second over all of them."""
    proc = subprocess.Popen([binary, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None

    def call(message: dict) -> dict:
        proc.stdin.write(json.dumps(message).encode() + b"\n")  # type: ignore[union-attr]
        proc.stdin.flush()  # type: ignore[union-attr]
        response = json.loads(proc.stdout.readline())  # type: ignore[union-attr]
        if not response.get("ok"):
            raise SystemExit(f"--serve render failed: {response}")
        return response

    ref = "bench@1"
    call({**request, "id": 0, "template_ref": ref})  # sends the template once
    slim = {k: v for k, v in request.items() if k != "template"}
    for i in range(20):  # let the JIT settle before measuring
        call({**slim, "id": f"w{i}", "template_ref": ref})
    times: list[float] = []
    start_all = time.perf_counter()
    for i in range(renders):
        start = time.perf_counter()
        call({**slim, "id": i, "template_ref": ref})
        times.append((time.perf_counter() - start) * 1000)
    total = time.perf_counter() - start_all
    proc.stdin.close()
    proc.wait(timeout=30)
    return times, renders / total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--node", required=True, help="the Node runtime the binary is built on")
    parser.add_argument("--request", required=True, help="a one-shot request JSON file")
    parser.add_argument("--cold-runs", type=int, default=30)
    parser.add_argument("--serve-renders", type=int, default=2000)
    args = parser.parse_args()

    raw = Path(args.request).read_bytes()
    request = json.loads(raw)

    cold, floor = time_spawns([([args.binary], raw), ([args.node, "-e", ""], b"")], args.cold_runs)
    round_trips, serve_rps = serve_round_trips(args.binary, request, args.serve_renders)
    spawn_rps = 1000 / statistics.mean(cold)

    cold_med, floor_med, rt_med = statistics.median(cold), statistics.median(floor), statistics.median(round_trips)
    rows = [
        (
            "cold one-shot render (binary)",
            f"median {cold_med:7.1f} ms   p90 {percentile(cold, 0.9):7.1f} ms   ({args.cold_runs} runs)",
        ),
        (
            'node -e "" (same Node, the floor)',
            f"median {floor_med:7.1f} ms   p90 {percentile(floor, 0.9):7.1f} ms   ({args.cold_runs} runs)",
        ),
        ("  cold / floor", f"{cold_med / floor_med:5.2f}x   (target <= 2.5x)"),
        (
            "--serve round trip (template_ref)",
            f"median {rt_med:7.3f} ms   p90 {percentile(round_trips, 0.9):7.3f} ms   (target median <= 1 ms)",
        ),
        ("--serve throughput", f"{serve_rps:9.0f} renders/s   ({args.serve_renders} sequential round trips)"),
        ("one process per render", f"{spawn_rps:9.1f} renders/s"),
        ("  --serve / one process per render", f"{serve_rps / spawn_rps:7.0f}x   (target >= 50x)"),
    ]
    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")


if __name__ == "__main__":
    main()
