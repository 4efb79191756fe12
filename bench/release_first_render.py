#!/usr/bin/env python3
"""A template the release engine has not seen before, against the Node build and against mrml.

Prints figures and ratios; asserts nothing:
  (d) `--serve`: the engine process's CPU per new template (the realistic newsletter under a
      template id never sent before, html), the release (QuickJS) executable against the Node
      build (target: release / Node <= 2). Both processes are warmed up with a few renders first;
      batches alternate between them so a noisy neighbour slows both alike.
  (e) one-shot: the CPU of a release-engine process rendering the newsletter's html against a
      Python process running mrml (the Rust MJML) on the newsletter's MJML (target: ours / mrml
      <= 1), the two alternating run by run.
CPU is the process's own user + system time (/proc for a live process, rusage for a finished one):
on a shared machine that counts only the work, not the waits for a core.

usage: release_first_render.py --release PATH --node PATH --python PYTHON_WITH_MRML
                               [--batch 10] [--rounds 6] [--cold-runs 20]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
from pathlib import Path
from typing import Any

NEWSLETTER = Path(__file__).resolve().parent.parent / "fixtures/render/realistic-newsletter/case.json"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
MRML_PROCESS = "import sys, mrml; mrml.to_html(sys.stdin.read())"


def newsletter_request(target: str) -> dict[str, Any]:
    case = json.loads(NEWSLETTER.read_text(encoding="utf-8"))
    return {
        "template": case["template"],
        "target": target,
        "dynamic_data": case["dynamic_data"],
        "options": case["options"],
    }


def process_cpu_ms(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / CLOCK_TICKS  # utime, stime


class ServeEngine:
    def __init__(self, path: str) -> None:
        self.proc = subprocess.Popen([path, "--serve"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self.sent = 0

    def render(self, request: dict[str, Any]) -> None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.sent += 1
        self.proc.stdin.write(json.dumps({**request, "id": self.sent}).encode() + b"\n")
        self.proc.stdin.flush()
        response = json.loads(self.proc.stdout.readline())
        if not response.get("ok"):
            raise SystemExit(f"--serve render failed: {str(response)[:300]}")

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def serve_new_templates(paths: dict[str, str], batch: int, rounds: int) -> dict[str, list[float]]:
    """CPU milliseconds per new template of each engine, one figure per batch."""
    request = newsletter_request("html")
    fresh = 0

    def new_template() -> dict[str, Any]:
        nonlocal fresh
        fresh += 1
        return {**request, "template": {**request["template"], "template_id": f"new-{fresh}"}}

    engines = {label: ServeEngine(path) for label, path in paths.items()}
    per_render: dict[str, list[float]] = {label: [] for label in paths}
    try:
        for engine in engines.values():  # start-up and the first compile of the code paths
            for _ in range(3):
                engine.render(new_template())
        for _ in range(rounds):
            for label, engine in engines.items():
                before = process_cpu_ms(engine.proc.pid)
                for _ in range(batch):
                    engine.render(new_template())
                per_render[label].append((process_cpu_ms(engine.proc.pid) - before) / batch)
    finally:
        for engine in engines.values():
            engine.close()
    return per_render


def child_cpu_ms(argv: list[str], stdin: bytes) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run(argv, input=stdin, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{argv[0]} exited {done.returncode}: {done.stderr[:300]!r}")
    return ((after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)) * 1000


def one_shot_against_mrml(release: str, python: str, runs: int) -> tuple[list[float], list[float]]:
    html_request = json.dumps(newsletter_request("html")).encode()
    mjml_case = newsletter_request("mjml")
    mjml_request = json.dumps({**mjml_case, "options": {**mjml_case["options"], "minify": False}}).encode()
    mjml = json.loads(subprocess.run([release], input=mjml_request, capture_output=True, check=True).stdout)["output"]
    ours: list[float] = []
    theirs: list[float] = []
    for i in range(runs + 2):
        measured = (child_cpu_ms([release], html_request), child_cpu_ms([python, "-c", MRML_PROCESS], mjml.encode()))
        if i >= 2:  # the first two warm the page cache
            ours.append(measured[0])
            theirs.append(measured[1])
    return ours, theirs


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", required=True, help="the release (QuickJS) executable")
    parser.add_argument("--node", required=True, help="the Node build of the executable")
    parser.add_argument("--python", required=True, help="a Python with mrml installed")
    parser.add_argument("--batch", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--cold-runs", type=int, default=20)
    args = parser.parse_args()

    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    print(f"the release engine on a template not seen before (load average: {load})")
    serve = serve_new_templates({"release": args.release, "node": args.node}, args.batch, args.rounds)
    release, node = statistics.median(serve["release"]), statistics.median(serve["node"])
    print(
        f"(d) --serve, CPU per new newsletter: release {release:6.1f} ms   Node {node:6.1f} ms   release / Node {release / node:4.2f} (target <= 2)"
    )
    ours, theirs = one_shot_against_mrml(args.release, args.python, args.cold_runs)
    ours_ms, theirs_ms = statistics.median(ours), statistics.median(theirs)
    print(
        f"(e) one-shot newsletter html, process CPU: release {ours_ms:6.1f} ms   "
        f"Python + mrml on its MJML {theirs_ms:6.1f} ms   ours / mrml {ours_ms / theirs_ms:4.2f} (target <= 1)"
    )


if __name__ == "__main__":
    main()
