"""Rendering through one long-lived ``--serve`` engine process per client (``EngineRunner``).

A render writes its request line (with an ``id``) under one writer lock and waits for its future,
which the process's reader thread completes (``EngineProcess``). So renders from many threads, and
from an event loop (``render_async``), pipeline through one process without waiting for each other.
The engine keeps templates by ``template_ref``: a template is sent once per process, and again after
``TEMPLATE_REF_UNKNOWN``. After the handshake, renders ask for output_format "layout", so an answer
carries the recipient's values, not the whole document.

With a disk cache, the first render of a template, target and minification in a process carries
the template with the saved-layout keys (spec/clients.md, "Saved layouts"): the process renders
from the layout an earlier process kept instead of compiling, or returns a new one to keep.

A process that dies (killed, crashed) fails the renders waiting on it; each is retried once on a fresh
process, started transparently. A render with no answer in time kills the process (``TIMEOUT``).
``close()`` closes stdin, which makes the engine exit 0.
"""

from __future__ import annotations

import contextlib
import threading
import weakref
from collections.abc import Mapping
from concurrent.futures import Executor, Future
from concurrent.futures import TimeoutError as FutureTimeout
from typing import TYPE_CHECKING, Any, Callable, Optional

from ._constants import ENGINE_RESPONSE_TIMEOUT, ENV_ENGINE_MAX_MEMORY
from ._core.entry import CacheEntry
from ._core.protocol import (
    check_handshake,
    engine_request_line,
    engine_speaks_layouts,
    is_ref_unknown,
    refused_saved_layouts,
)
from ._core.render_request import RenderRequest
from ._engine_discovery import find_engine
from ._engine_process import EngineDied, EngineProcess, stop_quietly
from ._errors import MailrenderError

if TYPE_CHECKING:
    # asyncio is imported by the first async render (render_async), not by the sync client.
    import asyncio

#: Reads the saved layout kept for a render's template, target and minification (None: none yet).
#: Given to a render that keeps layouts; called only when the process would compile the template.
LayoutLoader = Callable[[], Optional[str]]


class _Attempt:
    """One render's way through the protocol: after each answer (or death of the process), whether
    it is final or what the next request must do differently. No I/O, so both drivers share it."""

    def __init__(self, engine_path: Optional[str]) -> None:
        self.engine_path = engine_path
        self.force_template = False
        self.layout_parts = False
        self.restarted = False
        self.sent_saved_layout_keys = False

    def after_death(self, died: EngineDied) -> None:
        if self.restarted and died.hung:
            raise _no_answer_error()  # the new process hung too: this render waited as long as the one that timed out
        if self.restarted:
            raise MailrenderError(
                "UNKNOWN",
                f"Rendering failed because {died}. If this repeats, check that the engine runs on this machine ({process_hint(self.engine_path)}).",
                0,
            ) from None
        self.restarted = True  # a render is idempotent: once more on a fresh process

    def is_final(self, process: EngineProcess, envelope: dict[str, Any]) -> bool:
        if not process.handshake_done:
            try:
                check_handshake(envelope, process.path)
            except MailrenderError:
                process.kill()
                raise
            process.speaks_layouts = engine_speaks_layouts(envelope)
            process.handshake_done = True
        if is_ref_unknown(envelope) and not self.force_template:
            self.force_template = True  # evicted from the engine's store: resend with the template
            return False
        if self.sent_saved_layout_keys and refused_saved_layouts(envelope):
            # An engine older than saved layouts (engine_path): this render and the process's next ones without them.
            process.knows_saved_layouts = False
            self.force_template = True
            return False
        if "layout" in envelope:
            if self.layout_parts:
                raise MailrenderError(
                    "UNKNOWN",
                    "The mailrender engine named a layout without sending its parts, even when asked for them",
                    0,
                )
            self.layout_parts = True  # we dropped this layout's parts: ask for them again
            return False
        return True


def _timed_out(process: EngineProcess) -> MailrenderError:
    process.kill(hung=True)  # fails every other render waiting on it (each is retried on a new process)
    return _no_answer_error()


def _no_answer_error() -> MailrenderError:
    return MailrenderError(
        "TIMEOUT",
        f"The mailrender engine gave no answer within {ENGINE_RESPONSE_TIMEOUT:g} s; it was stopped and will be restarted on the next render",
        0,
    )


def _awaitable(loop: asyncio.AbstractEventLoop, future: Future[dict[str, Any]]) -> asyncio.Future[dict[str, Any]]:
    """The reader thread's answer on the event loop. Unlike asyncio.wrap_future, a cancelled or timed
    out await never cancels ``future``, which the reader thread still completes."""
    waiter: asyncio.Future[dict[str, Any]] = loop.create_future()

    def settle(done: Future[dict[str, Any]]) -> None:
        if waiter.done():
            return
        error = done.exception()
        if error is None:
            waiter.set_result(done.result())
        else:
            waiter.set_exception(error)

    def on_done(done: Future[dict[str, Any]]) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(settle, done)

    future.add_done_callback(on_done)
    return waiter


