"""The engine runner with the real executable: template_ref reuse and resend, pipelining, discovery."""

from __future__ import annotations

import asyncio
import os
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import mailrender._engine as engine_module
import mailrender._engine_discovery as discovery_module
import pytest
from conftest import ENGINE, load_case
from fakes import engine_children, write_fake_engine
from mailrender import MailrenderError
from mailrender._core.entry import CacheEntry
from mailrender._core.layouts import Layouts
from mailrender._core.protocol import result_from_envelope
from mailrender._core.render_request import check_render_request
from mailrender._engine import EngineRunner
from mailrender._engine_discovery import bundled_engine_path, engine_platform, find_engine
from mailrender._engine_process import EngineDied


@pytest.fixture()
def runner() -> Iterator[EngineRunner]:
    r = EngineRunner(str(ENGINE), {})
    yield r
    r.close()


def newsletter() -> dict[str, Any]:
    return load_case("render", "realistic-newsletter")


def test_template_sent_once_then_by_ref_and_resent_when_unknown(
    runner: EngineRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    case = newsletter()
    entry = CacheEntry(template_id="nl", template=case["template"], etag='"v1"', fetched_at_ms=0, scope=None)
    request = check_render_request("nl", "html", case["dynamic_data"])
    lines: list[bytes] = []
    real = engine_module.engine_request_line

    def spy(*args: Any, **kwargs: Any) -> bytes:
        line = real(*args, **kwargs)
        lines.append(line)
        return line

    monkeypatch.setattr(engine_module, "engine_request_line", spy)
    first = runner.render(entry, request)
    second = runner.render(entry, request)
    assert first["output"] == second["output"]
    assert b'"template"' in lines[0] and b'"template"' not in lines[1]
    # A ref the process never saw (as after eviction): TEMPLATE_REF_UNKNOWN, then the full template.
    unseen = CacheEntry(template_id="nl", template=case["template"], etag='"v2"', fetched_at_ms=0, scope=None)
    runner._process.refs.add(unseen.ref)  # pyright: ignore[reportPrivateUsage, reportOptionalMemberAccess]
    third = runner.render(unseen, request)
    assert third["ok"] is True and third["output"] == first["output"]
    assert b'"template"' not in lines[2] and b'"template"' in lines[3]


@pytest.fixture()
def sent_lines(monkeypatch: pytest.MonkeyPatch) -> list[bytes]:
    lines: list[bytes] = []
    real = engine_module.engine_request_line

    def spy(*args: Any, **kwargs: Any) -> bytes:
        line = real(*args, **kwargs)
        lines.append(line)
        return line

    monkeypatch.setattr(engine_module, "engine_request_line", spy)
    return lines


def test_after_the_handshake_renders_ask_for_layouts_and_get_the_same_output(
    runner: EngineRunner, sent_lines: list[bytes]
) -> None:
    case = newsletter()
    entry = CacheEntry(template_id="nl", template=case["template"], etag='"v1"', fetched_at_ms=0, scope=None)
    outputs: list[str] = []
    for name in ("Ada", "Grace", "Ada"):
        data = {
            **case["dynamic_data"],
            "merge_tags": {**case["dynamic_data"]["merge_tags"], "text": {"first_name": name}},
        }
        outputs.append(runner.render(entry, check_render_request("nl", "html", data))["output"])
    # The first line goes before the handshake says the engine speaks layouts; the rest ask for them.
    assert b'"output_format"' not in sent_lines[0]
    assert all(b'"output_format":"layout"' in line for line in sent_lines[1:])
    assert outputs[0] == outputs[2] and "Grace" in outputs[1] and outputs[1].replace("Grace", "Ada") == outputs[0]
    assert len(runner._process.layouts) == 1  # pyright: ignore[reportPrivateUsage, reportOptionalMemberAccess]


def test_a_dropped_layout_is_asked_for_again(runner: EngineRunner, sent_lines: list[bytes]) -> None:
    case = newsletter()
    entry = CacheEntry(template_id="nl", template=case["template"], etag='"v1"', fetched_at_ms=0, scope=None)
    html, mjml = (check_render_request("nl", target, case["dynamic_data"]) for target in ("html", "mjml"))
    first = runner.render(entry, html)["output"]
    runner._process.layouts = Layouts(max_entries=1)  # pyright: ignore[reportPrivateUsage, reportOptionalMemberAccess]
    assert runner.render(entry, html)["output"] == first
    runner.render(entry, mjml)  # drops the html layout
    assert runner.render(entry, html)["output"] == first
    assert b'"layout_parts":true' in sent_lines[-1] and b'"layout_parts"' not in b"".join(sent_lines[:-1])


def test_an_engine_before_2_is_refused_before_it_is_asked_anything(tmp_path: Path) -> None:
    # Engines before 1.1 did not know output_format "layout"; this client needs engine 2.x, which all
    # do, and refuses an older one at the handshake, so none is ever asked for layouts.
    fake = tmp_path / "engine-1.0"
    fake.write_text(
        f"#!{sys.executable}\n"
        "import json, sys\n"
        "for line in sys.stdin:\n"
        "    output = 'asked for layouts' if 'output_format' in line else 'whole'\n"
        "    print(json.dumps({'ok': True, 'output': output, 'target': 'html', 'template_id': 't', 'warnings': [],\n"
        "                      'engine_version': '1.0.0', 'protocol_version': 1}), flush=True)\n",
        encoding="utf-8",
    )
    fake.chmod(0o755)
    r = EngineRunner(str(fake), {})
    try:
        entry = CacheEntry(template_id="t", template={}, etag=None, fetched_at_ms=0, scope=None)
        with pytest.raises(MailrenderError) as caught:
            r.render(entry, check_render_request("t", "html", None))
        assert "engine '1.0.0'" in caught.value.message and "needs engine 2.x" in caught.value.message
    finally:
        r.close()


def test_many_threads_pipeline_through_one_process(runner: EngineRunner) -> None:
    case = newsletter()
    entry = CacheEntry(template_id="nl", template=case["template"], etag='"v1"', fetched_at_ms=0, scope=None)
    outputs: dict[int, str] = {}

    def work(i: int) -> None:
        data = {
            "merge_tags": {"text": {"first_name": f"Reader{i}"}},
            "context": case["dynamic_data"].get("context", {}),
        }
        request = check_render_request("nl", "html", data)
        outputs[i] = result_from_envelope(runner.render(entry, request), request, False).output

    threads = [threading.Thread(target=work, args=(i,)) for i in range(24)]
    started = time.monotonic()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # Well under the answer timeout (60 s): a thread left waiting with nobody reading would show here.
    assert time.monotonic() - started < 20
    assert len(outputs) == 24 and len(engine_children()) == 1
    for i, out in outputs.items():
        assert f"Reader{i}," in out or f"Reader{i}<" in out or f"Reader{i} " in out


def test_renders_waiting_on_a_killed_engine_are_retried(runner: EngineRunner) -> None:
    case = newsletter()
    entry = CacheEntry(template_id="nl", template=case["template"], etag='"v1"', fetched_at_ms=0, scope=None)
    request = check_render_request("nl", "html", case["dynamic_data"])
    runner.render(entry, request)
    results: list[bool] = []

    def work() -> None:
        results.append(runner.render(entry, request)["ok"])

    threads = [threading.Thread(target=work) for _ in range(16)]
    for t in threads:
        t.start()
    pid = runner.pid
    assert pid is not None
    os.kill(pid, 9)
    for t in threads:
        t.join()
    assert results == [True] * 16


def test_engine_that_exits_at_once_gives_a_clear_error(tmp_path: Path) -> None:
    crash = write_fake_engine(tmp_path, reply="")
    Path(crash).write_text("#!/bin/sh\necho 'boom: cannot start' >&2\nexit 3\n", encoding="utf-8")
    r = EngineRunner(crash, {})
    try:
        with pytest.raises(MailrenderError) as caught:
            r.render(
                CacheEntry(template_id="t", template={}, etag=None, fetched_at_ms=0, scope=None),
                check_render_request("t", "html", None),
            )
    finally:
        r.close()
    assert "exit code 3" in caught.value.message and "boom" in caught.value.message


def test_discovery_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = write_fake_engine(tmp_path)
    assert find_engine(str(ENGINE), {"MAILRENDER_ENGINE_PATH": fake}) == str(ENGINE)
    assert find_engine(None, {"MAILRENDER_ENGINE_PATH": fake}) == fake
    assert bundled_engine_path().endswith(os.path.join("_bin", engine_platform(), "mailrender-engine"))
    # No bundled engine (a wheel for another platform, a source checkout): the message says what to do.
    monkeypatch.setattr(discovery_module, "_BIN_DIR", str(tmp_path / "no-bin"))
    with pytest.raises(MailrenderError) as caught:
        find_engine(None, {})
    assert "MAILRENDER_ENGINE_PATH" in caught.value.message and "pip install" in caught.value.message


def test_close_ends_the_process_and_is_final(runner: EngineRunner) -> None:
    entry = CacheEntry(
        template_id="t",
        template=load_case("render", "block-all-defaults")["template"],
        etag=None,
        fetched_at_ms=0,
        scope=None,
    )
    runner.render(entry, check_render_request("t", "html", None))
    assert len(engine_children()) == 1
    started = time.monotonic()
    runner.close()
    assert engine_children() == [] and time.monotonic() - started < 2.5
    with pytest.raises(RuntimeError):
        runner.render(entry, check_render_request("t", "html", None))


def _silent_engine(tmp_path: Path) -> str:
    """Reads requests and never answers: a hung engine."""
    fake = tmp_path / "hung-engine"
    fake.write_text(f"#!{sys.executable}\nimport sys, time\nsys.stdin.readline()\ntime.sleep(60)\n", encoding="utf-8")
    fake.chmod(0o755)
    return str(fake)


@pytest.mark.parametrize("driver", ["sync", "async"])
def test_a_hung_engine_times_out_and_is_stopped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, driver: str) -> None:
    monkeypatch.setattr(engine_module, "ENGINE_RESPONSE_TIMEOUT", 0.5)
    r = EngineRunner(_silent_engine(tmp_path), {})
    entry = CacheEntry(template_id="t", template={}, etag=None, fetched_at_ms=0, scope=None)
    request = check_render_request("t", "html", None)
    try:
        started = time.monotonic()
        with pytest.raises(MailrenderError) as caught:
            if driver == "sync":
                r.render(entry, request)
            else:
                with ThreadPoolExecutor(1) as pool:
                    asyncio.run(r.render_async(entry, request, pool))
        assert caught.value.code == "TIMEOUT" and "restarted" in caught.value.message
        assert time.monotonic() - started < 5
        process = r._process  # pyright: ignore[reportPrivateUsage]
        assert process is not None and process.popen.wait(timeout=5) != 0  # killed
    finally:
        r.close()


