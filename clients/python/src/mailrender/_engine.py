"""The engine executable: finding it, and one long-lived ``--serve`` process per client.

Design: one writer lock; answers read by one thread at a time. A render writes its request line
(with an ``id``) under the lock and waits on a future. So renders from many threads pipeline through
one process: none waits for another's response before writing, only for the engine's own
one-at-a-time order. A lone render reads its answer on its own thread (see ``_Process``); otherwise a
background reader reads and completes the futures. The engine keeps templates by ``template_ref``: a
template is sent once per process, and again after ``TEMPLATE_REF_UNKNOWN``. After the handshake,
renders ask for output_format "layout": the reading thread joins each answer's values with the
layout's parts kept per process, so a render moves a few hundred bytes, not the whole document. The
async client awaits the same futures from its event loop (``render_async``).

A process that dies (killed, crashed) fails the renders waiting on it; each is retried once on a fresh
process, started transparently. ``close()`` closes stdin, which makes the engine exit 0.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import os
import platform
import select
import subprocess
import sys
import threading
import time
import weakref
from concurrent.futures import Executor, Future
from typing import IO, Any, Deque, Dict, Generator, List, Mapping, Optional, Set

from ._constants import (
    DEFAULT_ENGINE_SPIN_US,
    ENGINE_NAME,
    ENGINE_RESPONSE_TIMEOUT,
    ENV_ENGINE_PATH,
    ENV_ENGINE_SPIN_US,
)
from ._core import CacheEntry, EngineProtocolError, Layouts, RenderRequest, check_handshake, engine_request_line, engine_speaks_layouts, is_ref_unknown, parse_envelope
from ._errors import MailrenderError

_BIN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin")


def engine_platform() -> str:
    """The engine's folder name for this machine, in Node's words (``linux-x64``, ``darwin-arm64``)."""
    system = "linux" if sys.platform.startswith("linux") else sys.platform  # darwin, win32
    machine = platform.machine().lower()
    arch = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(machine, machine)
    return f"{system}-{arch}"


def bundled_engine_path() -> str:
    name = ENGINE_NAME + (".exe" if sys.platform == "win32" else "")
    return os.path.join(_BIN_DIR, engine_platform(), name)


def find_engine(engine_path: Optional[str], env: Mapping[str, str]) -> str:
    """``engine_path=``, else ``MAILRENDER_ENGINE_PATH``, else the binary bundled in the wheel."""
    if engine_path is not None:
        source, path = "engine_path=", engine_path
    elif env.get(ENV_ENGINE_PATH, "").strip() != "":
        source, path = ENV_ENGINE_PATH, env[ENV_ENGINE_PATH].strip()
    else:
        path = bundled_engine_path()
        if not os.path.isfile(path):
            raise MailrenderError(
                "UNKNOWN",
                0,
                f"No mailrender engine for {engine_platform()}: this mailrender install has no bundled engine at {path}. "
                f"Install the platform wheel for this machine (pip install --force-reinstall mailrender), or build the "
                f"engine (make engine in the mailrender repository) and set {ENV_ENGINE_PATH} or engine_path= to it.",
            )
        return path
    if not os.path.isfile(path):
        raise MailrenderError("UNKNOWN", 0, f"The mailrender engine given by {source} does not exist: {path}. Fix the path, or unset it to use the engine bundled with the package.")
    if sys.platform != "win32" and not os.access(path, os.X_OK):
        raise MailrenderError("UNKNOWN", 0, f"The mailrender engine given by {source} is not executable: {path}. Run chmod +x on it.")
    return os.path.abspath(path)


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


class _EngineDied(Exception):
    """The process ended (or broke the protocol) while a render waited: retried once on a new process."""


class _EngineTimedOut(Exception):
    """No answer in time: the process was stopped (the render is not retried)."""


#: Whether a waiting thread can read the engine's answers itself: it must be able to wait for
#: readable output with a deadline, which Windows cannot do on a pipe. Without it, the background
#: reader reads every answer, one thread hand-off more per render.
_CAN_LEAD = hasattr(select, "poll")


def _spin_seconds() -> float:
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
    """The engine's output, line by line; a read can have a deadline and can spin (``_spin_seconds``)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._chunks: List[bytes] = []  # the start of a line whose end has not come yet
        self._rest = b""  # complete lines read ahead, after the last one returned
        self._poll: Optional[Any] = None
        if _CAN_LEAD:
            self._poll = select.poll()
            self._poll.register(fd, select.POLLIN)

    def next(self, deadline: Optional[float], spin: float = 0.0) -> Optional[bytes]:
        """The next line (with its newline); None at the end of the output; _EngineTimedOut past
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
                    raise _EngineTimedOut()
        return os.read(self._fd, _PIPE_BUFFER)  # readable (or no deadline): returns at once or when data comes


class _Process:
    """One ``--serve`` process, its pending renders and the refs it was sent.

    Who reads the output (leads): a lone render's thread reads its own answer when nobody else is
    reading, so it costs one write and one read with no thread in between, and it checks the pipe
    for a moment before it sleeps (``_spin_seconds``). Any answers it meets on the way complete
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
                    raise _EngineTimedOut()
                turn = self.followers[future] = threading.Condition(self.state_lock)
                try:
                    turn.wait(remaining)
                finally:
                    del self.followers[future]
        if not future.done():
            try:
                self._lead(future, deadline, spin)
            except _EngineTimedOut:
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
            future.set_exception(_EngineDied(self.dead))
        return self.dead

    # ------------------------------------------------------------ writing

    def send(self, request_id: int, line: bytes, will_lead: bool) -> "Future[Dict[str, Any]]":
        """Writes one request; the caller holds the runner's writer lock. ``will_lead``: the caller
        will read the answer itself (``wait``); otherwise the background reader is woken for it."""
        future: "Future[Dict[str, Any]]" = Future()
        with self.state_lock:
            if self.dead is not None:
                raise _EngineDied(self.dead)
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
            raise _EngineDied(self.dead or self._die("it closed its input")) from None
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


