"""The sans-I/O core on its own: options, arguments, retry schedule, scope, stale-on-error, types."""

from __future__ import annotations

import json
import pickle
from typing import Any, Optional

import httpx
import mailrender._constants as constants
import pytest
from conftest import REPO
from mailrender import CacheConfig, DynamicData, MailrenderError, MergeTags, TemplateJson
from mailrender._core.entry import CachedScope, CacheEntry, key_fingerprint, template_ref
from mailrender._core.entry_file import cache_file_name, parse_entry, serialize_entry
from mailrender._core.fetch import Fetched, FetchFailure, NotModified, interpret_response, parse_retry_after
from mailrender._core.freshness import fresh_cached, settle_fetch
from mailrender._core.layouts import Layouts
from mailrender._core.protocol import (
    EngineProtocolError,
    engine_request_line,
    engine_speaks_layouts,
    refused_saved_layouts,
)
from mailrender._core.render_request import check_render_request
from mailrender._core.retry import backoff_delay, retry_delay
from mailrender._core.settings import resolve_settings

KEY = "sk_live_" + "ab" * 32
FP = key_fingerprint(KEY)


def settings(**kw: Any) -> Any:
    args: dict[str, Any] = {
        "api_key": KEY,
        "base_url": None,
        "timeout": 30.0,
        "cache": None,
        "engine_path": None,
        "env": {},
    }
    args.update(kw)
    return resolve_settings(**args)


def entry(
    fetched_at_ms: int = 1_000_000, targets: Any = ("html",), complete: bool = True, etag: Optional[str] = '"e1"'
) -> CacheEntry:
    return CacheEntry(
        template_id="t1",
        template={"rows": []},
        etag=etag,
        fetched_at_ms=fetched_at_ms,
        scope=CachedScope(FP, targets, complete),
    )


def test_defaults_follow_the_service_spec() -> None:
    s = settings()
    assert (s.base_url, s.timeout) == ("http://localhost:8787", 30.0)
    assert (s.cache.type, s.cache.ttl_ms, s.cache.max_entries, s.cache.path) == (
        "memory",
        300_000,
        50,
        ".mailrender-cache",
    )
    assert constants.VERSION == "2.0.4"
    assert KEY not in repr(s)


def test_environment_fallbacks() -> None:
    s = resolve_settings(
        api_key=None,
        base_url=None,
        timeout=5,
        cache=None,
        engine_path=None,
        env={"MAILRENDER_API_KEY": KEY, "MAILRENDER_BASE_URL": "https://x.test/"},
    )
    assert s.api_key == KEY and s.base_url == "https://x.test"
    with pytest.raises(MailrenderError) as caught:
        resolve_settings(api_key=None, base_url=None, timeout=5, cache=None, engine_path=None, env={})
    assert caught.value.code == "INVALID_API_KEY" and "MAILRENDER_API_KEY" in caught.value.message


@pytest.mark.parametrize(
    "kw, error",
    [
        ({"cache": {"ttl": -1}}, ValueError),
        ({"cache": {"ttl": "5"}}, TypeError),
        ({"cache": {"max_entries": 0}}, ValueError),
        ({"cache": {"max_entries": 2.5}}, TypeError),
        ({"cache": {"maxEntries": 5}}, TypeError),
        ({"cache": {"type": "disk", "path": ""}}, TypeError),
        ({"cache": ["memory"]}, TypeError),
        ({"timeout": 0}, ValueError),
        ({"timeout": True}, TypeError),
        ({"base_url": "ftp://x"}, ValueError),
        ({"base_url": "http://x/?a=1"}, ValueError),
    ],
)
def test_bad_options_are_rejected(kw: dict[str, Any], error: type) -> None:
    with pytest.raises(error):
        settings(**kw)


def test_render_arguments() -> None:
    r = check_render_request("id", "mjml", {"merge_tags": {"text": {"a": "b"}}}, None, True)
    assert (r.template_id, r.target, r.strict) == ("id", "mjml", True)
    with pytest.raises(MailrenderError) as caught:
        check_render_request("", "pdf", [], "yes", None)
    assert [i["loc"] for i in caught.value.issues] == [["template_id"], ["target"], ["dynamic_data"], ["minify"]]
    assert caught.value.status == 422


