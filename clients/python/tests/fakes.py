"""Fakes for faults the real service and engine cannot produce on demand, and nothing else.

- ScriptedServer: answers the template fetch with a scripted list of statuses (a 5xx sequence), or
  accepts connections and never answers (a timeout).
- write_fake_engine: an executable that answers every line with a protocol-2 envelope (a wrong engine).
- write_engine_without_saved_layouts: the real engine behind a filter that refuses the saved-layout
  keys as an engine that predates them does (an unknown key), logging each request's keys.
"""

from __future__ import annotations

import os
import socket
import stat
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Optional

Reply = tuple[int, dict[str, str], bytes]


class ScriptedServer:
    """Serves ``replies`` in order (the last one repeats); records each request's path."""

    def __init__(self, replies: list[Reply]) -> None:
        self.replies = replies
        self.paths: list[str] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:
                outer.paths.append(self.path)
                status, headers, body = outer.replies[min(len(outer.paths) - 1, len(outer.replies) - 1)]
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("content-length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


class SilentServer:
    """Accepts connections and reads, but never answers: every request times out."""

    def __init__(self) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.bind(("127.0.0.1", 0))
        self.sock.listen(16)
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.accepted = 0
        self.conns: list[socket.socket] = []
        self._stop = False
        threading.Thread(target=self._accept, daemon=True).start()

    def _accept(self) -> None:
        while not self._stop:
            try:
                conn, _ = self.sock.accept()
            except OSError:
                return
            self.accepted += 1
            self.conns.append(conn)

    def close(self) -> None:
        self._stop = True
        self.sock.close()
        for conn in self.conns:
            conn.close()


def write_fake_engine(
    directory: Path, protocol_version: int = 2, engine_version: str = "2.0.0", reply: Optional[str] = None
) -> str:
    """A stand-in 'engine' that speaks another protocol version: the handshake must refuse it."""
    body = (
        reply
        if reply is not None
        else (
            '{"ok": true, "output": "x", "target": "html", "template_id": "t", "warnings": [], '
            f'"engine_version": "{engine_version}", "protocol_version": {protocol_version}}}'
        )
    )
    path = directory / "fake-engine"
    path.write_text(
        f"#!{sys.executable}\n"
        "import sys\n"
        "for line in sys.stdin:\n"
        f"    sys.stdout.write({body!r} + '\\n')\n"
        "    sys.stdout.flush()\n",
        encoding="utf-8",
    )
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return str(path)


def write_engine_without_saved_layouts(directory: Path, engine: Path) -> tuple[str, Path]:
    """The real engine's ``--serve``, except that a request with ``saved_layout`` or ``save_layout`` gets
    the BAD_REQUEST an engine older than saved layouts gives for an unknown key (its versions are the
    real engine's). Returns the executable and the log it writes: one line of request keys per request."""
    log = directory / "requests.log"
    path = directory / "engine-without-saved-layouts"
    path.write_text(
        f"""#!{sys.executable}
import json, subprocess, sys
engine = subprocess.Popen([{str(engine)!r}, *sys.argv[1:]], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
log = open({str(log)!r}, "a")
for line in sys.stdin:
    request = json.loads(line)
    log.write(" ".join(sorted(request)) + "\\n")
    log.flush()
    unknown = [key for key in ("saved_layout", "save_layout") if key in request]
    for key in unknown:
        del request[key]
    engine.stdin.write(json.dumps(request).encode() + b"\\n")
    engine.stdin.flush()
    answer = engine.stdout.readline()
    if unknown:
        real = json.loads(answer)
        issues = [{{"loc": [key], "msg": f"Unknown key \\"{{key}}\\"", "type": "unrecognized_key"}} for key in unknown]
        error = {{"code": "BAD_REQUEST", "message": "The request is malformed", "issues": issues}}
        answer = json.dumps({{"id": real["id"], "ok": False, "error": error, "engine_version": real["engine_version"],
                             "protocol_version": real["protocol_version"]}}).encode() + b"\\n"
    sys.stdout.buffer.write(answer)
    sys.stdout.flush()
""",
        encoding="utf-8",
    )
    os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
    return str(path), log


def engine_children() -> list[int]:
    """Pids of this process's live child processes running the mailrender engine (Linux /proc)."""
    me = os.getpid()
    found: list[int] = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rsplit(b")", 1)[1].split()
            state, ppid = fields[0], int(fields[1])
            if ppid != me or state == b"Z":
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                argv = f.read().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue
        if argv and argv[0].endswith(b"mailrender-engine"):
            found.append(int(entry))
    return found
