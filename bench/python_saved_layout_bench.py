"""The Python client's saved layouts in a fresh ``--serve`` process: its first and second render of the
realistic newsletter, without a layout (and not asking for one), asking for one with none on disk, and
from a saved one. Medians over ``--runs`` processes, milliseconds of wall time.

    clients/python/.venv/bin/python bench/python_saved_layout_bench.py [--runs 30] [--engine PATH]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any, Callable, Optional

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "clients" / "python" / "src"))

from mailrender._core.entry import CacheEntry  # noqa: E402
from mailrender._core.render_request import check_render_request  # noqa: E402
from mailrender._engine import EngineRunner  # noqa: E402
from mailrender._engine_discovery import engine_platform  # noqa: E402

Loader = Optional[Callable[[], Optional[str]]]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=30)
    parser.add_argument("--engine", default=str(ROOT / "engine" / "dist" / engine_platform() / "mailrender-engine"))
    args = parser.parse_args()
    case: dict[str, Any] = json.loads((ROOT / "fixtures/render/realistic-newsletter/case.json").read_text("utf-8"))
    entry = CacheEntry(template_id="n", template=case["template"], etag='"1"', fetched_at_ms=0, scope=None)
    request = check_render_request("n", "html", case.get("dynamic_data"))
    warm_entry = CacheEntry(template_id="w", template=case["template"], etag='"0"', fetched_at_ms=0, scope=None)
    warm_request = check_render_request("w", "mjml", None)

    runner = EngineRunner(args.engine, {})
    layout = str(runner.render(entry, request, lambda: None)["saved_layout"])
    runner.close()

    def process(load: Loader) -> tuple[float, float]:
        runner = EngineRunner(args.engine, {})
        try:
            runner.render(warm_entry, warm_request)  # started and past the handshake, as in a worker
            t0 = time.perf_counter()
            runner.render(entry, request, load)
            t1 = time.perf_counter()
            runner.render(entry, request, load)
            return (t1 - t0) * 1000, (time.perf_counter() - t1) * 1000
        finally:
            runner.close()

    cases: list[tuple[str, Loader]] = [
        ("no saved layouts", None),
        ("none on disk yet", lambda: None),
        ("from the layout", lambda: layout),
    ]
    for name, load in cases:
        times = [process(load) for _ in range(args.runs)]
        first = statistics.median(t[0] for t in times)
        second = statistics.median(t[1] for t in times)
        print(f"{name:17} first render {first:6.1f} ms   second {second:6.1f} ms")


if __name__ == "__main__":
    main()
