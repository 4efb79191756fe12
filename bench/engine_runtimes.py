#!/usr/bin/env python3
"""Compares engine executables built on different runtimes (prints figures; asserts nothing).

For each request file: cold one-shot renders, the executables alternating run by run so that a
noisy neighbour slows them alike; wall time (median, p90) and the process's own CPU time (user +
sys, median: less sensitive to a loaded machine than wall time). Then each executable's --serve
throughput (ref-only requests, one at a time) for the first request, and the engine process's CPU
per render there (robust to a loaded machine). Plus each file's size. With --serve-new N, each
executable's --serve CPU per render of a template it has not seen (the first request's template
under N different names, so that no parse or compile is cached), the engines alternating in batches.

usage: engine_runtimes.py --engine LABEL=PATH [--engine ...] --request FILE [--request ...]
                          [--cold-runs 30] [--serve-renders 1000] [--serve-new 0]
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


def process_cpu_ms(pid: int) -> float:
    """A live process's own CPU time (user + sys) from /proc, in milliseconds."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def new_template_requests(request_path: str, count: int) -> list[bytes]:
    """The render requests of `count` templates not seen before, a JSON line each, made as the
    engine's own benchmarks make them (engine/scripts/new-template.ts: new texts too, since the
    engine keeps sanitised text by its text across templates)."""
    script = Path(__file__).resolve().parent.parent / "engine" / "scripts" / "new-template.ts"
    made = subprocess.run(["npx", "tsx", str(script), request_path, str(count)], check=True, capture_output=True)
    return made.stdout.splitlines(keepends=True)


def serve_new_templates(
    paths: list[tuple[str, str]], request_path: str, renders: int, batch: int = 20
) -> dict[str, float]:
    """Each engine's --serve CPU per render of a template not seen before (start-up and a first
    render excluded), the engines taking turns batch by batch."""
    procs = {
        label: subprocess.Popen([path, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        for label, path in paths
    }
    cpu = {label: 0.0 for label in procs}

    requests = new_template_requests(request_path, renders + 1)

    def call(proc: subprocess.Popen[bytes], line: bytes) -> None:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(line)
        proc.stdin.flush()
        if not json.loads(proc.stdout.readline()).get("ok"):
            raise SystemExit(f"--serve render of a new template failed in pid {proc.pid}")

    for proc in procs.values():
        call(proc, requests[-1])
    for first in range(0, renders, batch):
        for label, proc in procs.items():
            before = process_cpu_ms(proc.pid)
            for n in range(first, min(first + batch, renders)):
                call(proc, requests[n])
            cpu[label] += process_cpu_ms(proc.pid) - before
    for proc in procs.values():
        assert proc.stdin is not None
        proc.stdin.close()
        proc.wait(timeout=30)
    return {label: total / renders for label, total in cpu.items()}


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
    parser.add_argument("--serve-new", type=int, default=0)
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
    if args.serve_new > 0:
        print(f"\n--serve, {os.path.basename(args.request[0])} as {args.serve_new} templates not seen before")
        per_template = serve_new_templates(engines, args.request[0], args.serve_new)
        last = engines[-1][0]
        for label, per_render in per_template.items():
            ratio = f"   {per_render / per_template[last]:.2f} times {last}" if label != last else ""
            print(f"  {label:<14} engine cpu {per_render:.2f} ms/render{ratio}")


if __name__ == "__main__":
    main()
