"""The real ``maildeno`` 2.0.7 SDK (dev-only, from PyPI) against our real service: a Maildeno user who
changes only ``base_url`` keeps working (renders, caching, errors). Its renders use its own engine;
only what crosses the wire is ours. Our own client's drop-in details are tested at the end."""

from __future__ import annotations

import inspect
import time
from dataclasses import fields
from typing import Any

import httpx
import pytest
from conftest import RequestLog, Server
from maildeno import AsyncMaildenoClient, MaildenoClient, MaildenoError
from maildeno import RenderResult as MaildenoResult
from mailrender import AsyncMailrenderClient, MailrenderClient, MailrenderError, RenderResult


def service_error(server: Server, key: str, path: str) -> dict[str, Any]:
    """The service's own error body for a request, to compare with what the SDK shows."""
    res = httpx.get(server.url + path, headers={"authorization": f"Bearer {key}"}, timeout=10)
    return res.json()


def shows_service_message(server: Server, key: str, path: str, error: MaildenoError) -> None:
    """The SDK reads the message from ``detail``; without it every error reads ``HTTP <status>``."""
    body = service_error(server, key, path)
    assert body["detail"] == body["message"]
    assert error.message == body["message"] and not error.message.startswith("HTTP ")


def test_renders_and_caches_through_the_real_sdk(server: Server, render_key: str, template_id: str) -> None:
    log = RequestLog()
    with log.sync_client() as http:
        client = MaildenoClient(render_key, base_url=server.url, http_client=http, cache={"ttl": 60_000})
        first = client.render(template_id=template_id, dynamic_data={"merge_tags": {"text": {"first_name": "Ada"}}})
        assert first.template_id == template_id and first.target == "html" and not first.from_stale_cache
        # The template our service sent, rendered by the SDK's own engine (which leaves {{ … }} tags
        # visible where ours fills them: spec/README.md), so only the content is checked.
        assert "Body text" in first.output and first.output.lstrip().startswith("<!DOCTYPE html>")
        assert "Body text" in client.render_html(template_id, {"merge_tags": {"text": {"first_name": "Grace"}}})
        assert "<mjml" in client.render_mjml(template_id)
        assert log.statuses == [200]  # one fetch; the SDK caches per template, every target renders from it
        assert client.list_cached() == [template_id]
        client.clear_cache()
        client.render_html(template_id)
        assert log.statuses == [200, 200]
        client.close()


@pytest.mark.anyio
async def test_the_async_sdk_renders(server: Server, render_key: str, template_id: str) -> None:
    async with AsyncMaildenoClient(render_key, base_url=server.url) as client:
        assert "Body text" in await client.render_html(template_id, {"merge_tags": {"text": {"first_name": "Ada"}}})


def test_401_unknown_key(server: Server, template_id: str) -> None:
    key = "sk_live_" + "0" * 64
    with pytest.raises(MaildenoError) as raised:
        MaildenoClient(key, base_url=server.url).render_html(template_id)
    assert (raised.value.code, raised.value.status) == ("INVALID_API_KEY", 401)
    shows_service_message(server, key, f"/v1/sdk/template/{template_id}?target=html", raised.value)


def test_403_target_outside_the_key_scope(server: Server, template_id: str) -> None:
    key = str(server.create_key(["html"])["key"])
    with pytest.raises(MaildenoError) as raised:
        MaildenoClient(key, base_url=server.url).render_mjml(template_id)
    assert (raised.value.code, raised.value.status) == ("FORBIDDEN", 403)
    shows_service_message(server, key, f"/v1/sdk/template/{template_id}?target=mjml", raised.value)


def test_404_unknown_template(server: Server, render_key: str) -> None:
    missing = "00000000-0000-4000-8000-000000000000"
    with pytest.raises(MaildenoError) as raised:
        MaildenoClient(render_key, base_url=server.url).render_html(missing)
    assert (raised.value.code, raised.value.status) == ("TEMPLATE_NOT_FOUND", 404)
    shows_service_message(server, render_key, f"/v1/sdk/template/{missing}?target=html", raised.value)


def test_422_bad_target(server: Server, render_key: str, template_id: str) -> None:
    with pytest.raises(MaildenoError) as raised:
        MaildenoClient(render_key, base_url=server.url).render(template_id=template_id, target="pdf")  # type: ignore[arg-type]
    assert (raised.value.code, raised.value.status) == ("RENDER_ERROR", 422)
    shows_service_message(server, render_key, f"/v1/sdk/template/{template_id}?target=pdf", raised.value)


# ------------------------------------------------------------------ our client as a drop-in


def test_error_and_result_take_the_sdks_argument_order() -> None:
    error = MailrenderError("FORBIDDEN", "no", 403)
    assert (error.code, error.message, error.status, error.issues) == ("FORBIDDEN", "no", 403, [])
    assert MailrenderError("TIMEOUT", "slow").status == 0
    assert (
        list(inspect.signature(MailrenderError).parameters)[:4] == list(inspect.signature(MaildenoError).parameters)[:4]
    )
    ours = [f.name for f in fields(RenderResult)]
    theirs = [f.name for f in fields(MaildenoResult)]
    assert ours[: len(theirs)] == theirs
    result = RenderResult("t", "html", "<p>", True)
    assert (result.template_id, result.target, result.output, result.from_stale_cache) == ("t", "html", "<p>", True)


def test_cache_ttl_is_milliseconds(server: Server, render_key: str, template_id: str) -> None:
    log = RequestLog()
    with (
        log.sync_client() as http,
        MailrenderClient(render_key, base_url=server.url, http_client=http, cache={"ttl": 60_000}) as client,
    ):
        client.render_html(template_id)
        client.render_html(template_id)
        assert log.count == 1  # fresh for a minute, as in the SDK
    log = RequestLog()
    with (
        log.sync_client() as http,
        MailrenderClient(render_key, base_url=server.url, http_client=http, cache={"ttl": 1}) as client,
    ):
        client.render_html(template_id)
        time.sleep(0.01)
        client.render_html(template_id)
        assert log.count == 2  # 1 ms, not 1 s


@pytest.mark.anyio
async def test_async_clear_cache_is_a_plain_call_like_the_sdks(
    server: Server, render_key: str, template_id: str
) -> None:
    assert not inspect.iscoroutinefunction(AsyncMailrenderClient.clear_cache)
    assert not inspect.iscoroutinefunction(AsyncMaildenoClient.clear_cache)
    async with AsyncMailrenderClient(render_key, base_url=server.url) as client:
        await client.render_html(template_id)
        assert client.list_cached() == [template_id]
        client.clear_cache()
        assert client.list_cached() == []


def test_a_non_ascii_api_key_is_a_mailrender_error() -> None:
    with pytest.raises(MailrenderError) as raised:
        MailrenderClient("sk_live_é", base_url="http://127.0.0.1:9")
    assert raised.value.code == "INVALID_API_KEY" and "é" not in str(raised.value)