def test_retry_schedule_jittered_backoff() -> None:
    assert backoff_delay(0, lambda: 0.0) == 0.125 and backoff_delay(0, lambda: 0.999999) < 0.25
    assert backoff_delay(1, lambda: 0.0) == 0.25
    outage = FetchFailure(MailrenderError("NETWORK_ERROR", "x", 0))
    assert retry_delay(outage, 0, lambda: 0.0) == 0.125
    assert retry_delay(outage, 1, lambda: 0.0) == 0.25
    assert retry_delay(outage, 2, lambda: 0.0) is None  # 2 retries, then stop


def test_retry_only_for_outages_and_honour_retry_after() -> None:
    for status in (400, 401, 403, 404, 422):
        assert retry_delay(FetchFailure(MailrenderError("UNKNOWN", "x", status)), 0, lambda: 0.5) is None
    assert retry_delay(FetchFailure(MailrenderError("TIMEOUT", "x", 0)), 0, lambda: 0.5) is None
    assert retry_delay(FetchFailure(MailrenderError("UNKNOWN", "x", 503)), 0, lambda: 0.0) == 0.125
    assert retry_delay(FetchFailure(MailrenderError("UNKNOWN", "x", 429), retry_after=2.0), 0, lambda: 0.0) == 2.0
    assert retry_delay(FetchFailure(MailrenderError("UNKNOWN", "x", 429), retry_after=60.0), 0, lambda: 0.0) is None
    assert retry_delay(Fetched({}, None, None), 0, lambda: 0.0) is None


def test_parse_retry_after() -> None:
    assert parse_retry_after("3", 0) == 3.0
    assert parse_retry_after("Thu, 01 Jan 1970 00:00:10 GMT", 4.0) == 6.0
    assert parse_retry_after("soon", 0) is None and parse_retry_after(None, 0) is None


def test_interpret_responses() -> None:
    h = httpx.Headers({"ETag": '"v2"', "X-Key-Targets": "html, mjml, bogus"})
    ok = interpret_response(200, h, b'{"rows": []}', 0)
    assert isinstance(ok, Fetched) and ok.etag == '"v2"' and ok.key_targets == ("html", "mjml")
    assert isinstance(interpret_response(304, h, b"", 0), NotModified)
    bad = interpret_response(200, h, b"[1]", 0)
    assert isinstance(bad, FetchFailure) and bad.error.code == "UNKNOWN"
    body = (
        b'{"code":"RENDER_ERROR","message":"Invalid","issues":[{"loc":["path","id"],"msg":"m","type":"uuid_parsing"}]}'
    )
    err = interpret_response(422, httpx.Headers(), body, 0)
    assert isinstance(err, FetchFailure) and err.error.issues == [
        {"loc": ["path", "id"], "msg": "m", "type": "uuid_parsing"}
    ]
    limited = interpret_response(429, httpx.Headers({"retry-after": "7"}), b"not json", 0)
    assert isinstance(limited, FetchFailure) and limited.retry_after == 7.0 and limited.error.code == "UNKNOWN"
    assert limited.error.message == "The service answered HTTP 429"


def test_scope_and_freshness() -> None:
    assert fresh_cached(entry(), FP, "html", 300_000, 1_100_000) is not None
    assert fresh_cached(entry(), FP, "html", 300_000, 1_300_000) is None  # expired: age == ttl
    assert fresh_cached(entry(), FP, "html", 300_000, 999_999) is None  # fetched in the future: revalidate
    assert fresh_cached(entry(), FP, "html", 0, 1_000_000) is None  # ttl 0 is never fresh
    with pytest.raises(MailrenderError) as caught:
        fresh_cached(entry(targets=("html", "mjml")), FP, "react-email", 300_000, 1_100_000)
    assert caught.value.message == "API key is limited to targets [html, mjml]; requested 'react-email'"
    other = key_fingerprint("other")
    assert fresh_cached(entry(), other, "html", 300_000, 1_100_000) is None  # another key: ask the service
    assert fresh_cached(entry(complete=False), FP, "mjml", 300_000, 1_100_000) is None  # scope not known: ask