def test_async_renders_need_no_thread_each(runner: EngineRunner) -> None:
    case = newsletter()
    entry = CacheEntry(template_id="nl", template=case["template"], etag='"v1"', fetched_at_ms=0, scope=None)

    async def many() -> list[str]:
        with ThreadPoolExecutor(1) as pool:  # one writer thread; 40 renders in flight at once
            requests = [
                check_render_request("nl", "html", {"merge_tags": {"text": {"first_name": f"R{i}"}}}) for i in range(40)
            ]
            envelopes = await asyncio.gather(*(runner.render_async(entry, r, pool) for r in requests))
            return [e["output"] for e in envelopes]

    outputs = asyncio.run(many())
    assert all(f"R{i}" in out for i, out in enumerate(outputs)) and len(set(outputs)) == 40


def test_threads_and_async_renders_share_one_process(runner: EngineRunner) -> None:
    case = newsletter()
    entry = CacheEntry(template_id="nl", template=case["template"], etag='"v1"', fetched_at_ms=0, scope=None)
    sync_outputs: dict[int, str] = {}

    def work(i: int) -> None:
        for k in range(5):
            request = check_render_request("nl", "html", {"merge_tags": {"text": {"first_name": f"T{i}x{k}"}}})
            sync_outputs[i * 5 + k] = runner.render(entry, request)["output"]

    async def many() -> list[str]:
        with ThreadPoolExecutor(1) as pool:
            requests = [
                check_render_request("nl", "html", {"merge_tags": {"text": {"first_name": f"A{i}"}}}) for i in range(30)
            ]
            envelopes = await asyncio.gather(*(runner.render_async(entry, r, pool) for r in requests))
            return [e["output"] for e in envelopes]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    async_outputs = asyncio.run(many())
    for t in threads:
        t.join()
    assert all(f"A{i}" in out for i, out in enumerate(async_outputs))
    assert len(sync_outputs) == 20 and all(f"T{n // 5}x{n % 5}" in out for n, out in sync_outputs.items())
    assert len(engine_children()) == 1


