#!/usr/bin/env python3
"""A one-shot release-engine render against a Python process running mrml (the Rust MJML).

Prints figures and a ratio; asserts nothing: the CPU of a release-engine process rendering the
realistic newsletter's html, against a Python process running mrml on the newsletter's MJML (what a
PHP or Python app pays per email with one process per render; target: ours / mrml <= 1), the two
alternating run by run. CPU is the process's own user + system time (rusage): on a shared machine
that counts only the work, not the waits for a core.

usage: release_one_shot_vs_mrml.py --release PATH --python PYTHON_WITH_MRML [--runs 20]
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
MRML_PROCESS = "import sys, mrml; mrml.to_html(sys.stdin.read())"


def newsletter_request(target: str) -> dict[str, Any]:
    case = json.loads(NEWSLETTER.read_text(encoding="utf-8"))
    return {
        "template": case["template"],
        "target": target,
        "dynamic_data": case["dynamic_data"],
        "options": case["options"],
    }


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
    parser.add_argument("--python", required=True, help="a Python with mrml installed")
    parser.add_argument("--runs", type=int, default=20)
    args = parser.parse_args()

    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    ours, theirs = one_shot_against_mrml(args.release, args.python, args.runs)
    ours_ms, theirs_ms = statistics.median(ours), statistics.median(theirs)
    print(f"one-shot newsletter html, process CPU, medians of {args.runs} (load average: {load})")
    print(
        f"  release engine {ours_ms:6.1f} ms   Python + mrml on its MJML {theirs_ms:6.1f} ms   ours / mrml {ours_ms / theirs_ms:4.2f} (target <= 1)"
    )


if __name__ == "__main__":
    main()
