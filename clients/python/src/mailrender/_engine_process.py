"""One ``mailrender-engine --serve`` process: writing requests, reading answers, its end.

Answers are read by one thread at a time (see ``EngineProcess``): a lone render's own thread, which checks
the pipe for a moment before it sleeps, or the background reader. ``EngineRunner`` (``_engine``)
decides which, and retries.
"""
from __future__ import annotations

import collections
import os
import select
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from typing import IO, Any, Deque, Dict, List, Optional, Set

from ._constants import DEFAULT_ENGINE_SPIN_US, ENV_ENGINE_SPIN_US
from ._core import EngineProtocolError, Layouts, parse_envelope
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
    """The process ended (or broke the protocol) while a render waited: retried once on a new process."""


class EngineTimedOut(Exception):
    """No answer in time: the process was stopped (the render is not retried)."""


#: Whether a waiting thread can read the engine's answers itself: it must be able to wait for
#: readable output with a deadline, which Windows cannot do on a pipe. Without it, the background
#: reader reads every answer, one thread hand-off more per render.
_CAN_LEAD = hasattr(select, "poll")


def spin_seconds() -> float:
    """How long a thread waiting for its answer keeps checking for it before it sleeps.

    Sleeping costs a wake-up on each side of the pipe when the answer comes (tens of microseconds
    each on a virtual machine, more than the engine's work for a cached template), and the engine
    usually answers within ~0.1 ms. So the waiting thread polls the pipe without blocking for up to
    0.2 ms first: at most that much CPU per render, spent while the caller waits anyway; a longer
    render then waits asleep. Never on one CPU, where spinning would only delay the engine.
    ``MAILRENDER_ENGINE_SPIN_US`` overrides it (0 turns it off).
    """
    configured = os.environ.get(ENV_ENGINE_SPIN_US, "").strip()
    if configured:
        try:
            return max(0.0, float(configured)) / 1e6
        except ValueError:
            pass
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return DEFAULT_ENGINE_SPIN_US / 1e6 if cpus > 1 else 0.0


