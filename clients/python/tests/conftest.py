"""Shared test scaffolding: the real service on a free port, the real engine executable.

The service is started the way a deployment starts it (``node server/lib/cli.js serve`` with a temp
SQLite file and a bootstrap admin key from ``MAILRENDER_ADMIN_KEY``); keys and templates are created
through its admin API. Only faults the real parts cannot produce on demand (a 5xx, a silent server, a
wrong engine) use small fakes, in ``fakes.py``.
"""

from __future__ import annotations

import copy
import json
import os
import secrets
import socket
import subprocess
import sys
import tempfile
import time
import zlib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, Optional

import httpx
import pytest

HERE = Path(__file__).resolve().parent
PYTHON_ROOT = HERE.parent
REPO = PYTHON_ROOT.parent.parent
FIXTURES = REPO / "fixtures"
sys.path.insert(0, str(PYTHON_ROOT / "src"))

from mailrender._engine_discovery import engine_platform  # noqa: E402

ENGINE = REPO / "engine" / "dist" / engine_platform() / "mailrender-engine"
SERVER_CLI = REPO / "server" / "lib" / "cli.js"
SERVER_START_TIMEOUT = 60


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def sample_template(name: str = "Sample", heading: str = "Hi {{first_name|'there'}}") -> dict[str, Any]:
    """A small valid template with one merge tag (server/test/helpers/templates.ts)."""
    return {
        "template_id": "sample",
        "template_name": name,
        "schema_version": "1.0",
        "canvas": {},
        "rows": [
            {
                "id": "r1",
                "type": "row",
                "columns": [
                    {
                        "id": "c1",
                        "width": 100,
                        "children": [
                            {
                                "id": "h1",
                                "type": "component",
                                "componentType": "heading",
                                "props": {"content": heading},
                            },
                            {
                                "id": "p1",
                                "type": "component",
                                "componentType": "paragraph",
                                "props": {"content": "<p>Body text</p>"},
                            },
                        ],
                    }
                ],
            }
        ],
    }