def test_stale_on_error_rules() -> None:
    cached = entry()
    for error in (
        MailrenderError("NETWORK_ERROR", "x", 0),
        MailrenderError("TIMEOUT", "x", 0),
        MailrenderError("UNKNOWN", "x", 503),
        MailrenderError("UNKNOWN", "x", 429),
    ):
        settled = settle_fetch("t1", "html", cached, FetchFailure(error), FP, 2000)
        assert settled.resolved is not None and settled.resolved.stale and settled.resolved.entry is cached
    for code, status in (("INVALID_API_KEY", 401), ("FORBIDDEN", 403)):
        settled = settle_fetch("t1", "html", cached, FetchFailure(MailrenderError(code, "x", status)), FP, 2000)  # type: ignore[arg-type]
        assert settled.error is not None and not settled.drop
    gone = settle_fetch("t1", "html", cached, FetchFailure(MailrenderError("TEMPLATE_NOT_FOUND", "x", 404)), FP, 2000)
    assert gone.error is not None and gone.drop
    renewed = settle_fetch("t1", "html", cached, NotModified('"e1"', ("html",)), FP, 2000)
    assert renewed.store is not None and renewed.store.fetched_at_ms == 2000 and renewed.store.ref == cached.ref


def test_template_ref_changes_with_the_template() -> None:
    assert template_ref("t", '"a"', {}) != template_ref("t", '"b"', {})
    assert template_ref("t", None, {"x": 1}) != template_ref("t", None, {"x": 2})
    assert len(template_ref("t" * 300, '"a"', {})) <= 256


def test_cache_entry_file_round_trip_and_corruption() -> None:
    e = entry(fetched_at_ms=1234)
    back = parse_entry(serialize_entry(e), "t1")
    assert back == e and back is not None and back.ref == e.ref
    fractional = json.loads(serialize_entry(e)) | {"fetchedAt": 1234.9}
    floored = parse_entry(json.dumps(fractional), "t1")
    assert floored is not None and floored.fetched_at_ms == 1234
    assert parse_entry("{", "t1") is None
    assert parse_entry(serialize_entry(e), "other") is None
    assert (
        parse_entry(
            json.dumps(
                {
                    "format": 1,
                    "templateId": "t1",
                    "template": {},
                    "etag": None,
                    "fetchedAt": 1,
                    "scope": {"key": "k", "targets": ["pdf"], "complete": True},
                }
            )
        )
        is None
    )


def test_cache_file_names_match_the_js_client() -> None:
    # JS: encodeURIComponent(id) with ! ' ( ) * . ~ also percent-encoded.
    assert cache_file_name("6f1c2b9e-8a4d-4c3e-9b2a-1d2e3f4a5b6c") == "6f1c2b9e-8a4d-4c3e-9b2a-1d2e3f4a5b6c.json"
    assert cache_file_name("a.b~c/d é") == "a%2Eb%7Ec%2Fd%20%C3%A9.json"
    assert cache_file_name("x" * 300).startswith("~")


def test_error_type() -> None:
    error = MailrenderError("RENDER_ERROR", "bad", 422, [{"loc": ["a"], "msg": "m", "type": "t"}])
    copy = pickle.loads(pickle.dumps(error))
    assert (copy.code, copy.status, copy.message, copy.issues) == (
        error.code,
        error.status,
        error.message,
        error.issues,
    )
    assert str(error) == "bad"


def _schema(path: str) -> dict[str, Any]:
    return json.loads((REPO / path).read_text(encoding="utf-8"))


def test_template_json_matches_the_schema() -> None:
    schema = _schema("spec/template/v1/template.schema.json")
    assert set(TemplateJson.__annotations__) == set(schema["properties"])
    assert set(TemplateJson.__required_keys__) == set(schema["required"])