class _Lines:
    """The engine's output, line by line; a read can have a deadline and can spin (``spin_seconds``)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._chunks: List[bytes] = []  # the start of a line whose end has not come yet
        self._rest = b""  # complete lines read ahead, after the last one returned
        self._poll: Optional[Any] = None
        if _CAN_LEAD:
            self._poll = select.poll()
            self._poll.register(fd, select.POLLIN)

    def next(self, deadline: Optional[float], spin: float = 0.0) -> Optional[bytes]:
        """The next line (with its newline); None at the end of the output; EngineTimedOut past
        ``deadline`` (a ``time.monotonic()``; None waits as long as it takes)."""
        while True:
            end = self._rest.find(b"\n")
            if end >= 0:
                line, self._rest = self._rest[: end + 1], self._rest[end + 1 :]
                if self._chunks:
                    self._chunks.append(line)
                    line = b"".join(self._chunks)
                    self._chunks = []
                return line
            if self._rest:
                self._chunks.append(self._rest)
            self._rest = self._read(deadline, spin)
            if not self._rest:
                return None

    def _read(self, deadline: Optional[float], spin: float) -> bytes:
        poll = self._poll
        if deadline is not None and poll is not None:
            ready = False
            if spin > 0:
                spin_until = time.perf_counter() + spin
                while not ready and time.perf_counter() < spin_until:
                    ready = bool(poll.poll(0))
            if not ready:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not poll.poll(remaining * 1000):
                    raise EngineTimedOut()
        return os.read(self._fd, _PIPE_BUFFER)  # readable (or no deadline): returns at once or when data comes


class EngineProcess:
    """One ``--serve`` process, its pending renders and the refs it was sent.

    Who reads the output (leads): a lone render's thread reads its own answer when nobody else is
    reading, so it costs one write and one read with no thread in between, and it checks the pipe
    for a moment before it sleeps (``spin_seconds``). Any answers it meets on the way complete
    their renders' futures. Otherwise, and when that thread is done while answers are still due, the
    background reader leads: for async renders and for renders from several threads at once, whose
    threads just wait for their own answers (each woken alone). It keeps the lead until a lone
    render asks for it and no answer is due.
    """

    def __init__(self, path: str) -> None:
        self.path = path
        try:
            self.popen = subprocess.Popen(
                [path, "--serve"],
                bufsize=_PIPE_BUFFER,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                close_fds=True,
            )
        except OSError as error:
            raise MailrenderError("UNKNOWN", 0, f"Could not start the mailrender engine {path}: {error}. Check that it is the engine for {engine_platform()}.") from None
        assert self.popen.stdout is not None
        _widen_pipe(self.popen.stdout)
        self.lines = _Lines(self.popen.stdout.fileno())  # read only by the thread that leads
        self.pending: Dict[int, "Future[Dict[str, Any]]"] = {}
        self.refs: Set[str] = set()
        self.dead: Optional[str] = None
        self.handshake_done = False
        #: Set by the handshake: ask for output_format "layout" (values only, once the parts are here).
        self.speaks_layouts = False
        self.layouts = Layouts()  # only the leading thread touches it: answers are resolved in order
        self.stderr_tail: Deque[str] = collections.deque(maxlen=20)
        self.state_lock = threading.Lock()
        self.leading = False  # a thread is reading the output
        self.lead_wanted = False  # a lone render waits for the background reader to leave the lead
        #: Threads waiting for an answer while another leads, each woken alone when its answer
        #: comes (or the process ends).
        self.followers: "Dict[Future[Dict[str, Any]], threading.Condition]" = {}
        self.reader_turn = threading.Condition(self.state_lock)  # async answers are due and nobody reads
        self.reader = threading.Thread(target=self._read_for_async, name="mailrender-engine-reader", daemon=True)
        self.stderr_reader = threading.Thread(target=self._drain_stderr, name="mailrender-engine-stderr", daemon=True)
        self.stderr_reader.start()  # first: the process's end waits for its last words
        self.reader.start()

    # ------------------------------------------------------------ reading (whoever leads)

    def _lead(self, until: "Optional[Future[Dict[str, Any]]]", deadline: Optional[float], spin: float = 0.0, background: bool = False) -> None:
        """Reads answers until ``until`` is done; with None, until the output ends, or for the
        ``background`` reader, until a lone render wants the lead and no answer is due. The caller
        holds the lead. Ends the process's life here when its output ends or breaks."""
        while True:
            if until is not None and until.done():
                return
            if background:
                with self.state_lock:
                    if self.dead is not None or (self.lead_wanted and not self.pending):
                        return
            try:
                line = self.lines.next(deadline, spin)
            except OSError:
                line = None
            if line is None:
                self._die("its output ended")
                return
            if line.strip() == b"":
                continue
            try:
                envelope = parse_envelope(line)
                self.layouts.resolve(envelope)  # False leaves "layout" in: the render asks again
            except EngineProtocolError as error:
                self._die(str(error))
                return
            request_id = envelope.get("id")
            with self.state_lock:
                future = self.pending.pop(request_id, None) if isinstance(request_id, int) else None
                if future is None and self.pending:
                    # No readable id: responses come in request order, so it is the oldest pending one.
                    future = self.pending.pop(next(iter(self.pending)))
                if future is not None:
                    future.set_result(envelope)
                    follower = self.followers.get(future)
                    if follower is not None:
                        follower.notify()

    def _hand_over(self) -> None:
        """Gives up the lead; the background reader takes it if answers are still due."""
        with self.state_lock:
            self.leading = False
            if self.pending or self.dead is not None:
                self.reader_turn.notify()

    def wait(self, future: "Future[Dict[str, Any]]", deadline: float, lead: bool, spin: float) -> Dict[str, Any]:
        """A blocking render's answer. With ``lead`` (a lone render), read it itself if nobody else
        is reading, checking for it for ``spin`` seconds before sleeping; otherwise the thread that
        leads hands it over."""
        with self.state_lock:
            while not future.done():
                if lead and _CAN_LEAD and self.dead is None:
                    if not self.leading:
                        self.leading = True
                        break
                    self.lead_wanted = True  # the background reader leaves once no answer is due
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise EngineTimedOut()
                turn = self.followers[future] = threading.Condition(self.state_lock)
                try:
                    turn.wait(remaining)
                finally:
                    del self.followers[future]
        if not future.done():
            try:
                self._lead(future, deadline, spin)
            except EngineTimedOut:
                self.popen.kill()
                self._lead(None, None)  # to the end of the output: every waiting render learns why
                raise
            finally:
                self._hand_over()
        return future.result(timeout=0)

    def _read_for_async(self) -> None:
        while True:
            with self.state_lock:
                while self.dead is None and (self.leading or not self.pending):
                    self.reader_turn.wait()
                if self.dead is not None:
                    return
                self.leading = True
                self.lead_wanted = False
            try:
                # It keeps reading while idle, blocked on the pipe like a dedicated reader, until a
                # lone render wants the lead: renders from several threads then pay no hand-off
                # each time the answers due drop to none.
                self._lead(None, None, background=True)
            finally:
                self._hand_over()

    def _drain_stderr(self) -> None:
        # Read stderr so the engine never blocks on a full pipe; keep the tail for error messages.
        stderr = self.popen.stderr
        assert stderr is not None
        try:
            for line in stderr:
                self.stderr_tail.append(line.decode("utf-8", "replace").rstrip())
        except (OSError, ValueError):
            pass

    # ------------------------------------------------------------ the end of the process

    def _die(self, reason: str) -> str:
        """The process ended (or must): waits for its exit, then fails every render waiting on it."""
        try:
            code = self.popen.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            code = self.popen.wait()
        self.stderr_reader.join(timeout=1)  # its last words explain the exit
        detail = f"the mailrender engine {self.path} stopped ({reason}; exit code {code})"
        tail = " | ".join(line for line in self.stderr_tail if line)[-500:]
        if tail:
            detail += f": {tail}"
        return self._finish(detail)

    def _finish(self, detail: str) -> str:
        with self.state_lock:
            if self.dead is None:
                self.dead = detail
            waiting = list(self.pending.values())
            self.pending.clear()
            for turn in self.followers.values():
                turn.notify()
            self.reader_turn.notify_all()  # the background reader ends
        for future in waiting:
            future.set_exception(EngineDied(self.dead))
        return self.dead

    # ------------------------------------------------------------ writing

    def send(self, request_id: int, line: bytes, will_lead: bool) -> "Future[Dict[str, Any]]":
        """Writes one request; the caller holds the runner's writer lock. ``will_lead``: the caller
        will read the answer itself (``wait``); otherwise the background reader is woken for it."""
        future: "Future[Dict[str, Any]]" = Future()
        with self.state_lock:
            if self.dead is not None:
                raise EngineDied(self.dead)
            self.pending[request_id] = future
            if not (will_lead and _CAN_LEAD) and not self.leading:
                self.reader_turn.notify()
        stdin = self.popen.stdin
        assert stdin is not None
        try:
            stdin.write(line)
            stdin.flush()
        except (OSError, ValueError):
            with self.state_lock:
                self.pending.pop(request_id, None)
            # The pipe broke because the process ended: say how (exit code, stderr).
            raise EngineDied(self.dead or self._die("it closed its input")) from None
        return future

    def stop(self, timeout: float = 2.0) -> None:
        """Closes stdin (the engine answers what it has and exits 0); kills it if it does not."""
        stdin: Optional[IO[bytes]] = self.popen.stdin
        try:
            if stdin is not None:
                stdin.close()
        except OSError:
            pass
        try:
            self.popen.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.popen.kill()
            self.popen.wait()
        self._finish(f"the mailrender engine {self.path} was stopped")

    def kill(self) -> None:
        if self.popen.poll() is None:
            self.popen.kill()
        self.popen.wait()
        self._finish(f"the mailrender engine {self.path} was stopped")


def stop_quietly(process: EngineProcess) -> None:
    try:
        process.stop()
    except Exception:  # a finalizer at interpreter exit must not raise
        pass
