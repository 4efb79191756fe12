"""AsyncMailrenderClient against the real service on a free port and the real engine executable.

Mirrors test_sync_client.py (test_mirror.py checks that both files hold the same tests).
"""

from __future__ import annotations

import asyncio
import copy
import dataclasses
import json
import os
import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import (
    ENGINE,
    RequestLog,
    Server,
    assert_saved_layouts_refused_once,
    files_with_layouts,
    load_case,
    resigned_layout,
    run_disk_worker,
    sample_template,
    start_disk_worker,
)
from fakes import ScriptedServer, SilentServer, engine_children, write_engine_without_saved_layouts, write_fake_engine
from mailrender import AsyncMailrenderClient, CacheConfig, DynamicData, MailrenderError, RenderResult

pytestmark = pytest.mark.anyio

FIRST: DynamicData = {"merge_tags": {"text": {"first_name": "Ada"}}}


async def test_render_fetches_once_then_renders_from_cache(server: Server, render_key: str, template_id: str) -> None:
    log = RequestLog()
    async with (
        log.async_client() as http,
        AsyncMailrenderClient(render_key, base_url=server.url, http_client=http) as client,
    ):
        first = await client.render(template_id=template_id, dynamic_data=FIRST)
        second = await client.render(
            template_id=template_id, dynamic_data={"merge_tags": {"text": {"first_name": "Bob"}}}
        )
        assert log.count == 1
        assert log.requests[0].url.path == f"/v1/sdk/template/{template_id}"
        assert log.requests[0].url.params["target"] == "html"
        assert "Hi Ada" in first.output and "Hi Bob" in second.output
        assert first.output.startswith("<!doctype html>")
        assert (first.target, first.template_id, first.from_stale_cache) == ("html", template_id, False)


async def test_render_helpers_and_targets(server: Server, render_key: str, template_id: str) -> None:
    async with AsyncMailrenderClient(render_key, base_url=server.url) as client:
        html = await client.render_html(template_id, FIRST)
        react = await client.render_react(template_id, FIRST)
        mjml = await client.render_mjml(template_id, FIRST)
        assert html == (await client.render(template_id=template_id, target="html", dynamic_data=FIRST)).output
        assert react == (await client.render(template_id=template_id, target="react-email", dynamic_data=FIRST)).output
        assert mjml == (await client.render(template_id=template_id, target="mjml", dynamic_data=FIRST)).output
        assert mjml.startswith("<mjml") and "Ada" in mjml
        assert "@react-email/components" in react


