"""The Python client's saved layouts in a fresh ``--serve`` process: its first and second render of the
realistic newsletter, without a layout (and not asking for one), asking for one with none on disk, and
from a saved one. Each process first renders another template (the receipt), so it is started and past
the handshake as a worker is, but has not read the newsletter. The cases (and the engines, when
``--engine`` is given more than once, for an A/B comparison) take turns, process by process, so a
change in the machine's load reaches them all alike. Medians over ``--runs`` processes each,
milliseconds of wall time.

With ``--instructions``, the same renders' cost that the machine's load does not change: the
instructions (valgrind's callgrind) of each render of the newsletter in a ``--serve`` process fed the
request lines the client writes, each render's figure the difference between processes given one line
more. The saved layout is then made under valgrind too (see engine/scripts/saved-layout-budget.ts).

    clients/python/.venv/bin/python bench/python_saved_layout_bench.py [--runs 30] [--engine PATH ...] [--instructions]
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "clients" / "python" / "src"))

from mailrender._core.entry import CacheEntry  # noqa: E402
from mailrender._core.protocol import engine_request_line  # noqa: E402
from mailrender._core.render_request import check_render_request  # noqa: E402
from mailrender._engine import EngineRunner  # noqa: E402
from mailrender._engine_discovery import engine_platform  # noqa: E402

Loader = Optional[Callable[[], Optional[str]]]


def fixture(name: str) -> dict[str, Any]:
    return json.loads((ROOT / "fixtures" / "render" / name / "case.json").read_text("utf-8"))


case = fixture("realistic-newsletter")
entry = CacheEntry(template_id="n", template=case["template"], etag='"1"', fetched_at_ms=0, scope=None)
request = check_render_request("n", "html", case.get("dynamic_data"))
warm = fixture("realistic-receipt")
warm_entry = CacheEntry(template_id="w", template=warm["template"], etag='"0"', fetched_at_ms=0, scope=None)
warm_request = check_render_request("w", "html", warm.get("dynamic_data"))


def count_instructions(engine: str, labelled: bool) -> None:
    """Millions of instructions of the newsletter's first and second render in a --serve process, as the
    client sends them: the first with the template (and the saved-layout keys), the second by its ref."""

    def line(request_id: int, first: bool, saved: Optional[str] = None) -> bytes:
        return engine_request_line(
            request_id, entry, request, first, layout=True, save_layout=first, saved_layout=saved
        )

    def serve(lines: list[bytes], tool: str = "callgrind") -> subprocess.CompletedProcess[bytes]:
        out = "--callgrind-out-file=/dev/null" if tool == "callgrind" else "--log-file=/dev/null"
        return subprocess.run(
            ["valgrind", f"--tool={tool}", out, engine, "--serve"],
            input=b"".join(lines),
            capture_output=True,
            check=True,
        )

    def millions(lines: list[bytes]) -> float:
        collected = re.search(rb"Collected\s*:\s*(\d+)", serve(lines).stderr)
        if collected is None:
            raise SystemExit(f"valgrind gave no count for {engine}")
        return int(collected.group(1)) / 1e6

    warm_line = engine_request_line(0, warm_entry, warm_request, True, layout=True)
    made = json.loads(serve([warm_line, line(1, True)], tool="none").stdout.splitlines()[-1])
    layout = str(made["saved_layout"])
    used = json.loads(serve([warm_line, line(1, True, layout)], tool="none").stdout.splitlines()[-1])
    if used.get("saved_layout_status") != "used":
        raise SystemExit(f"{engine} did not use the saved layout ({used.get('saved_layout_status')})")
    label = f"{engine}: " if labelled else ""
    started = millions([warm_line])
    for name, saved in (("compiled", None), ("from the layout", layout)):
        first = millions([warm_line, line(1, True, saved)])
        second = millions([warm_line, line(1, True, saved), line(2, False)])
        print(f"{label}{name:15} first render {first - started:6.1f} M instructions   second {second - first:6.1f} M")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument(
        "--engine", action="append", help="an engine executable (again for another, compared in the same run)"
    )
    parser.add_argument(
        "--instructions", action="store_true", help="count instructions under valgrind instead of timing"
    )
    args = parser.parse_args()
    engines: list[str] = args.engine or [str(ROOT / "engine" / "dist" / engine_platform() / "mailrender-engine")]
    if args.instructions:
        for engine in engines:
            count_instructions(engine, len(engines) > 1)
        return

    def saved_layout(engine: str) -> str:
        runner = EngineRunner(engine, {})
        try:
            return str(runner.render(entry, request, lambda: None)["saved_layout"])
        finally:
            runner.close()

    def process(engine: str, load: Loader) -> tuple[float, float]:
        runner = EngineRunner(engine, {})
        try:
            runner.render(warm_entry, warm_request)
            t0 = time.perf_counter()
            runner.render(entry, request, load)
            t1 = time.perf_counter()
            runner.render(entry, request, load)
            return (t1 - t0) * 1000, (time.perf_counter() - t1) * 1000
        finally:
            runner.close()

    cases: list[tuple[str, str, Loader]] = []
    for engine in engines:
        layout = saved_layout(engine)
        cases += [
            (engine, "no saved layouts", None),
            (engine, "none on disk yet", lambda: None),
            (engine, "from the layout", lambda layout=layout: layout),
        ]
    times: list[list[tuple[float, float]]] = [[] for _ in cases]
    for _ in range(args.runs):
        for i, (engine, _name, load) in enumerate(cases):
            times[i].append(process(engine, load))
    for (engine, name, _load), measured in zip(cases, times):
        first = statistics.median(t[0] for t in measured)
        second = statistics.median(t[1] for t in measured)
        label = f"{engine}: " if len(engines) > 1 else ""
        print(f"{label}{name:17} first render {first:6.1f} ms   second {second:6.1f} ms")


if __name__ == "__main__":
    main()
