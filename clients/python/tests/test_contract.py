"""The shared client contract (spec/clients.md): every fixtures/client/v1 file against the pure core."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any, Optional

import pytest
from mailrender import MailrenderError
from mailrender._constants import USER_AGENT
from mailrender._core.entry import CachedScope, CacheEntry, key_fingerprint
from mailrender._core.entry_file import cache_file_name, layout_file_name, parse_entry, serialize_entry
from mailrender._core.fetch import FetchFailure, parse_retry_after
from mailrender._core.freshness import cache_millis, is_fresh, scope_verdict
from mailrender._core.protocol import result_from_envelope
from mailrender._core.render_request import RenderRequest
from mailrender._core.retry import retry_delay
from mailrender._errors import code_for_status, may_serve_stale

DIR = Path(__file__).resolve().parents[3] / "fixtures" / "client" / "v1"


def cases(name: str) -> list[dict[str, Any]]:
    return json.loads((DIR / name).read_text(encoding="utf-8"))["cases"]


def ids(name: str) -> list[str]:
    return [str(c.get("name", i)) for i, c in enumerate(cases(name))]


def error(e: dict[str, Any]) -> MailrenderError:
    return MailrenderError(e["code"], "fixture", e["status"])


def scope_of(raw: Optional[dict[str, Any]]) -> Optional[CachedScope]:
    return None if raw is None else CachedScope(key=raw["key"], targets=tuple(raw["targets"]), complete=raw["complete"])


def entry_doc(entry: Optional[CacheEntry]) -> Optional[dict[str, Any]]:
    if entry is None:
        return None
    scope = (
        None
        if entry.scope is None
        else {"key": entry.scope.key, "targets": list(entry.scope.targets), "complete": entry.scope.complete}
    )
    return {
        "templateId": entry.template_id,
        "template": entry.template,
        "etag": entry.etag,
        "fetchedAt": entry.fetched_at_ms,
        "scope": scope,
    }


def test_every_fixture_file_is_run() -> None:
    here = Path(__file__).read_text(encoding="utf-8")
    for path in DIR.glob("*.json"):
        assert f'"{path.name}"' in here, f"{path.name} is not run by the Python client"


@pytest.mark.parametrize("case", cases("status-code.json"), ids=ids("status-code.json"))
def test_status_code(case: dict[str, Any]) -> None:
    assert code_for_status(case["status"]) == case["code"]


@pytest.mark.parametrize("case", cases("retry-after.json"), ids=ids("retry-after.json"))
def test_retry_after(case: dict[str, Any]) -> None:
    seconds = parse_retry_after(case["header"], case["now_ms"] / 1000)
    assert (None if seconds is None else round(seconds * 1000)) == case["ms"]


@pytest.mark.parametrize("case", cases("retry-delay.json"), ids=ids("retry-delay.json"))
def test_retry_delay(case: dict[str, Any]) -> None:
    after = case["retry_after_ms"]
    outcome = FetchFailure(error(case["error"]), None if after is None else after / 1000)
    seconds = retry_delay(outcome, case["retry_index"], lambda: float(case["random"]))
    assert (None if seconds is None else round(seconds * 1000)) == case["delay_ms"]


@pytest.mark.parametrize("case", cases("key-fingerprint.json"), ids=ids("key-fingerprint.json"))
def test_key_fingerprint(case: dict[str, Any]) -> None:
    assert key_fingerprint(case["api_key"]) == case["fingerprint"]


@pytest.mark.parametrize("case", cases("scope-verdict.json"), ids=ids("scope-verdict.json"))
def test_scope_verdict(case: dict[str, Any]) -> None:
    assert scope_verdict(scope_of(case["scope"]), case["fingerprint"], case["target"]) == case["verdict"]


@pytest.mark.parametrize("case", cases("stale-or-raise.json"), ids=ids("stale-or-raise.json"))
def test_stale_or_raise(case: dict[str, Any]) -> None:
    assert ("stale" if may_serve_stale(error(case["error"]), case["verdict"]) else "raise") == case["outcome"]


@pytest.mark.parametrize("case", cases("cache-file-name.json"), ids=ids("cache-file-name.json"))
def test_cache_file_name(case: dict[str, Any]) -> None:
    assert cache_file_name(case["template_id"]) == case["file_name"]


@pytest.mark.parametrize("case", cases("cache-layout-file-name.json"), ids=ids("cache-layout-file-name.json"))
def test_cache_layout_file_name(case: dict[str, Any]) -> None:
    assert layout_file_name(case["template_id"], case["target"], case["minify"]) == case["file_name"]


@pytest.mark.parametrize("case", cases("cache-entry-read.json"), ids=ids("cache-entry-read.json"))
def test_cache_entry_read(case: dict[str, Any]) -> None:
    assert entry_doc(parse_entry(case["file"], case["template_id"])) == case["entry"]


@pytest.mark.parametrize("case", cases("cache-entry-write.json"), ids=ids("cache-entry-write.json"))
def test_cache_entry_write(case: dict[str, Any]) -> None:
    e = case["entry"]
    entry = CacheEntry(
        template_id=e["templateId"],
        template=e["template"],
        etag=e["etag"],
        fetched_at_ms=e["fetchedAt"],
        scope=scope_of(e["scope"]),
    )
    assert json.loads(serialize_entry(entry)) == case["file"]


@pytest.mark.parametrize("case", cases("cache-time.json"), ids=ids("cache-time.json"))
def test_cache_time(case: dict[str, Any]) -> None:
    fetched_at = cache_millis(case["written_at"])
    assert fetched_at == case["fetched_at"] and isinstance(fetched_at, int)
    assert is_fresh(fetched_at, cache_millis(case["read_at"]), case["ttl"]) == case["fresh"]


@pytest.mark.parametrize("case", cases("engine-envelope.json"), ids=ids("engine-envelope.json"))
def test_engine_envelope(case: dict[str, Any]) -> None:
    request = RenderRequest(template_id="t", target="html", dynamic_data=None, minify=None, strict=None)
    if "result" in case:
        result = result_from_envelope(case["envelope"], request, False)
        warnings = [{"code": w.code, "message": w.message, "path": list(w.path)} for w in result.warnings]
        assert {"output": result.output, "warnings": warnings} == case["result"]
        return
    with pytest.raises(MailrenderError) as raised:
        result_from_envelope(case["envelope"], request, False)
    assert {"code": raised.value.code, "status": raised.value.status, "issues": raised.value.issues} == case["error"]


def test_user_agent() -> None:
    fixture: dict[str, Any] = json.loads((DIR / "user-agent.json").read_text(encoding="utf-8"))
    pattern = re.compile(str(fixture["pattern"]))
    for case in fixture["cases"]:
        assert bool(pattern.match(case["user_agent"])) == case["valid"]
    assert pattern.match(USER_AGENT) and USER_AGENT.startswith("mailrender-python/")