def test_every_waiting_thread_times_out_on_a_hung_engine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(engine_module, "ENGINE_RESPONSE_TIMEOUT", 0.5)
    r = EngineRunner(_silent_engine(tmp_path), {})
    entry = CacheEntry(template_id="t", template={}, etag=None, fetched_at_ms=0, scope=None)
    codes: list[str] = []

    def work() -> None:
        try:
            r.render(entry, check_render_request("t", "html", None))
        except MailrenderError as error:
            codes.append(error.code)

    try:
        threads = [threading.Thread(target=work) for _ in range(3)]
        started = time.monotonic()
        for t in threads:
            t.start()
        for t in threads:
            t.join(timeout=10)
        # The first to time out stops the engine; the others were retried once on a new (hung) one.
        assert codes == ["TIMEOUT"] * 3 and time.monotonic() - started < 5
    finally:
        r.close()


def test_a_render_whose_retry_also_hangs_times_out() -> None:
    # The race the three-thread test can hit: a render fails with a process another render stopped for
    # hanging, is retried, and the new process is stopped for hanging too: it timed out, nothing else.
    attempt = engine_module._Attempt("engine")  # pyright: ignore[reportPrivateUsage]
    attempt.after_death(EngineDied("stopped", hung=True))
    with pytest.raises(MailrenderError) as caught:
        attempt.after_death(EngineDied("stopped", hung=True))
    assert caught.value.code == "TIMEOUT"
    crashed = engine_module._Attempt("engine")  # pyright: ignore[reportPrivateUsage]
    crashed.after_death(EngineDied("exit code 139"))
    with pytest.raises(MailrenderError) as caught:
        crashed.after_death(EngineDied("exit code 139"))
    assert caught.value.code == "UNKNOWN" and "exit code 139" in caught.value.message


