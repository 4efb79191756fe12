#!/usr/bin/env python3
"""Renders per second and CPU per render of the Python and PHP engine runners (idle or loaded).

The realistic newsletter, html, template cached, a new recipient each render, through:
  - MailrenderClient (1 thread, and --threads threads), AsyncMailrenderClient (50 in flight);
  - the PHP ServeEngine (bench/php_runner_bench.php), when php and clients/php/vendor exist.
CPU per render counts both sides of the pipe: the client process and its engine process (read from
/proc, Linux only). ``--load N`` runs N busy loops (like ``yes > /dev/null``) during the run to show
a loaded machine. Runs alternate idle/loaded ``--rounds`` times so neighbours' noise hits both alike.
Prints figures; asserts nothing.

usage: clients/python/.venv/bin/python bench/client_runners_bench.py [--runs 2000] [--load 2] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "clients" / "python" / "src"))

from mailrender import AsyncMailrenderClient, DynamicData, MailrenderClient  # noqa: E402
from mailrender._engine_discovery import engine_platform  # noqa: E402
from python_client_bench import recipients, start_with_newsletter  # noqa: E402  (bench/, this script's folder)

TICKS = os.sysconf("SC_CLK_TCK")


def engine_cpu() -> float:
    """CPU seconds of this process's mailrender-engine children (from /proc)."""
    total = 0.0
    me = os.getpid()
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        comm_end = stat.rfind(")")
        fields = stat[comm_end + 2 :].split()
        if "mailrender-eng" in stat[:comm_end] and int(fields[1]) == me:
            total += (int(fields[11]) + int(fields[12])) / TICKS
    return total


def self_cpu() -> float:
    t = os.times()
    return t.user + t.system


def measure(work: Callable[[], None], runs: int) -> tuple[float, float]:
    """renders/s and CPU µs per render (client + engine) of ``work`` doing ``runs`` renders."""
    c0, e0, t0 = self_cpu(), engine_cpu(), time.perf_counter()
    work()
    seconds = time.perf_counter() - t0
    cpu = (self_cpu() - c0) + (engine_cpu() - e0)
    return runs / seconds, cpu / runs * 1e6


def python_rows(
    key: str, url: str, tid: str, data: list[DynamicData], runs: int, threads: int
) -> list[tuple[str, float, float]]:
    rows: list[tuple[str, float, float]] = []
    with MailrenderClient(key, base_url=url) as client:
        for i in range(100):
            client.render_html(tid, data[i])

        def single() -> None:
            for i in range(runs):
                client.render_html(tid, data[i % len(data)])

        def threaded() -> None:
            per = runs // threads

            def work(k: int) -> None:
                for i in range(per):
                    client.render_html(tid, data[(k * per + i) % len(data)])

            workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
            for w in workers:
                w.start()
            for w in workers:
                w.join()

        rows.append(("python sync, 1 thread", *measure(single, runs)))
        rows.append((f"python sync, {threads} threads", *measure(threaded, runs // threads * threads)))

    async def inflight() -> tuple[float, float]:
        async with AsyncMailrenderClient(key, base_url=url) as client:
            for i in range(100):
                await client.render_html(tid, data[i])
            sem = asyncio.Semaphore(50)

            async def one(i: int) -> None:
                async with sem:
                    await client.render_html(tid, data[i % len(data)])

            c0, e0, t0 = self_cpu(), engine_cpu(), time.perf_counter()
            await asyncio.gather(*(one(i) for i in range(runs)))
            seconds = time.perf_counter() - t0
            return runs / seconds, ((self_cpu() - c0) + (engine_cpu() - e0)) / runs * 1e6

    rows.append(("python async, 50 in flight", *asyncio.run(inflight())))
    return rows


def php_rows(runs: int) -> list[tuple[str, float, float]]:
    if shutil.which("php") is None or not (ROOT / "clients" / "php" / "vendor" / "autoload.php").exists():
        return []
    done = subprocess.run(
        ["php", str(ROOT / "bench" / "php_runner_bench.php"), str(runs)], capture_output=True, check=True, text=True
    )
    rate, cpu = json.loads(done.stdout)
    return [("php ServeEngine", rate, cpu)]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--load", type=int, default=2, help="busy processes during the loaded runs")
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    os.environ.setdefault(
        "MAILRENDER_ENGINE_PATH", str(ROOT / "engine" / "dist" / engine_platform() / "mailrender-engine")
    )
    data = recipients(100)
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory(prefix="mailrender-bench-") as tmp:
        server, url, key, tid = start_with_newsletter(tmp)
        try:
            for _ in range(args.rounds):
                for mode in ("idle", "loaded"):
                    load = [
                        subprocess.Popen(["yes"], stdout=subprocess.DEVNULL)
                        for _ in range(args.load if mode == "loaded" else 0)
                    ]
                    try:
                        rows = python_rows(key, url, tid, data, args.runs, args.threads) + php_rows(args.runs)
                    finally:
                        for p in load:
                            p.kill()
                            p.wait()
                    for name, rate, cpu in rows:
                        results.setdefault((name, mode), []).append((rate, cpu))
        finally:
            server.terminate()
            server.wait()
    print(
        f"realistic newsletter, html, template cached; {args.runs} renders per run, {args.rounds} rounds alternating idle / "
        f"loaded ({args.load} busy loops); CPU = client + engine process; {os.cpu_count()} CPUs; best run shown"
    )
    for (name, mode), samples in results.items():
        rate = max(s[0] for s in samples)
        cpu = min(s[1] for s in samples)
        print(f"  {name:<28} {mode:<6} {rate:8.0f} renders/s   {cpu:7.1f} µs CPU/render")


if __name__ == "__main__":
    main()