def engine_max_memory(env: Mapping[str, str]) -> Optional[int]:
    """The engine's memory ceiling from the environment, in MiB (blank: none); a bad value fails at construction."""
    raw = env.get(ENV_ENGINE_MAX_MEMORY, "").strip()
    if raw == "":
        return None
    if not raw.isdigit() or int(raw) < 32:
        raise TypeError(f"{ENV_ENGINE_MAX_MEMORY} must be a whole number of MiB, at least 32, got {raw!r}")
    return int(raw)


class EngineRunner:
    """Renders through one lazily started, transparently restarted ``--serve`` process."""

    def __init__(self, engine_path: Optional[str], env: Mapping[str, str]) -> None:
        self._configured = engine_path
        self._env = dict(env)
        self._max_memory_mib = engine_max_memory(env)
        self._path: Optional[str] = None
        self._process: Optional[EngineProcess] = None
        self._write_lock = threading.Lock()
        self._next_id = 0
        self._closed = False
        self._finalizer: Optional[weakref.finalize[[EngineProcess], EngineRunner]] = None

    @property
    def pid(self) -> Optional[int]:
        """The engine process id, or None before the first render (tests kill it through this)."""
        process = self._process
        return None if process is None or process.dead is not None else process.popen.pid

    def _current(self) -> EngineProcess:
        # Called with the write lock held.
        if self._closed:
            raise RuntimeError("mailrender: the client is closed")
        process = self._process
        if process is None or process.dead is not None or process.popen.poll() is not None:
            if process is not None:
                process.kill()
            if self._path is None:
                self._path = find_engine(self._configured, self._env)
            process = EngineProcess(self._path, self._max_memory_mib)
            self._process = process
            if self._finalizer is not None:
                self._finalizer.detach()
            # A client dropped without close() still ends its engine process.
            self._finalizer = weakref.finalize(self, stop_quietly, process)
        return process

    def _send(
        self, entry: CacheEntry, request: RenderRequest, attempt: _Attempt, load_layout: Optional[LayoutLoader]
    ) -> tuple[EngineProcess, Future[dict[str, Any]]]:
        with self._write_lock:
            process = self._current()
            self._next_id += 1
            compiles = (entry.ref, request.target, request.minified)
            keep = (
                load_layout is not None
                and process.knows_saved_layouts
                and (attempt.force_template or compiles not in process.layout_keys)
            )
            include = attempt.force_template or entry.ref not in process.refs or keep
            # Read under the lock only on a process's first render of this template, target and minification.
            saved = load_layout() if keep and load_layout is not None else None
            line = engine_request_line(
                self._next_id,
                entry,
                request,
                include,
                process.speaks_layouts,
                attempt.layout_parts,
                save_layout=keep,
                saved_layout=saved,
            )
            future = process.send(self._next_id, line)
            attempt.sent_saved_layout_keys = keep
            # Marked at write time: the engine reads in order, so a later ref-only line finds it kept.
            process.refs.add(entry.ref)
            if keep:
                process.layout_keys.add(compiles)
            return process, future

    def render(
        self, entry: CacheEntry, request: RenderRequest, load_layout: Optional[LayoutLoader] = None
    ) -> dict[str, Any]:
        """The engine's envelope for one render (ok or not); MailrenderError when the engine fails.
        With ``load_layout``, an ok envelope may carry a ``saved_layout`` to keep."""
        attempt = _Attempt(self._path)
        while True:
            try:
                process, future = self._send(entry, request, attempt, load_layout)
                try:
                    envelope = future.result(ENGINE_RESPONSE_TIMEOUT)
                except FutureTimeout:
                    raise _timed_out(process) from None
            except EngineDied as died:
                attempt.after_death(died)
                continue
            if attempt.is_final(process, envelope):
                return envelope

    async def render_async(
        self,
        entry: CacheEntry,
        request: RenderRequest,
        executor: Executor,
        load_layout: Optional[LayoutLoader] = None,
    ) -> dict[str, Any]:
        """``render`` on an event loop: the request is written in ``executor`` (a write may wait for a
        full pipe, a saved layout is read there) and no thread waits for the answer, so any number of
        renders can be in flight."""
        import asyncio

        loop = asyncio.get_running_loop()
        attempt = _Attempt(self._path)
        while True:
            try:
                process, future = await loop.run_in_executor(executor, self._send, entry, request, attempt, load_layout)
                try:
                    envelope = await asyncio.wait_for(_awaitable(loop, future), ENGINE_RESPONSE_TIMEOUT)
                except asyncio.TimeoutError:
                    raise _timed_out(process) from None
            except EngineDied as died:
                attempt.after_death(died)
                continue
            if attempt.is_final(process, envelope):
                return envelope

    def close(self) -> None:
        with self._write_lock:
            self._closed = True
            process, self._process = self._process, None
            if self._finalizer is not None:
                self._finalizer.detach()
        if process is not None:
            process.stop()


def process_hint(path: Optional[str]) -> str:
    return f"run '{path} --version'" if path else "no engine was found"
