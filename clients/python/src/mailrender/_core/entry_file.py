"""The disk cache's file names (entries and saved layouts) and entry format, the same in the JS, Python and PHP clients, so
processes in different languages can share one folder (spec/clients.md, "Disk cache")."""

from __future__ import annotations

import hashlib
import json
import math
from typing import Any, Optional, Union, cast
from urllib.parse import quote

from .._constants import RENDER_TARGETS
from .._types import RenderTarget
from .entry import CachedScope, CacheEntry
from .freshness import cache_millis

_ENTRY_FORMAT = 1
ENTRY_SUFFIX = ".json"
LAYOUT_SUFFIX = ".layout"


def serialize_entry(entry: CacheEntry) -> str:
    scope = (
        None
        if entry.scope is None
        else {"key": entry.scope.key, "targets": list(entry.scope.targets), "complete": entry.scope.complete}
    )
    return json.dumps(
        {
            "format": _ENTRY_FORMAT,
            "templateId": entry.template_id,
            "template": entry.template,
            "etag": entry.etag,
            "fetchedAt": entry.fetched_at_ms,
            "scope": scope,
        },
        ensure_ascii=False,
        separators=(",", ":"),
    )


def parse_entry(text: Union[str, bytes], template_id: Optional[str] = None) -> Optional[CacheEntry]:
    """The entry in ``text``, or None when it is not a well-formed entry (for ``template_id``): a miss."""
    try:
        doc: object = json.loads(text)
    except ValueError:
        return None
    if not isinstance(doc, dict):
        return None
    d = cast("dict[str, object]", doc)
    tid, template, etag, fetched = d.get("templateId"), d.get("template"), d.get("etag"), d.get("fetchedAt")
    if d.get("format") != _ENTRY_FORMAT or not isinstance(tid, str) or (template_id is not None and tid != template_id):
        return None
    if not isinstance(template, dict) or not (etag is None or isinstance(etag, str)):
        return None
    if isinstance(fetched, bool) or not isinstance(fetched, (int, float)) or not math.isfinite(fetched):
        return None
    raw_scope = d.get("scope")
    scope: Optional[CachedScope] = None
    if raw_scope is not None:
        if not isinstance(raw_scope, dict):
            return None
        s = cast("dict[str, object]", raw_scope)
        key, targets, complete = s.get("key"), s.get("targets"), s.get("complete")
        if not isinstance(key, str) or not isinstance(targets, list) or not isinstance(complete, bool):
            return None
        listed = cast("list[object]", targets)
        known: tuple[RenderTarget, ...] = tuple(t for t in RENDER_TARGETS if t in listed)
        if len(known) != len(listed):
            return None
        scope = CachedScope(key=key, targets=known, complete=complete)
    return CacheEntry(
        template_id=tid,
        template=cast("dict[str, Any]", template),
        etag=etag,
        fetched_at_ms=cache_millis(fetched),
        scope=scope,
    )


def cache_file_name(template_id: str) -> str:
    """A file-name-safe, reversible name (JS: encodeURIComponent plus ``!'()*.~``); long ids are hashed."""
    encoded = quote(template_id, safe="").replace(".", "%2E").replace("~", "%7E")
    if len(encoded) > 200:
        encoded = "~" + hashlib.sha256(template_id.encode("utf-8")).hexdigest()
    return encoded + ENTRY_SUFFIX


def layout_file_name(template_id: str, target: str, minify: bool) -> str:
    """The file beside a template's entry that keeps its saved layout for a target and minification
    (spec/clients.md, "Saved layouts"): ``welcome.html.layout``, ``welcome.mjml-unminified.layout``."""
    stem = cache_file_name(template_id)[: -len(ENTRY_SUFFIX)]
    return f"{stem}.{target}{'' if minify else '-unminified'}{LAYOUT_SUFFIX}"


def layouts_prefix(entry_file_name: str) -> str:
    """What the names of an entry's saved layouts start with (they end with ``LAYOUT_SUFFIX``)."""
    return entry_file_name[: -len(ENTRY_SUFFIX)] + "."
