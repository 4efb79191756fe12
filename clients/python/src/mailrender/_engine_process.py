"""One ``mailrender-engine --serve`` process: requests written by id, answers read by one thread.

The reader thread reads every answer line, joins layout answers with their parts (answers come in
request order, so it alone keeps ``Layouts``) and completes the request's future. Callers block on
their future (threads) or await it (asyncio). When the output ends or breaks, every pending future
fails with ``EngineDied``. ``EngineRunner`` (``_engine``) decides what to send and retries.
"""

from __future__ import annotations

import collections
import contextlib
import subprocess
import sys
import threading
from concurrent.futures import Future
from typing import IO, Any, Optional

from ._core.layouts import Layouts
from ._core.protocol import EngineProtocolError, parse_envelope
from ._engine_discovery import engine_platform
from ._errors import MailrenderError

#: Read buffer for the engine's answers: a layout's first answer is as large as the document.
_PIPE_BUFFER = 1 << 16
#: Linux's F_SETPIPE_SZ (fcntl has the name only from Python 3.10).
_F_SETPIPE_SZ = 1031


def _widen_pipe(pipe: Optional[IO[bytes]]) -> None:
    """Best effort, Linux only: a 1 MiB pipe lets the engine write a whole document in one go instead
    of 64 KiB at a time, each waiting for us to read."""
    if pipe is None or not sys.platform.startswith("linux"):
        return
    try:
        import fcntl

        fcntl.fcntl(pipe.fileno(), _F_SETPIPE_SZ, 1 << 20)
    except (OSError, ValueError):
        pass  # over the system's pipe-max-size: the default 64 KiB works, only slower


class EngineDied(Exception):
    """The process ended (or broke the protocol) while a render waited: retried once on a new process.
    ``hung``: it was stopped because a render got no answer in time, so the renders waiting with it
    failed for the same reason."""

    def __init__(self, detail: str, hung: bool = False) -> None:
        super().__init__(detail)
        self.hung = hung


class EngineProcess:
    """One ``--serve`` process, its pending renders by id and the template refs it was sent."""

    def __init__(self, path: str, max_memory_mib: Optional[int] = None) -> None:
        self.path = path
        ceiling = [] if max_memory_mib is None else ["--max-memory", str(max_memory_mib)]
        try:
            self.popen = subprocess.Popen(
                [path, "--serve", *ceiling],
                bufsize=_PIPE_BUFFER,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                close_fds=True,
            )
        except OSError as error:
            raise MailrenderError(
                "UNKNOWN",
                f"Could not start the mailrender engine {path}: {error}. Check that it is the engine for {engine_platform()}.",
            ) from None
        _widen_pipe(self.popen.stdout)
        self.pending: dict[int, Future[dict[str, Any]]] = {}
        self.refs: set[str] = set()
        self.dead: Optional[str] = None
        self.hung = False
        self.handshake_done = False
        #: Set by the handshake: ask for output_format "layout" (values only, once the parts are here).
        self.speaks_layouts = False
        self.layouts = Layouts()  # touched by the reader thread only
        #: False once the engine refused the saved-layout keys (an engine older than saved layouts).
        self.knows_saved_layouts = True
        #: (template_ref, target, minify) sent with the saved-layout keys: compiled here, kept in memory.
        self.layout_keys: set[tuple[str, str, bool]] = set()
        self._stderr_tail: collections.deque[str] = collections.deque(maxlen=20)
        self._lock = threading.Lock()
        self._ended = threading.Event()
        self._stderr_reader = threading.Thread(target=self._drain_stderr, name="mailrender-engine-stderr", daemon=True)
        self._stderr_reader.start()  # first: the process's end waits for its last words
        self.reader = threading.Thread(target=self._read_answers, name="mailrender-engine-reader", daemon=True)
        self.reader.start()

    def send(self, request_id: int, line: bytes) -> Future[dict[str, Any]]:
        """Writes one request line; the caller holds the runner's writer lock."""
        future: Future[dict[str, Any]] = Future()
        with self._lock:
            if self.dead is not None:
                raise EngineDied(self.dead, self.hung)
            self.pending[request_id] = future
        stdin = self.popen.stdin
        assert stdin is not None
        try:
            stdin.write(line)
            stdin.flush()
        except (OSError, ValueError):
            with self._lock:
                self.pending.pop(request_id, None)
            # The pipe broke because the process ended: the reader learns how (exit code, stderr).
            self._ended.wait(5)
            raise EngineDied(self.dead or f"the mailrender engine {self.path} closed its input", self.hung) from None
        return future

    def _read_answers(self) -> None:
        stdout = self.popen.stdout
        assert stdout is not None
        reason = "its output ended"
        try:
            for line in stdout:
                if line.strip() == b"":
                    continue
                envelope = parse_envelope(line)
                self.layouts.resolve(envelope)  # False leaves "layout" in: the render asks again
                request_id = envelope.get("id")
                with self._lock:
                    future = self.pending.pop(request_id, None) if isinstance(request_id, int) else None
                    if future is None and self.pending:
                        # No readable id: answers come in request order, so it is the oldest pending one.
                        future = self.pending.pop(next(iter(self.pending)))
                if future is not None:
                    future.set_result(envelope)
        except EngineProtocolError as error:
            reason = str(error)
        except (OSError, ValueError):
            pass
        self._die(reason)

    def _drain_stderr(self) -> None:
        # Read stderr so the engine never blocks on a full pipe; keep the tail for error messages.
        stderr = self.popen.stderr
        assert stderr is not None
        try:
            for line in stderr:
                self._stderr_tail.append(line.decode("utf-8", "replace").rstrip())
        except (OSError, ValueError):
            pass

    def _die(self, reason: str) -> None:
        """The output ended or broke: waits for the exit, then fails every render waiting on it."""
        try:
            code = self.popen.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            code = self.popen.wait()
        self._stderr_reader.join(timeout=1)  # its last words explain the exit
        detail = f"the mailrender engine {self.path} stopped ({reason}; exit code {code})"
        tail = " | ".join(line for line in self._stderr_tail if line)[-500:]
        if tail:
            detail += f": {tail}"
        self._finish(detail)

    def _finish(self, detail: str) -> None:
        with self._lock:
            if self.dead is None:
                self.dead = detail
            waiting = list(self.pending.values())
            self.pending.clear()
        self._ended.set()
        for future in waiting:
            future.set_exception(EngineDied(self.dead, self.hung))

    def stop(self, timeout: float = 2.0) -> None:
        """Closes stdin (the engine answers what it has and exits 0); kills it if it does not."""
        try:
            if self.popen.stdin is not None:
                self.popen.stdin.close()
        except OSError:
            pass
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()
        self._finish(f"the mailrender engine {self.path} was stopped")

    def kill(self, hung: bool = False) -> None:
        """Ends the process now; ``hung``: because a render got no answer in time."""
        if hung:
            self.hung = True  # before the kill: the reader thread's report of the end carries it too
        if self.popen.poll() is None:
            self.popen.kill()
        self.popen.wait()
        self._finish(f"the mailrender engine {self.path} was stopped")


def stop_quietly(process: EngineProcess) -> None:
    with contextlib.suppress(Exception):  # a finalizer at interpreter exit must not raise
        process.stop()
