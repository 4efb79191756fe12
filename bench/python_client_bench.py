#!/usr/bin/env python3
"""Renders per second of the realistic newsletter through the Python client (issue 6's claim).

Side by side, in one run:
  - the engine library in-process (bench/engine_inprocess_bench.ts under tsx): the yardstick;
  - the bare --serve pipe, whole output and layout + values: no client logic, blocking reads (the
    client reads through its engine process's reader thread);
  - MailrenderClient.render_html with the template cached (no network per render; the engine process
    holds the template by template_ref), one thread and several threads;
  - AsyncMailrenderClient with 50 renders in flight.
The service is started for the run on a free port (SQLite in a temp dir). Prints figures; asserts
nothing. Target: the sync client at >= 50% of the in-process figure.

usage: clients/python/.venv/bin/python bench/python_client_bench.py [--runs 2000] [--threads 4]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "clients" / "python" / "src"))

from mailrender import AsyncMailrenderClient, DynamicData, MailrenderClient  # noqa: E402
from mailrender._core.layouts import Layouts  # noqa: E402
from mailrender._engine_discovery import engine_platform  # noqa: E402

CASE = json.loads((ROOT / "fixtures" / "render" / "realistic-newsletter" / "case.json").read_text(encoding="utf-8"))


def recipients(n: int) -> list[DynamicData]:
    base: dict[str, Any] = CASE.get("dynamic_data") or {}
    out: list[DynamicData] = []
    for i in range(n):
        merge_tags = dict(base.get("merge_tags") or {})
        merge_tags["text"] = {**(merge_tags.get("text") or {}), "first_name": f"Reader {i}"}
        out.append({**base, "merge_tags": merge_tags})  # type: ignore[typeddict-item]
    return out


def start_server(tmp: str) -> tuple[subprocess.Popen[bytes], str, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    admin = "sk_live_" + secrets.token_hex(32)
    env = {
        **os.environ,
        "PORT": str(port),
        "HOST": "127.0.0.1",
        "MAILRENDER_SQLITE_PATH": os.path.join(tmp, "db.sqlite"),
        "MAILRENDER_ADMIN_KEY": admin,
        "MAILRENDER_RATE_LIMIT_MAX": "0",
        "LOG_LEVEL": "warn",
    }
    env.pop("DATABASE_URL", None)
    proc = subprocess.Popen(
        ["node", str(ROOT / "server" / "lib" / "cli.js"), "serve"], env=env, cwd=tmp, stdout=subprocess.DEVNULL
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(400):
        try:
            if httpx.get(url + "/healthz", timeout=1).status_code == 200:
                return proc, url, admin
        except httpx.HTTPError:
            time.sleep(0.05)
    raise SystemExit("the server did not start")


def start_with_newsletter(tmp: str) -> tuple[subprocess.Popen[bytes], str, str, str]:
    """The service with the newsletter stored: its process, URL, an all-targets key and the template id."""
    proc, url, admin = start_server(tmp)
    h = {"authorization": f"Bearer {admin}"}
    key = httpx.post(url + "/api/v1/keys", json={"name": "bench", "targets": ["all"]}, headers=h).json()["key"]
    tid = httpx.post(url + "/api/v1/templates", json=CASE["template"], headers=h).json()["id"]
    return proc, url, key, tid


def in_process(runs: int) -> dict[str, Any]:
    done = subprocess.run(
        [str(ROOT / "node_modules" / ".bin" / "tsx"), str(ROOT / "bench" / "engine_inprocess_bench.ts"), str(runs)],
        cwd=ROOT,
        capture_output=True,
        check=True,
    )
    return json.loads(done.stdout)


def raw_pipe(data: list[DynamicData], runs: int, layout: bool) -> float:
    """A --serve round trip with nothing else: the request line out, a blocking read of the answer; with
    ``layout``, the answer is values only and joined with the layout's parts (spec/README.md)."""
    engine = os.environ["MAILRENDER_ENGINE_PATH"]
    proc = subprocess.Popen([engine, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    extra: dict[str, Any] = {"output_format": "layout"} if layout else {}
    layouts = Layouts()

    def rt(doc: dict[str, Any]) -> None:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(json.dumps({**doc, **extra}).encode() + b"\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        if layout:
            layouts.resolve(json.loads(line))  # the join, as the client does it

    rt({"id": 0, "template": CASE["template"], "template_ref": "nl", "target": "html", "dynamic_data": data[0]})
    for i in range(100):
        rt({"id": i, "template_ref": "nl", "target": "html", "dynamic_data": data[i % len(data)]})
    start = time.perf_counter()
    for i in range(runs):
        rt({"id": i, "template_ref": "nl", "target": "html", "dynamic_data": data[i % len(data)]})
    rate = runs / (time.perf_counter() - start)
    proc.stdin.close()
    proc.wait()
    return rate


def sync_single(client: MailrenderClient, tid: str, data: list[DynamicData], runs: int) -> float:
    start = time.perf_counter()
    for i in range(runs):
        client.render_html(tid, data[i % len(data)])
    return runs / (time.perf_counter() - start)


def sync_threads(client: MailrenderClient, tid: str, data: list[DynamicData], runs: int, threads: int) -> float:
    per = runs // threads

    def work(k: int) -> None:
        for i in range(per):
            client.render_html(tid, data[(k * per + i) % len(data)])

    workers = [threading.Thread(target=work, args=(k,)) for k in range(threads)]
    start = time.perf_counter()
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    return per * threads / (time.perf_counter() - start)


async def async_inflight(key: str, url: str, tid: str, data: list[DynamicData], runs: int, inflight: int) -> float:
    async with AsyncMailrenderClient(key, base_url=url) as client:
        await client.render_html(tid, data[0])
        sem = asyncio.Semaphore(inflight)

        async def one(i: int) -> None:
            async with sem:
                await client.render_html(tid, data[i % len(data)])

        start = time.perf_counter()
        await asyncio.gather(*(one(i) for i in range(runs)))
        return runs / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=2000)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    os.environ.setdefault(
        "MAILRENDER_ENGINE_PATH", str(ROOT / "engine" / "dist" / engine_platform() / "mailrender-engine")
    )
    data = recipients(100)
    with tempfile.TemporaryDirectory(prefix="mailrender-bench-") as tmp:
        proc, url, key, tid = start_with_newsletter(tmp)
        try:
            reference = in_process(args.runs)
            pipe = raw_pipe(data, args.runs, layout=False)
            pipe_layout = raw_pipe(data, args.runs, layout=True)
            with MailrenderClient(key, base_url=url) as client:
                for i in range(100):  # warm: fetched and cached, engine started and JIT-warm
                    client.render_html(tid, data[i])
                single = sync_single(client, tid, data, args.runs)
                threaded = sync_threads(client, tid, data, args.runs, args.threads)
            concurrent = asyncio.run(async_inflight(key, url, tid, data, args.runs, 50))
        finally:
            proc.terminate()
            proc.wait()
    ref = reference["renders_per_second"]
    print(
        f"realistic newsletter, html, template cached, {args.runs} renders each (2 cores: {os.cpu_count()} CPUs seen)"
    )
    print(f"  engine library in-process (tsx)          {ref:8.0f} renders/s   (yardstick)")
    print(
        f"  raw --serve pipe, whole output           {pipe:8.0f} renders/s   {100 * pipe / ref:5.1f}% of in-process (no client logic, blocking read)"
    )
    print(
        f"  raw --serve pipe, layout + values        {pipe_layout:8.0f} renders/s   {100 * pipe_layout / ref:5.1f}% of in-process (as above; what the client asks for)"
    )
    print(
        f"  MailrenderClient, 1 thread               {single:8.0f} renders/s   {100 * single / ref:5.1f}% of in-process"
    )
    print(
        f"  MailrenderClient, {args.threads} threads              {threaded:8.0f} renders/s   {100 * threaded / ref:5.1f}% of in-process"
    )
    print(
        f"  AsyncMailrenderClient, 50 in flight      {concurrent:8.0f} renders/s   {100 * concurrent / ref:5.1f}% of in-process"
    )
    verdict = lambda rate: "met" if rate >= ref / 2 else "NOT met"  # noqa: E731
    print(
        f"  target: sync client >= 50% of in-process -> 1 thread: {verdict(single)}; {args.threads} threads: {verdict(threaded)}"
    )


if __name__ == "__main__":
    main()
