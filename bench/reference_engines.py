"""The two reference engines of bench/first-render.ts, timed inside this process.

- the real Maildeno engine: ``engine.wasm`` of the PyPI package ``maildeno`` 2.0.7, instantiated with
  wasmtime as the package's ``maildeno/_renderer.py`` does, and called through the same exports
  (``alloc``, ``render``, ``dealloc``, ``dealloc_str``). Only the engine call is timed: writing the
  request's UTF-8 into its memory, ``render``, and reading the answer's C string. The package reads
  that string one byte per wasmtime call, which is the package's cost, not the engine's; here it
  is one ``ctypes.string_at``. The request's JSON encoding (done by the caller) is not timed either.
- ``mrml`` 0.2.4 (PyPI), the Rust port of MJML: ``mrml.to_html(mjml)``.

Times are this process's CPU time (``time.process_time``), in milliseconds: on a shared machine a
call's wall time also counts the time it waited for a core, which grows with the call's length.

Runs in the venv bench/first-render.ts makes (bench/.reference/venv). Reads one JSON command per
line on stdin and answers one JSON line on stdout:
  {"op": "maildeno", "requests": [json, ...]}  -> {"ms": [...]}      one render per request
  {"op": "maildeno_html", "request": json}     -> {"html": str}      the package's output (minified)
  {"op": "mrml", "mjml": [str, ...]}           -> {"ms": [...]}      one compile per document
"""

from __future__ import annotations

import ctypes
import importlib.resources
import json
import sys
import time
from typing import Any

import mrml  # type: ignore[import-untyped]
from maildeno._minify import minify_output  # type: ignore[import-untyped]
from wasmtime import Engine, Linker, Module, Store  # type: ignore[import-untyped]

# The engine's allocator runs out after a few hundred renders of a large template: a fresh instance
# (its own store and memory, not timed) every RENDERS_PER_INSTANCE renders.
RENDERS_PER_INSTANCE = 100


class MaildenoEngine:
    def __init__(self) -> None:
        self._engine = Engine()
        wasm = importlib.resources.files("maildeno").joinpath("engine.wasm").read_bytes()
        self._module = Module(self._engine, wasm)
        self._renders = RENDERS_PER_INSTANCE

    def _instance(self) -> None:
        self._store = Store(self._engine)
        self._exports = Linker(self._engine).instantiate(self._store, self._module).exports(self._store)
        self._renders = 0

    def render(self, request: bytes) -> tuple[float, dict[str, Any]]:
        """One render: (milliseconds, the engine's answer)."""
        if self._renders >= RENDERS_PER_INSTANCE:
            self._instance()
        self._renders += 1
        store, exports = self._store, self._exports
        memory = exports["memory"]
        start = time.process_time()
        pointer = exports["alloc"](store, len(request))
        memory.write(store, request, pointer)
        result = exports["render"](store, pointer, len(request))
        exports["dealloc"](store, pointer, len(request))
        answer = ctypes.string_at(ctypes.addressof(memory.data_ptr(store).contents) + result)
        exports["dealloc_str"](store, result)
        elapsed = (time.process_time() - start) * 1000
        return elapsed, json.loads(answer)


def main() -> None:
    engine = MaildenoEngine()
    for line in sys.stdin:
        command = json.loads(line)
        op = command["op"]
        if op == "maildeno":
            times = []
            for request in command["requests"]:
                elapsed, answer = engine.render(request.encode("utf-8"))
                if "output" not in answer:
                    raise SystemExit(f"the Maildeno engine refused a request: {answer.get('error')}")
                times.append(elapsed)
            reply: dict[str, Any] = {"ms": times}
        elif op == "maildeno_html":
            _, answer = engine.render(command["request"].encode("utf-8"))
            reply = {"html": minify_output("html", answer["output"])}
        elif op == "mrml":
            times = []
            for source in command["mjml"]:
                start = time.process_time()
                mrml.to_html(source)
                times.append((time.process_time() - start) * 1000)
            reply = {"ms": times}
        else:
            raise SystemExit(f"unknown command {op!r}")
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