def test_dynamic_data_matches_the_engine_protocol() -> None:
    dd = _schema("spec/protocol/v1/request.schema.json")["properties"]["dynamic_data"]
    assert set(DynamicData.__annotations__) == set(dd["properties"])
    assert set(MergeTags.__annotations__) == set(dd["properties"]["merge_tags"]["properties"])
    assert set(CacheConfig.__annotations__) == set(constants.CACHE_KEYS)


def test_render_targets_match_the_protocol() -> None:
    targets: list[str] = _schema("spec/protocol/v1/request.schema.json")["properties"]["target"]["enum"]
    assert list(constants.RENDER_TARGETS) == targets


def test_layouts_join_parts_and_values_and_forget_the_least_recent() -> None:
    layouts = Layouts(max_entries=2)
    first: dict[str, Any] = {
        "ok": True,
        "layout": {"id": 0, "parts": ["<p>", '</p><a href="', '">x</a>']},
        "values": ["Ada", "https://a"],
    }
    assert layouts.resolve(first) is True
    assert first["output"] == '<p>Ada</p><a href="https://a">x</a>' and "layout" not in first and "values" not in first
    again: dict[str, Any] = {"ok": True, "layout": {"id": 0}, "values": ["Bo", ""]}
    assert layouts.resolve(again) and again["output"] == '<p>Bo</p><a href="">x</a>'
    assert layouts.resolve({"layout": {"id": 1, "parts": ["a"]}, "values": []})
    assert layouts.resolve({"layout": {"id": 2, "parts": ["b"]}, "values": []})  # drops id 0 (least recent)
    missing: dict[str, Any] = {"ok": True, "layout": {"id": 0}, "values": ["Cy", ""]}
    assert layouts.resolve(missing) is False and "output" not in missing
    plain: dict[str, Any] = {"ok": True, "output": "whole"}
    assert layouts.resolve(plain) and plain == {"ok": True, "output": "whole"}
    with pytest.raises(EngineProtocolError):
        layouts.resolve({"layout": {"id": 3, "parts": ["a", "b"]}, "values": []})


def test_engine_versions_that_speak_layouts() -> None:
    assert [
        engine_speaks_layouts({"engine_version": v})
        for v in ("1.0.0", "1.1.0", "1.12.3", "2.0.0", "1.1.0-rc.1", "x", None)
    ] == [
        False,
        True,
        True,
        True,
        True,
        False,
        False,
    ]


def test_saved_layout_keys_go_with_the_template_only() -> None:
    entry = CacheEntry(template_id="t", template={"rows": []}, etag='"1"', fetched_at_ms=0, scope=None)
    request = check_render_request("t", "html", None)
    with_template = json.loads(engine_request_line(1, entry, request, True, save_layout=True, saved_layout="L"))
    assert (with_template["save_layout"], with_template["saved_layout"]) == (True, "L")
    ref_only = json.loads(engine_request_line(2, entry, request, False, save_layout=True, saved_layout="L"))
    assert "save_layout" not in ref_only and "saved_layout" not in ref_only


def test_tells_an_engine_without_saved_layouts_from_other_refusals() -> None:
    def refused(loc: list[str], code: str = "BAD_REQUEST") -> dict[str, Any]:
        issue = {"loc": loc, "msg": "Unknown key", "type": "unrecognized_key"}
        return {"ok": False, "error": {"code": code, "message": "m", "issues": [issue]}}

    assert refused_saved_layouts(refused(["saved_layout"])) and refused_saved_layouts(refused(["save_layout"]))
    assert not refused_saved_layouts(refused(["dynamic_data", "x"]))
    assert not refused_saved_layouts(refused(["saved_layout"], "RENDER_ERROR"))
    assert not refused_saved_layouts({"ok": True, "output": "x"})
    assert not refused_saved_layouts({"ok": False, "error": {"code": "BAD_REQUEST", "issues": ["x", {"loc": "y"}]}})