def _stop_quietly(process: _Process) -> None:
    try:
        process.stop()
    except Exception:  # a finalizer at interpreter exit must not raise
        pass


class _Attempt:
    """One render's way through the protocol: after each answer (or death of the process), whether
    it is final or what the next request must do differently. No I/O, so both drivers share it."""

    def __init__(self, engine_path: Optional[str]) -> None:
        self.engine_path = engine_path
        self.force_template = False
        self.layout_parts = False
        self.restarted = False

    def after_death(self, died: _EngineDied) -> None:
        if self.restarted:
            raise MailrenderError("UNKNOWN", 0, f"Rendering failed because {died}. If this repeats, check that the engine runs on this machine ({process_hint(self.engine_path)}).") from None
        self.restarted = True  # a render is idempotent: once more on a fresh process

    def is_final(self, process: _Process, envelope: Dict[str, Any]) -> bool:
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
        if "layout" in envelope:
            if self.layout_parts:
                raise MailrenderError("UNKNOWN", 0, "The mailrender engine named a layout without sending its parts, even when asked for them")
            self.layout_parts = True  # we dropped this layout's parts: ask for them again
            return False
        return True


def _timed_out(process: _Process) -> MailrenderError:
    process.kill()  # fails every other render waiting on it (each is retried on a new process)
    return MailrenderError("TIMEOUT", 0, f"The mailrender engine gave no answer within {ENGINE_RESPONSE_TIMEOUT:g} s; it was stopped and will be restarted on the next render")


def _awaitable(loop: asyncio.AbstractEventLoop, future: "Future[Dict[str, Any]]") -> "asyncio.Future[Dict[str, Any]]":
    """The reader thread's answer on the event loop. Unlike asyncio.wrap_future, a cancelled or timed
    out await never cancels ``future``, which the reader thread still completes."""
    waiter: "asyncio.Future[Dict[str, Any]]" = loop.create_future()

    def settle(done: "Future[Dict[str, Any]]") -> None:
        if waiter.done():
            return
        error = done.exception()
        if error is None:
            waiter.set_result(done.result())
        else:
            waiter.set_exception(error)

    def on_done(done: "Future[Dict[str, Any]]") -> None:
        try:
            loop.call_soon_threadsafe(settle, done)
        except RuntimeError:
            pass  # the loop is closed: nobody waits any more

    future.add_done_callback(on_done)
    return waiter


