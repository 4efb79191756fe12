#!/usr/bin/env python3
"""A one-shot release-engine render against a Python process running mrml (the Rust MJML).

Prints figures and a ratio; asserts nothing: the CPU of a release-engine process rendering the
realistic newsletter's html, against a Python process running mrml on the newsletter's MJML (what a
PHP or Python app pays per email with one process per render; target: ours / mrml <= 1), the
processes alternating run by run, who goes first turning each round. CPU is each process's own
user + system time (`wait4`): on a shared machine that counts only the work, not the waits for a
core. Each process's page faults are printed beside it: the memory a process needs is part of its
CPU (bench/README.md, "Measuring on a shared machine"). `--baseline` runs a second release
executable in the same rounds (the one before a change), so that both ratios and theirs to each
other come from one run: on a machine whose speed moves from hour to hour, ratios from separate
runs differ by more than a change of a few percent.

usage: release_one_shot_vs_mrml.py --release PATH --python PYTHON_WITH_MRML [--baseline PATH] [--runs 100]
"""

from __future__ import annotations

import argparse
import json
import os
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


def child_usage(argv: list[str], stdin: bytes) -> tuple[float, int]:
    """The CPU time and page faults of one process run of `argv` reading `stdin`, its output discarded."""
    read_end, write_end = os.pipe()
    actions = [
        (os.POSIX_SPAWN_DUP2, read_end, 0),
        (os.POSIX_SPAWN_CLOSE, write_end),
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
    ]
    pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
    os.close(read_end)
    with os.fdopen(write_end, "wb") as pipe:
        pipe.write(stdin)
    _, status, usage = os.wait4(pid, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{argv[0]} exited {os.waitstatus_to_exitcode(status)}")
    return (usage.ru_utime + usage.ru_stime) * 1000, usage.ru_minflt + usage.ru_majflt


def one_shot_against_mrml(engines: dict[str, str], python: str, runs: int) -> dict[str, list[tuple[float, int]]]:
    """Each engine's and mrml's CPU and faults per run, `runs` rounds after two that warm the page cache."""
    html_request = json.dumps(newsletter_request("html")).encode()
    mjml_case = newsletter_request("mjml")
    mjml_request = json.dumps({**mjml_case, "options": {**mjml_case["options"], "minify": False}}).encode()
    first = next(iter(engines.values()))
    mjml = json.loads(subprocess.run([first], input=mjml_request, capture_output=True, check=True).stdout)["output"]
    commands = {name: ([binary], html_request) for name, binary in engines.items()}
    commands["mrml"] = ([python, "-c", MRML_PROCESS], mjml.encode())
    order = list(commands)
    times: dict[str, list[tuple[float, int]]] = {name: [] for name in commands}
    for i in range(runs + 2):
        turn = order[i % len(order) :] + order[: i % len(order)]
        measured = {name: child_usage(*commands[name]) for name in turn}
        if i >= 2:
            for name, run in measured.items():
                times[name].append(run)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--release", required=True, help="the release (QuickJS) executable")
    parser.add_argument("--python", required=True, help="a Python with mrml installed")
    parser.add_argument("--baseline", help="another release executable, measured in the same rounds")
    parser.add_argument("--runs", type=int, default=100)
    args = parser.parse_args()

    load = " ".join(f"{value:.2f}" for value in os.getloadavg())
    engines = {"release engine": args.release, **({"baseline": args.baseline} if args.baseline else {})}
    times = one_shot_against_mrml(engines, args.python, args.runs)
    medians = {name: statistics.median(ms for ms, _ in runs) for name, runs in times.items()}
    faults = {name: statistics.median(count for _, count in runs) for name, runs in times.items()}
    print(f"one-shot newsletter html, process CPU (page faults), medians of {args.runs} (load average: {load})")
    for name in engines:
        print(
            f"  {name:14} {medians[name]:6.2f} ms ({faults[name]:.0f})"
            f"   Python + mrml on its MJML {medians['mrml']:6.2f} ms ({faults['mrml']:.0f})"
            f"   {name} / mrml {medians[name] / medians['mrml']:5.3f} (target <= 1)"
        )
    if args.baseline:
        print(f"  release engine / baseline {medians['release engine'] / medians['baseline']:5.3f}")


if __name__ == "__main__":
    main()