class Server:
    """One real mailrender service process."""

    def __init__(self, tmp: Path, extra_env: Optional[dict[str, str]] = None) -> None:
        self.tmp = tmp
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.admin_key = "sk_live_" + secrets.token_hex(32)
        self.env = {
            **os.environ,
            "PORT": str(self.port),
            "HOST": "127.0.0.1",
            "MAILRENDER_SQLITE_PATH": str(tmp / "mailrender.db"),
            "MAILRENDER_ADMIN_KEY": self.admin_key,
            "MAILRENDER_CACHE_TTL_MS": "0",  # changes through the admin API are seen at once
            "MAILRENDER_RATE_LIMIT_MAX": "0",
            "LOG_LEVEL": "warn",
            **(extra_env or {}),
        }
        self.env.pop("DATABASE_URL", None)
        self.proc: Optional[subprocess.Popen[bytes]] = None
        self.log = tmp / "server.log"
        self.start()

    def start(self) -> None:
        with open(self.log, "ab") as log:
            self.proc = subprocess.Popen(
                ["node", str(SERVER_CLI), "serve"],
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
                cwd=str(self.tmp),
            )
        # A bound for a broken start, not a speed check: on a 2-core machine shared by several busy
        # builds, a healthy start has taken over 20 s.
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited {self.proc.returncode}: {self.log.read_text()[-2000:]}")
            try:
                if httpx.get(self.url + "/healthz", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            time.sleep(0.05)
        raise RuntimeError(f"server did not become healthy within {SERVER_START_TIMEOUT} s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def restart(self, extra_env: dict[str, str]) -> None:
        """Same database and port, new settings (e.g. a rate limit, set after the admin calls it would hit)."""
        self.stop()
        self.env.update(extra_env)
        self.start()

    def admin(self, method: str, path: str, body: Any = None) -> httpx.Response:
        headers = {"authorization": f"Bearer {self.admin_key}"}
        return httpx.request(method, self.url + path, headers=headers, json=body, timeout=10)

    def create_key(self, targets: Sequence[str] = ("all",), name: str = "test") -> dict[str, Any]:
        res = self.admin("POST", "/api/v1/keys", {"name": name, "targets": list(targets)})
        assert res.status_code == 201, res.text
        return res.json()

    def create_template(self, template: Optional[dict[str, Any]] = None) -> str:
        # Without its template_id: the fixtures' ids are not UUIDs, which the service refuses.
        body = copy.deepcopy(template) if template is not None else sample_template()
        body.pop("template_id", None)
        res = self.admin("POST", "/api/v1/templates", body)
        assert res.status_code == 201, res.text
        return str(res.json()["id"])

    def replace_template(self, template_id: str, template: dict[str, Any]) -> None:
        res = self.admin(
            "PUT", f"/api/v1/templates/{template_id}", {k: v for k, v in template.items() if k != "template_id"}
        )
        assert res.status_code == 200, res.text

    def delete_template(self, template_id: str) -> None:
        assert self.admin("DELETE", f"/api/v1/templates/{template_id}").status_code == 204


@pytest.fixture(scope="session", autouse=True)
def engine_env() -> Iterator[None]:
    """Every client in the tests finds the repository's engine through MAILRENDER_ENGINE_PATH."""
    assert ENGINE.is_file(), f"build the engine first: make -C {REPO} engine ({ENGINE} is missing)"
    assert SERVER_CLI.is_file(), (
        f"build the server first: npm run build -w @mailrender/server ({SERVER_CLI} is missing)"
    )
    old = os.environ.get("MAILRENDER_ENGINE_PATH")
    os.environ["MAILRENDER_ENGINE_PATH"] = str(ENGINE)
    os.environ.pop("MAILRENDER_API_KEY", None)
    os.environ.pop("MAILRENDER_BASE_URL", None)
    yield
    if old is None:
        os.environ.pop("MAILRENDER_ENGINE_PATH", None)
    else:
        os.environ["MAILRENDER_ENGINE_PATH"] = old


@pytest.fixture(scope="session")
def server() -> Iterator[Server]:
    with tempfile.TemporaryDirectory(prefix="mailrender-py-") as tmp:
        srv = Server(Path(tmp))
        yield srv
        srv.stop()


@pytest.fixture()
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server this test may stop (stale-on-error) without disturbing the others."""
    srv = Server(tmp_path)
    yield srv
    srv.stop()


@pytest.fixture(scope="session")
def render_key(server: Server) -> str:
    return str(server.create_key(["all"])["key"])


@pytest.fixture(scope="session")
def template_id(server: Server) -> str:
    return server.create_template()


@pytest.fixture()
def anyio_backend() -> str:
    return "asyncio"


class RequestLog:
    """Counts the requests a client really sent, through httpx's event hooks on an injected client."""

    def __init__(self) -> None:
        self.requests: list[httpx.Request] = []
        self.statuses: list[int] = []

    def on_request(self, request: httpx.Request) -> None:
        self.requests.append(request)

    def on_response(self, response: httpx.Response) -> None:
        self.statuses.append(response.status_code)

    async def aon_request(self, request: httpx.Request) -> None:
        self.on_request(request)

    async def aon_response(self, response: httpx.Response) -> None:
        self.on_response(response)

    @property
    def count(self) -> int:
        return len(self.requests)

    def sync_client(self) -> httpx.Client:
        return httpx.Client(event_hooks={"request": [self.on_request], "response": [self.on_response]})

    def async_client(self) -> httpx.AsyncClient:
        return httpx.AsyncClient(event_hooks={"request": [self.aon_request], "response": [self.aon_response]})


def load_case(kind: str, name: str) -> dict[str, Any]:
    return json.loads((FIXTURES / kind / name / "case.json").read_text(encoding="utf-8"))


def run_disk_worker(base_url: str, api_key: str, cache_dir: str, ttl: float, *template_ids: str) -> dict[str, Any]:
    """Runs tests/disk_worker.py in another Python process (the real second process of a shared cache)."""
    env = {
        **os.environ,
        "MAILRENDER_API_KEY": api_key,
        "PYTHONPATH": os.pathsep.join([str(PYTHON_ROOT / "src"), str(HERE)]),
    }
    done = subprocess.run(
        [sys.executable, str(HERE / "disk_worker.py"), base_url, cache_dir, str(ttl), *template_ids],
        env=env,
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr.decode()
    return json.loads(done.stdout)


def start_disk_worker(
    base_url: str, api_key: str, cache_dir: str, ttl: float, *template_ids: str
) -> subprocess.Popen[bytes]:
    env = {
        **os.environ,
        "MAILRENDER_API_KEY": api_key,
        "PYTHONPATH": os.pathsep.join([str(PYTHON_ROOT / "src"), str(HERE)]),
    }
    return subprocess.Popen(
        [sys.executable, str(HERE / "disk_worker.py"), base_url, cache_dir, str(ttl), *template_ids],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )


def resigned_layout(layout: str, old: str, new: str) -> str:
    """A saved layout with ``old`` replaced by ``new`` in its body and signed again, as only someone who
    can write the cache folder and knows the format could: a render that shows ``new`` used it."""
    header, body = layout.split("\n", 1)
    assert header.startswith("mailrender-layout ") and old in body
    marked = body.replace(old, new)
    return f"mailrender-layout {zlib.crc32(marked.encode('utf-8')):08x}\n{marked}"


def assert_saved_layouts_refused_once(requests: Path, renders: int) -> None:
    """The request log of ``write_engine_without_saved_layouts``: the first render carried the keys and
    was refused, then it and every later render went without them."""
    keys = [line.split() for line in requests.read_text(encoding="utf-8").splitlines()]
    assert {"save_layout", "saved_layout", "template"} <= set(keys[0])
    assert [k for k in keys[1:] if "save_layout" in k or "saved_layout" in k] == []
    assert len(keys) == renders + 1


def files_with_layouts(template_ids: Sequence[str], layouts: Sequence[str]) -> list[str]:
    """A disk cache's files, sorted: each template's entry and its saved layouts (``html``, ``mjml-unminified``)."""
    return sorted(f"{tid}{suffix}" for tid in template_ids for suffix in (".json", *(f".{x}.layout" for x in layouts)))