class EngineRunner:
    """Renders through one lazily started, transparently restarted ``--serve`` process."""

    def __init__(self, engine_path: Optional[str], env: Mapping[str, str]) -> None:
        self._configured = engine_path
        self._env = dict(env)
        self._path: Optional[str] = None
        self._process: Optional[_Process] = None
        self._write_lock = threading.Lock()
        self._next_id = 0
        self._spin = _spin_seconds()
        self._active_lock = threading.Lock()
        self._active = 0  # renders in progress, sync and async
        self._closed = False
        self._finalizer: "Optional[weakref.finalize[[_Process], EngineRunner]]" = None

    @property
    def pid(self) -> Optional[int]:
        """The engine process id, or None before the first render (tests kill it through this)."""
        process = self._process
        return None if process is None or process.dead is not None else process.popen.pid

    def _current(self) -> _Process:
        # Called with the write lock held.
        if self._closed:
            raise RuntimeError("mailrender: the client is closed")
        process = self._process
        if process is None or process.dead is not None or process.popen.poll() is not None:
            if process is not None:
                process.kill()
            if self._path is None:
                self._path = find_engine(self._configured, self._env)
            process = _Process(self._path)
            self._process = process
            if self._finalizer is not None:
                self._finalizer.detach()
            # A client dropped without close() still ends its engine process.
            self._finalizer = weakref.finalize(self, _stop_quietly, process)
        return process

    def _send(self, entry: CacheEntry, request: RenderRequest, attempt: "_Attempt", will_lead: bool) -> "tuple[_Process, Future[Dict[str, Any]]]":
        with self._write_lock:
            process = self._current()
            self._next_id += 1
            include = attempt.force_template or entry.ref not in process.refs
            line = engine_request_line(self._next_id, entry, request, include, process.speaks_layouts, attempt.layout_parts)
            future = process.send(self._next_id, line, will_lead)
            # Marked at write time: the engine reads in order, so a later ref-only line finds it kept.
            process.refs.add(entry.ref)
            return process, future

    @contextlib.contextmanager
    def _rendering(self) -> Generator[None, None, None]:
        with self._active_lock:
            self._active += 1
        try:
            yield
        finally:
            with self._active_lock:
                self._active -= 1

    def render(self, entry: CacheEntry, request: RenderRequest) -> Dict[str, Any]:
        """The engine's envelope for one render (ok or not); MailrenderError when the engine fails."""
        attempt = _Attempt(self._path)
        with self._rendering():
            while True:
                try:
                    # A lone render reads its own answer, spinning first (see _Process). With others in
                    # progress the background reader reads: spinning would hold the GIL they need, and a
                    # thread reading for the others would delay its own caller.
                    lone = self._active == 1
                    process, future = self._send(entry, request, attempt, will_lead=lone)
                    try:
                        envelope = process.wait(future, time.monotonic() + ENGINE_RESPONSE_TIMEOUT, lone, self._spin)
                    except _EngineTimedOut:
                        raise _timed_out(process) from None
                except _EngineDied as died:
                    attempt.after_death(died)
                    continue
                if attempt.is_final(process, envelope):
                    return envelope

    async def render_async(self, entry: CacheEntry, request: RenderRequest, executor: Executor) -> Dict[str, Any]:
        """``render`` on an event loop: the request is written in ``executor`` (a write may wait for a
        full pipe) and no thread waits for the answer, so any number of renders can be in flight."""
        loop = asyncio.get_running_loop()
        attempt = _Attempt(self._path)
        with self._rendering():
            while True:
                try:
                    process, future = await loop.run_in_executor(executor, self._send, entry, request, attempt, False)
                    try:
                        envelope = await asyncio.wait_for(_awaitable(loop, future), ENGINE_RESPONSE_TIMEOUT)
                    except asyncio.TimeoutError:
                        raise _timed_out(process) from None
                except _EngineDied as died:
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