def test_no_reader_thread_outlives_its_process(runner: EngineRunner) -> None:
    entry = CacheEntry(
        template_id="t",
        template=load_case("render", "block-all-defaults")["template"],
        etag=None,
        fetched_at_ms=0,
        scope=None,
    )
    request = check_render_request("t", "html", None)
    runner.render(entry, request)
    first = runner._process  # pyright: ignore[reportPrivateUsage]
    assert first is not None and first.reader.is_alive()
    os.kill(first.popen.pid, 9)
    first.popen.wait()
    runner.render(entry, request)  # on a new process: the idle, killed one is noticed and ended
    first.reader.join(timeout=2)
    assert not first.reader.is_alive()
    second = runner._process  # pyright: ignore[reportPrivateUsage]
    runner.close()
    assert second is not None and second is not first
    second.reader.join(timeout=2)
    assert not second.reader.is_alive()


def test_answers_out_of_order_and_in_one_write_reach_every_render(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The engine answers two renders in one write, the second one's first, and a third render later:
    the reader completes each render by its id and goes on reading, so none waits for its timeout."""
    monkeypatch.setattr(engine_module, "ENGINE_RESPONSE_TIMEOUT", 10.0)
    fake = tmp_path / "ordered-engine"
    fake.write_text(
        f"#!{sys.executable}\n"
        "import json, sys, time\n"
        "def answer(line):\n"
        "    return json.dumps({'id': json.loads(line)['id'], 'ok': True, 'output': 'ok', 'warnings': [],\n"
        "                       'engine_version': '2.0.0', 'protocol_version': 1}) + '\\n'\n"
        "sys.stdout.write(answer(sys.stdin.readline())); sys.stdout.flush()  # the handshake\n"
        "first, second, third = (sys.stdin.readline() for _ in range(3))\n"
        "sys.stdout.write(answer(second) + answer(first)); sys.stdout.flush()  # one write: both at once\n"
        "time.sleep(0.3)\n"
        "sys.stdout.write(answer(third)); sys.stdout.flush()\n"
        "sys.stdin.read()\n",
        encoding="utf-8",
    )
    fake.chmod(0o755)
    r = EngineRunner(str(fake), {})
    entry = CacheEntry(template_id="t", template={}, etag=None, fetched_at_ms=0, scope=None)
    request = check_render_request("t", "html", None)
    outputs: list[str] = []
    try:
        r.render(entry, request)
        threads = [
            threading.Thread(target=lambda: outputs.append(r.render(entry, request)["output"])) for _ in range(3)
        ]
        started = time.monotonic()
        for t in threads:
            t.start()
            time.sleep(0.2)  # in order, so the fake engine reads them as first, second, third
        for t in threads:
            t.join(timeout=15)
        assert outputs == ["ok"] * 3 and time.monotonic() - started < 5
    finally:
        r.close()


def test_the_memory_ceiling_from_the_environment_reaches_the_engine() -> None:
    # What the engine does under its ceiling is the engine suite's (engine/test/bounded-cost-binary.test.ts).
    r = EngineRunner(str(ENGINE), {"MAILRENDER_ENGINE_MAX_MEMORY": " 256 "})
    try:
        entry = CacheEntry(template_id="t", template=newsletter()["template"], etag=None, fetched_at_ms=0, scope=None)
        assert r.render(entry, check_render_request("t", "html", None))["output"].startswith("<!doctype html>")
        assert r.pid is not None
        with open(f"/proc/{r.pid}/cmdline", "rb") as cmdline:
            assert cmdline.read().split(b"\0")[1:4] == [b"--serve", b"--max-memory", b"256"]
    finally:
        r.close()
    for bad in ("abc", "8", "-1", "1.5"):
        with pytest.raises(TypeError, match="MAILRENDER_ENGINE_MAX_MEMORY"):
            EngineRunner(str(ENGINE), {"MAILRENDER_ENGINE_MAX_MEMORY": bad})