async def test_result_is_a_frozen_dataclass_with_warnings(server: Server, render_key: str, template_id: str) -> None:
    async with AsyncMailrenderClient(render_key, base_url=server.url) as client:
        result = await client.render(template_id=template_id)
    assert isinstance(result, RenderResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.output = "x"  # type: ignore[misc]
    # No first_name given: the default renders and the engine says so.
    assert "Hi there" in result.output
    assert [w.code for w in result.warnings] == ["MISSING_MERGE_TAG"]


async def test_invalid_arguments_fail_before_any_request(server: Server, render_key: str, template_id: str) -> None:
    log = RequestLog()
    async with (
        log.async_client() as http,
        AsyncMailrenderClient(render_key, base_url=server.url, http_client=http) as client,
    ):
        with pytest.raises(MailrenderError) as caught:
            await client.render(template_id=template_id, target="pdf")  # type: ignore[arg-type]
        assert (caught.value.code, caught.value.status) == ("RENDER_ERROR", 422)
        assert caught.value.issues[0]["loc"] == ["target"]
        with pytest.raises(MailrenderError) as caught:
            await client.render(template_id=template_id, dynamic_data={"mergeTags": {}})  # type: ignore[typeddict-unknown-key]
        assert caught.value.issues[0] == {
            "loc": ["dynamic_data", "mergeTags"],
            "msg": "Extra inputs are not permitted",
            "type": "extra_forbidden",
        }
        assert log.count == 0


async def test_ttl_expiry_revalidates_with_if_none_match_and_304(
    server: Server, render_key: str, template_id: str
) -> None:
    log = RequestLog()
    async with (
        log.async_client() as http,
        AsyncMailrenderClient(render_key, base_url=server.url, http_client=http, cache={"ttl": 500}) as client,
    ):
        first = await client.render(template_id=template_id, dynamic_data=FIRST)
        await asyncio.sleep(0.6)
        again = await client.render(template_id=template_id, dynamic_data=FIRST)
        assert log.statuses == [200, 304]
        assert "if-none-match" not in log.requests[0].headers
        assert log.requests[1].headers["if-none-match"].startswith('"')
        assert again.output == first.output and again.from_stale_cache is False
        await client.render(template_id=template_id, dynamic_data=FIRST)  # renewed by the 304: fresh again
        assert log.count == 2


async def test_replaced_template_is_refetched_and_rendered(server: Server, render_key: str) -> None:
    tid = server.create_template(sample_template(heading="Version one {{first_name}}"))
    async with AsyncMailrenderClient(render_key, base_url=server.url, cache={"ttl": 1000}) as client:
        assert "Version one Ada" in await client.render_html(tid, FIRST)
        server.replace_template(tid, sample_template(heading="Version two {{first_name}}"))
        assert "Version one Ada" in await client.render_html(tid, FIRST)  # still fresh: no request
        await asyncio.sleep(1.1)
        out = await client.render_html(tid, FIRST)
        # A new ETag gives a new template_ref, so the engine renders the new template.
        assert "Version two Ada" in out and "Version one" not in out


async def test_stale_on_error_with_the_server_stopped(own_server: Server) -> None:
    key = str(own_server.create_key(["all"])["key"])
    tid = own_server.create_template()
    log = RequestLog()
    async with (
        log.async_client() as http,
        AsyncMailrenderClient(key, base_url=own_server.url, http_client=http, cache={"ttl": 200}) as client,
    ):
        fresh = await client.render(template_id=tid, dynamic_data=FIRST)
        own_server.stop()
        await asyncio.sleep(0.3)
        stale = await client.render(template_id=tid, dynamic_data=FIRST)
        assert stale.from_stale_cache is True
        assert stale.output == fresh.output
        assert log.count == 1 + 3  # the first fetch, then the failed attempt and its 2 retries


async def test_server_down_and_nothing_cached_raises_network_error(own_server: Server) -> None:
    key = str(own_server.create_key(["all"])["key"])
    tid = own_server.create_template()
    own_server.stop()
    log = RequestLog()
    async with (
        log.async_client() as http,
        AsyncMailrenderClient(key, base_url=own_server.url, http_client=http) as client,
    ):
        with pytest.raises(MailrenderError) as caught:
            await client.render(template_id=tid)
    assert (caught.value.code, caught.value.status) == ("NETWORK_ERROR", 0)
    assert own_server.url in caught.value.message and key not in caught.value.message
    assert log.count == 3


async def test_invalid_api_key_is_401(server: Server, template_id: str) -> None:
    async with AsyncMailrenderClient("sk_live_" + "0" * 64, base_url=server.url) as client:
        with pytest.raises(MailrenderError) as caught:
            await client.render(template_id=template_id)
    assert (caught.value.code, caught.value.status) == ("INVALID_API_KEY", 401)


async def test_unknown_template_is_404_and_not_retried(server: Server, render_key: str) -> None:
    log = RequestLog()
    async with (
        log.async_client() as http,
        AsyncMailrenderClient(render_key, base_url=server.url, http_client=http) as client,
    ):
        with pytest.raises(MailrenderError) as caught:
            await client.render(template_id="6f1c2b9e-8a4d-4c3e-9b2a-1d2e3f4a5b6c")
    assert (caught.value.code, caught.value.status) == ("TEMPLATE_NOT_FOUND", 404)
    assert log.count == 1


async def test_non_uuid_template_id_is_422_with_issues(server: Server, render_key: str) -> None:
    async with AsyncMailrenderClient(render_key, base_url=server.url) as client:
        with pytest.raises(MailrenderError) as caught:
            await client.render(template_id="not-a-uuid")
    assert (caught.value.code, caught.value.status) == ("RENDER_ERROR", 422)
    assert caught.value.issues[0]["loc"] == ["path", "id"]


async def test_scope_is_enforced_from_the_cache_without_a_request(server: Server, template_id: str) -> None:
    key = str(server.create_key(["html", "mjml"])["key"])
    log = RequestLog()
    async with log.async_client() as http, AsyncMailrenderClient(key, base_url=server.url, http_client=http) as client:
        await client.render_html(template_id)
        await client.render_mjml(template_id)
        with pytest.raises(MailrenderError) as caught:
            await client.render_react(template_id)
        assert log.count == 1
    assert (caught.value.code, caught.value.status) == ("FORBIDDEN", 403)
    assert caught.value.message == "API key is limited to targets [html, mjml]; requested 'react-email'"


async def test_scope_refused_by_the_service_reads_the_same(server: Server, template_id: str) -> None:
    key = str(server.create_key(["html", "mjml"])["key"])
    async with AsyncMailrenderClient(key, base_url=server.url) as client:
        with pytest.raises(MailrenderError) as caught:
            await client.render_react(template_id)
    assert (caught.value.code, caught.value.status) == ("FORBIDDEN", 403)
    assert caught.value.message == "API key is limited to targets [html, mjml]; requested 'react-email'"


async def test_deleted_template_is_404_and_dropped_not_served_stale(server: Server, render_key: str) -> None:
    tid = server.create_template()
    async with AsyncMailrenderClient(render_key, base_url=server.url, cache={"ttl": 200}) as client:
        await client.render_html(tid)
        assert tid in client.list_cached()
        server.delete_template(tid)
        await asyncio.sleep(0.3)
        with pytest.raises(MailrenderError) as caught:
            await client.render_html(tid)
        assert caught.value.code == "TEMPLATE_NOT_FOUND"
        assert tid not in client.list_cached()


async def test_revoked_key_is_refused_not_served_stale(server: Server, template_id: str) -> None:
    created = server.create_key(["all"])
    async with AsyncMailrenderClient(str(created["key"]), base_url=server.url, cache={"ttl": 200}) as client:
        await client.render_html(template_id)
        assert server.admin("DELETE", f"/api/v1/keys/{created['id']}").status_code in (200, 204)
        await asyncio.sleep(0.3)
        with pytest.raises(MailrenderError) as caught:
            await client.render_html(template_id)
    assert (caught.value.code, caught.value.status) == ("INVALID_API_KEY", 401)


async def test_strict_render_error_from_the_engine(server: Server, render_key: str) -> None:
    template_id = server.create_template(sample_template(heading="Hi {{first_name}}"))
    async with AsyncMailrenderClient(render_key, base_url=server.url) as client:
        with pytest.raises(MailrenderError) as caught:
            await client.render(template_id=template_id, strict=True)
        assert (caught.value.code, caught.value.status) == ("RENDER_ERROR", 422)
        assert caught.value.issues and caught.value.issues[0]["type"]
        assert "Ada" in (await client.render(template_id=template_id, dynamic_data=FIRST, strict=True)).output


async def test_cache_management_and_deprecated_invalidate(server: Server, render_key: str, template_id: str) -> None:
    other = server.create_template()
    async with AsyncMailrenderClient(render_key, base_url=server.url) as client:
        await client.render_html(template_id)
        await client.render_html(other)
        assert sorted(client.list_cached()) == sorted([template_id, other])
        assert client.delete_cached(other) is True
        assert client.delete_cached(other) is False
        assert client.list_cached() == [template_id]
        with pytest.warns(DeprecationWarning, match="delete_cached"):
            assert client.invalidate(template_id) is True
        await client.render_html(template_id)
        client.clear_cache()
        assert client.list_cached() == []


async def test_memory_cache_evicts_the_entry_fetched_longest_ago(server: Server, render_key: str) -> None:
    ids = [server.create_template() for _ in range(3)]
    async with AsyncMailrenderClient(render_key, base_url=server.url, cache={"max_entries": 2}) as client:
        for tid in ids:
            await client.render_html(tid)
        assert client.list_cached() == ids[1:]


async def test_disk_cache_survives_a_restart(server: Server, render_key: str, template_id: str, tmp_path: Path) -> None:
    cache_dir = str(tmp_path / "cache")
    async with AsyncMailrenderClient(
        render_key, base_url=server.url, cache={"type": "disk", "path": cache_dir}
    ) as client:
        first = await client.render_html(template_id, FIRST)
    assert sorted(os.listdir(cache_dir)) == [f"{template_id}.html.layout", f"{template_id}.json"]
    log = RequestLog()
    async with (
        log.async_client() as http,
        AsyncMailrenderClient(
            render_key, base_url=server.url, http_client=http, cache={"type": "disk", "path": cache_dir}
        ) as client,
    ):
        assert await client.render_html(template_id, FIRST) == first
        assert client.list_cached() == [template_id]
        assert log.count == 0


async def test_saved_layouts_kept_beside_the_template_used_when_sound_replaced_when_not(
    server: Server, render_key: str, tmp_path: Path
) -> None:
    tid = server.create_template()
    disk: CacheConfig = {"type": "disk", "path": str(tmp_path / "cache")}
    layout_file = tmp_path / "cache" / f"{tid}.html.layout"

    async def fresh_render(**options: Any) -> str:  # a new client: a new engine process, as a batch job's next run
        async with AsyncMailrenderClient(render_key, base_url=server.url, cache=disk) as client:
            return (await client.render(template_id=tid, dynamic_data=FIRST, **options)).output

    expected = await fresh_render()
    layout = layout_file.read_text(encoding="utf-8")
    assert layout.startswith("mailrender-layout ")
    # A later process renders from it: an edit signed again shows in the output.
    layout_file.write_text(resigned_layout(layout, "Body text", "From the layout"), encoding="utf-8")
    assert await fresh_render() == expected.replace("Body text", "From the layout")
    # A damaged one is ignored (the output is the template's) and replaced by a sound one.
    layout_file.write_bytes(b"\xff" + layout.encode("utf-8")[1:])
    assert await fresh_render() == expected
    assert layout_file.read_text(encoding="utf-8") == layout
    # Plain text and components neither keep nor read layouts; unminified output has its own.
    layout_file.unlink()
    await fresh_render(plain_text=True)
    assert not layout_file.exists()
    await fresh_render(minify=False)
    assert sorted(os.listdir(tmp_path / "cache")) == [f"{tid}.html-unminified.layout", f"{tid}.json"]


async def test_saved_layouts_go_with_their_template(server: Server, render_key: str, tmp_path: Path) -> None:
    ids = [server.create_template() for _ in range(3)]
    cache_dir = tmp_path / "cache"
    disk: CacheConfig = {"type": "disk", "path": str(cache_dir), "max_entries": 2}
    async with AsyncMailrenderClient(render_key, base_url=server.url, cache=disk) as client:
        for tid in ids:
            await client.render(template_id=tid)
            await client.render(template_id=tid, target="mjml", minify=False)
        # The trim to max_entries took the first template's layouts along.
        assert sorted(os.listdir(cache_dir)) == files_with_layouts(ids[1:], ("html", "mjml-unminified"))
        assert client.delete_cached(ids[1]) is True
        assert sorted(os.listdir(cache_dir)) == files_with_layouts(ids[2:], ("html", "mjml-unminified"))
        client.clear_cache()
        assert os.listdir(cache_dir) == []


async def test_an_engine_without_saved_layouts_renders_without_them(
    server: Server, render_key: str, template_id: str, tmp_path: Path
) -> None:
    engine, requests = write_engine_without_saved_layouts(tmp_path, ENGINE)
    disk: CacheConfig = {"type": "disk", "path": str(tmp_path / "cache")}
    async with AsyncMailrenderClient(render_key, base_url=server.url, cache=disk) as client:
        expected = [
            (await client.render(template_id=template_id, target=t, dynamic_data=FIRST)).output
            for t in ("html", "mjml")
        ]
    async with AsyncMailrenderClient(render_key, base_url=server.url, cache=disk, engine_path=engine) as client:
        for _ in range(2):
            for target, output in zip(("html", "mjml"), expected):
                assert (
                    await client.render(template_id=template_id, target=target, dynamic_data=FIRST)
                ).output == output
    assert_saved_layouts_refused_once(requests, renders=4)


async def test_disk_cache_shared_by_two_processes(server: Server, render_key: str, tmp_path: Path) -> None:
    ids = [server.create_template() for _ in range(3)]
    cache_dir = str(tmp_path / "shared")
    # Another process fetches and writes; this one then renders from those files without a request.
    other = run_disk_worker(server.url, render_key, cache_dir, 300_000, *ids)
    assert other["requests"] == 3
    log = RequestLog()
    async with (
        log.async_client() as http,
        AsyncMailrenderClient(
            render_key, base_url=server.url, http_client=http, cache={"type": "disk", "path": cache_dir}
        ) as client,
    ):
        for tid in ids:
            assert await client.render_html(tid, FIRST) == other["outputs"][tid]
        assert log.count == 0
        # And the other way round: a template this process cached is a hit over there.
        extra = server.create_template()
        await client.render_html(extra, FIRST)
    assert run_disk_worker(server.url, render_key, cache_dir, 300_000, extra)["requests"] == 0
    # Two processes rewriting the same files at once (ttl 0: every render refetches and rewrites).
    workers = [start_disk_worker(server.url, render_key, cache_dir, 0, *(ids * 5)) for _ in range(2)]
    for w in workers:
        out, err = w.communicate(timeout=60)
        assert w.returncode == 0, err.decode()
        assert json.loads(out)["requests"] == 15
    async with AsyncMailrenderClient(
        render_key, base_url=server.url, cache={"type": "disk", "path": cache_dir}
    ) as client:
        assert sorted(client.list_cached()) == sorted([*ids, extra])  # every file whole and readable
    assert not [n for n in os.listdir(cache_dir) if n.endswith(".tmp")]


async def test_engine_killed_mid_session_next_render_succeeds(
    server: Server, render_key: str, template_id: str
) -> None:
    async with AsyncMailrenderClient(render_key, base_url=server.url) as client:
        before = await client.render_html(template_id, FIRST)
        pids = engine_children()
        assert len(pids) == 1
        os.kill(pids[0], signal.SIGKILL)
        await asyncio.sleep(0.1)
        assert await client.render_html(template_id, FIRST) == before  # restarted, template resent
        after = engine_children()
        assert len(after) == 1 and after != pids


async def test_one_engine_process_started_lazily_and_stopped_on_close(
    server: Server, render_key: str, template_id: str
) -> None:
    log = RequestLog()
    http = log.async_client()
    client = AsyncMailrenderClient(render_key, base_url=server.url, http_client=http)
    assert engine_children() == []
    for _ in range(5):
        await client.render_html(template_id)
    assert len(engine_children()) == 1
    await client.aclose()
    await client.aclose()  # idempotent
    assert engine_children() == []
    assert not http.is_closed  # an injected client is the caller's to close
    with pytest.raises(RuntimeError):
        await client.render_html(template_id)
    await http.aclose()


async def test_concurrent_renders_share_one_fetch_and_one_engine(server: Server, render_key: str) -> None:
    tid = server.create_template()
    log = RequestLog()
    async with (
        log.async_client() as http,
        AsyncMailrenderClient(render_key, base_url=server.url, http_client=http) as client,
    ):
        results = await asyncio.gather(
            *(client.render_html(tid, {"merge_tags": {"text": {"first_name": f"Reader{i}"}}}) for i in range(50))
        )
        assert log.count == 1
        assert len(engine_children()) == 1
    assert len(results) == 50
    for i, out in enumerate(results):
        assert f"Hi Reader{i}<" in out


async def test_event_loop_is_not_blocked_by_renders(server: Server, render_key: str) -> None:
    """The engine works off the loop: a ticker on the loop keeps ticking through a long render.

    The render is the first of a template fifteen newsletters long (1,650 nodes, near the limit), so
    the engine's compile takes far longer than the ticker's 5 ms: had the client waited for it on
    the loop, one gap would span most of the render. (A repeat render takes under a millisecond:
    it could not show a blocked loop.)
    """
    case = load_case("render", "realistic-newsletter")
    long_template = copy.deepcopy(case["template"])
    long_template["rows"] = [copy.deepcopy(row) for _ in range(15) for row in case["template"]["rows"]]
    small_id = server.create_template()
    long_id = server.create_template(long_template)
    async with AsyncMailrenderClient(render_key, base_url=server.url) as client:
        await client.render_html(small_id, {})  # the engine started
        gaps: list[float] = []
        done = False

        async def ticker() -> None:
            last = time.monotonic()
            while not done:
                await asyncio.sleep(0.005)
                now = time.monotonic()
                gaps.append(now - last)
                last = now

        task = asyncio.ensure_future(ticker())
        started = time.monotonic()
        html = await client.render_html(long_id, case["dynamic_data"])
        elapsed = time.monotonic() - started
        done = True
        await task
    assert html.count("unsubscribe?u=8f3a2c&amp;list=weekly") == 15  # once per newsletter
    assert len(gaps) >= 5 and max(gaps) < elapsed / 3


async def test_timeout_against_a_silent_server(render_key: str) -> None:
    silent = SilentServer()
    try:
        async with AsyncMailrenderClient(render_key, base_url=silent.url, timeout=0.3) as client:
            started = time.monotonic()
            with pytest.raises(MailrenderError) as caught:
                await client.render_html("6f1c2b9e-8a4d-4c3e-9b2a-1d2e3f4a5b6c")
            elapsed = time.monotonic() - started
    finally:
        silent.close()
    assert (caught.value.code, caught.value.status) == ("TIMEOUT", 0)
    assert silent.accepted == 1 and elapsed < 2  # a timeout is not retried


async def test_5xx_is_retried_twice_then_raised(render_key: str) -> None:
    fake = ScriptedServer(
        [(503, {"content-type": "application/json"}, b'{"code":"UNAVAILABLE","message":"database down"}')]
    )
    try:
        async with AsyncMailrenderClient(render_key, base_url=fake.url) as client:
            with pytest.raises(MailrenderError) as caught:
                await client.render_html("6f1c2b9e-8a4d-4c3e-9b2a-1d2e3f4a5b6c")
    finally:
        fake.close()
    assert (caught.value.code, caught.value.status, caught.value.message) == ("UNKNOWN", 503, "database down")
    assert len(fake.paths) == 3


async def test_5xx_then_success_renders(render_key: str) -> None:
    body = json.dumps(sample_template()).encode()
    ok = (200, {"content-type": "application/json", "etag": '"e1"', "x-key-targets": "html"}, body)
    fake = ScriptedServer([(500, {}, b""), (502, {}, b""), ok])
    try:
        async with AsyncMailrenderClient(render_key, base_url=fake.url) as client:
            assert "Hi Ada" in await client.render_html("6f1c2b9e-8a4d-4c3e-9b2a-1d2e3f4a5b6c", FIRST)
    finally:
        fake.close()
    assert len(fake.paths) == 3


async def test_429_is_retried_after_retry_after(tmp_path: Path) -> None:
    limited = Server(tmp_path)
    try:
        key = str(limited.create_key(["all"])["key"])
        tid = limited.create_template()
        limited.restart({"MAILRENDER_RATE_LIMIT_MAX": "1", "MAILRENDER_RATE_LIMIT_WINDOW_MS": "1000"})
        async with AsyncMailrenderClient(key, base_url=limited.url) as client:
            await client.render_html(tid)
        log = RequestLog()
        async with (
            log.async_client() as http,
            AsyncMailrenderClient(key, base_url=limited.url, http_client=http) as client,
        ):
            assert "Hi there" in await client.render_html(tid)  # 429 Retry-After, then the next window
        assert 429 in log.statuses and log.statuses[-1] == 200
    finally:
        limited.stop()


async def test_429_with_a_long_retry_after_serves_stale(tmp_path: Path) -> None:
    limited = Server(tmp_path)
    try:
        key = str(limited.create_key(["all"])["key"])
        tid = limited.create_template()
        limited.restart({"MAILRENDER_RATE_LIMIT_MAX": "1", "MAILRENDER_RATE_LIMIT_WINDOW_MS": "600000"})
        log = RequestLog()
        async with (
            log.async_client() as http,
            AsyncMailrenderClient(key, base_url=limited.url, http_client=http, cache={"ttl": 100}) as client,
        ):
            await client.render_html(tid)
            await asyncio.sleep(0.2)
            result = await client.render(template_id=tid)
            assert result.from_stale_cache is True
            assert log.statuses == [200, 429]  # Retry-After of minutes is not waited for
    finally:
        limited.stop()


async def test_missing_engine_fails_with_an_actionable_message(render_key: str, tmp_path: Path) -> None:
    with pytest.raises(MailrenderError) as caught:
        AsyncMailrenderClient(render_key, engine_path=str(tmp_path / "nope"))
    assert "engine_path=" in caught.value.message and "does not exist" in caught.value.message
    old = os.environ["MAILRENDER_ENGINE_PATH"]
    os.environ["MAILRENDER_ENGINE_PATH"] = str(tmp_path / "missing-engine")
    try:
        with pytest.raises(MailrenderError) as caught:
            AsyncMailrenderClient(render_key)
        assert "MAILRENDER_ENGINE_PATH" in caught.value.message
    finally:
        os.environ["MAILRENDER_ENGINE_PATH"] = old


async def test_wrong_engine_version_is_refused(
    server: Server, render_key: str, template_id: str, tmp_path: Path
) -> None:
    fake = write_fake_engine(tmp_path)
    async with AsyncMailrenderClient(render_key, base_url=server.url, engine_path=fake) as client:
        with pytest.raises(MailrenderError) as caught:
            await client.render_html(template_id)
    assert "protocol 2" in caught.value.message and "needs engine 2.x speaking protocol 1" in caught.value.message
    assert "MAILRENDER_ENGINE_PATH" in caught.value.message


async def test_engine_path_argument_wins_over_the_environment(
    server: Server, render_key: str, template_id: str, tmp_path: Path
) -> None:
    old = os.environ["MAILRENDER_ENGINE_PATH"]
    os.environ["MAILRENDER_ENGINE_PATH"] = write_fake_engine(tmp_path)
    try:
        async with AsyncMailrenderClient(render_key, base_url=server.url, engine_path=str(ENGINE)) as client:
            assert "Hi there" in await client.render_html(template_id)
    finally:
        os.environ["MAILRENDER_ENGINE_PATH"] = old


async def test_api_key_and_base_url_from_the_environment(server: Server, render_key: str, template_id: str) -> None:
    os.environ["MAILRENDER_API_KEY"] = render_key
    os.environ["MAILRENDER_BASE_URL"] = server.url
    try:
        async with AsyncMailrenderClient() as client:
            assert client.base_url == server.url
            assert "Hi there" in await client.render_html(template_id)
            assert render_key not in repr(client)
    finally:
        del os.environ["MAILRENDER_API_KEY"], os.environ["MAILRENDER_BASE_URL"]
    with pytest.raises(MailrenderError) as caught:
        AsyncMailrenderClient("  ")
    assert (caught.value.code, caught.value.status) == ("INVALID_API_KEY", 0)


async def test_unknown_options_are_rejected(render_key: str) -> None:
    with pytest.raises(TypeError, match="max_entries"):
        AsyncMailrenderClient(render_key, cache={"maxEntries": 5})  # type: ignore[typeddict-unknown-key]
    with pytest.raises(ValueError, match="memory' or 'disk"):
        AsyncMailrenderClient(render_key, cache={"type": "redis"})  # type: ignore[typeddict-item]
    with pytest.raises(TypeError):
        AsyncMailrenderClient(render_key, http_client=httpx.Client())  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        AsyncMailrenderClient(render_key, cacheTtl=5)  # type: ignore[call-arg]


async def test_no_api_key_reaches_logs_or_errors(
    server: Server, render_key: str, template_id: str, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level("DEBUG")  # httpx and httpcore log every request and its headers' names at DEBUG
    async with AsyncMailrenderClient(render_key, base_url=server.url) as client:
        await client.render_html(template_id)
        with pytest.raises(MailrenderError) as caught:
            await client.render_html("not-a-uuid")
    assert render_key not in caplog.text
    assert render_key not in repr(caught.value) and render_key not in str(caught.value)
