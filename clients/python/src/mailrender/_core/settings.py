"""The sans-I/O core shared by the sync and async clients (openai-python's shape).

Everything that decides lives here and does no I/O: option checks, render-argument checks, the
template fetch request and how to read its answer, the retry schedule, key scope, cache freshness and
stale-on-error, the engine protocol's lines and envelopes. The shells (``_client.py``,
``_async_client.py``) only move bytes, sleep and wait, so both behave the same by construction.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
from collections import OrderedDict, abc
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from email.utils import parsedate_to_datetime
from typing import Any, Callable, Optional, Union, cast
from urllib.parse import quote, urlsplit

from ._constants import (
    CACHE_KEYS,
    DEFAULT_BASE_URL,
    DEFAULT_CACHE_MAX_ENTRIES,
    DEFAULT_CACHE_TTL_MS,
    DEFAULT_CACHE_TYPE,
    DEFAULT_DISK_CACHE_PATH,
    ENGINE_MAJOR,
    ENV_API_KEY,
    ENV_BASE_URL,
    ENV_ENGINE_PATH,
    LAYOUT_CACHE_MAX_ENTRIES,
    MAX_RETRIES,
    MAX_RETRY_AFTER,
    MAX_TEMPLATE_REF,
    PROTOCOL_VERSION,
    RENDER_TARGETS,
    RETRY_BASE_DELAY,
    TEMPLATE_PATH,
    USER_AGENT,
    VERSION,
)
from ._errors import MailrenderError, code_for_status, forbidden_target, invalid_request, is_retryable, may_serve_stale
from ._types import CacheType, DynamicData, RenderResult, RenderTarget, RenderWarning, ValidationIssue

# --------------------------------------------------------------------------------------------------
# Options


@dataclass(frozen=True)
class CacheSettings:
    type: CacheType
    path: str
    #: Seconds (the option is given in milliseconds).
    ttl: float
    max_entries: int


@dataclass(frozen=True)
class Settings:
    # repr=False: the key never shows up in a repr, a log line or a traceback's locals dump.
    api_key: str = field(repr=False)
    base_url: str
    timeout: float
    cache: CacheSettings
    engine_path: Optional[str]


def _non_empty(value: Optional[str]) -> Optional[str]:
    return None if value is None or value.strip() == "" else value.strip()


def _number(value: object, name: str, minimum: float, integer: bool) -> float:
    ok = isinstance(value, int) if integer else isinstance(value, (int, float))
    if isinstance(value, bool) or not ok:
        raise TypeError(f"MailrenderClient: {name} must be {'an integer' if integer else 'a number'}, got {value!r}")
    number = float(cast(float, value))
    if not math.isfinite(number) or number < minimum:
        raise ValueError(f"MailrenderClient: {name} must be >= {minimum:g}, got {value!r}")
    return number


def _resolve_api_key(api_key: Optional[str], env: Mapping[str, str]) -> str:
    if api_key is not None and not isinstance(cast(object, api_key), str):
        raise TypeError("MailrenderClient: api_key must be a string")
    key = _non_empty(env.get(ENV_API_KEY)) if api_key is None else _non_empty(api_key)
    if key is None:
        # Names where a key comes from, never a key's value.
        raise MailrenderError("INVALID_API_KEY", f"An API key is required: pass api_key= or set {ENV_API_KEY}", 0)
    if not all(" " <= c <= "~" for c in key):
        # It could not be sent in an Authorization header (httpx would raise UnicodeEncodeError), and
        # no issued key has such characters. The message never shows the key.
        raise MailrenderError(
            "INVALID_API_KEY",
            "The API key contains characters that cannot be sent in an HTTP header (only printable ASCII can be): check for a copy-paste accident",
        )
    return key


def _resolve_base_url(base_url: Optional[str], env: Mapping[str, str]) -> str:
    value = (_non_empty(env.get(ENV_BASE_URL)) or DEFAULT_BASE_URL) if base_url is None else base_url
    if not isinstance(cast(object, value), str) or value.strip() == "":
        raise TypeError("MailrenderClient: base_url must be a non-empty URL string")
    parts = urlsplit(value.strip())
    if parts.scheme not in ("http", "https") or parts.netloc == "":
        raise ValueError(f"MailrenderClient: base_url must be an http(s) URL such as {DEFAULT_BASE_URL}, got {value!r}")
    if parts.query or parts.fragment:
        raise ValueError("MailrenderClient: base_url must not carry a query or fragment")
    return value.strip().rstrip("/")


def _resolve_cache(cache: object) -> CacheSettings:
    raw: object = {} if cache is None else cache
    if not isinstance(raw, Mapping):
        raise TypeError('MailrenderClient: cache must be a dict: {"type", "path", "ttl", "max_entries"}')
    options = cast("Mapping[str, object]", raw)
    for key in options:
        if key not in CACHE_KEYS:
            hint = " (Python spells it max_entries)" if key == "maxEntries" else ""
            raise TypeError(
                f"MailrenderClient: unknown cache option {key!r}{hint}; known options: {', '.join(CACHE_KEYS)}"
            )
    kind = options.get("type", DEFAULT_CACHE_TYPE)
    if kind not in ("memory", "disk"):
        raise ValueError(f"MailrenderClient: cache type must be 'memory' or 'disk', got {kind!r}")
    path = options.get("path", DEFAULT_DISK_CACHE_PATH)
    if isinstance(path, os.PathLike):
        path = os.fspath(cast("os.PathLike[str]", path))
    if not isinstance(path, str) or path.strip() == "":
        raise TypeError("MailrenderClient: cache path must be a non-empty string")
    # Milliseconds, as the service contract, the JS and PHP clients and the maildeno SDK express it.
    ttl_ms = (
        DEFAULT_CACHE_TTL_MS if "ttl" not in options else _number(options["ttl"], "cache ttl (milliseconds)", 0, False)
    )
    max_entries = (
        DEFAULT_CACHE_MAX_ENTRIES
        if "max_entries" not in options
        else int(_number(options["max_entries"], "cache max_entries", 1, True))
    )
    return CacheSettings(type=kind, path=path, ttl=ttl_ms / 1000, max_entries=max_entries)


def resolve_settings(
    *,
    api_key: Optional[str],
    base_url: Optional[str],
    timeout: float,
    cache: object,
    engine_path: Optional[str],
    env: Mapping[str, str],
) -> Settings:
    """The complete, checked configuration; a bad option fails here, at construction."""
    if engine_path is not None:
        engine_path = os.fspath(engine_path)
        if not isinstance(cast(object, engine_path), str) or engine_path == "":
            raise TypeError("MailrenderClient: engine_path must be a non-empty path")
    return Settings(
        api_key=_resolve_api_key(api_key, env),
        base_url=_resolve_base_url(base_url, env),
        timeout=_number(timeout, "timeout (seconds)", 0.001, False),
        cache=_resolve_cache(cache),
        engine_path=engine_path,
    )


# --------------------------------------------------------------------------------------------------
# Render arguments


@dataclass(frozen=True)
class RenderRequest:
    template_id: str
    target: RenderTarget
    dynamic_data: Optional[DynamicData]
    minify: Optional[bool]
    strict: Optional[bool]
    plain_text: Optional[bool] = None


def check_render_request(
    template_id: object,
    target: object,
    dynamic_data: object,
    minify: object = None,
    strict: object = None,
    plain_text: object = None,
) -> RenderRequest:
    """Checks a render call's arguments; a bad one fails like the service's 422 for a bad body."""
    issues: list[ValidationIssue] = []
    if not isinstance(template_id, str) or template_id.strip() == "":
        issues.append({"loc": ["template_id"], "msg": "Input should be a non-empty string", "type": "string_type"})
    if target not in RENDER_TARGETS:
        allowed = ", ".join(f"'{t}'" for t in RENDER_TARGETS)
        issues.append({"loc": ["target"], "msg": f"Input should be {allowed}", "type": "literal_error"})
    # collections.abc's Mapping: isinstance with typing's alias costs several Python-level calls.
    if dynamic_data is not None and not isinstance(dynamic_data, abc.Mapping):
        issues.append(
            {"loc": ["dynamic_data"], "msg": "Input should be a dict: {merge_tags, context}", "type": "dict_type"}
        )
    elif isinstance(dynamic_data, abc.Mapping):
        for key in cast("Mapping[str, object]", dynamic_data):
            if key not in ("merge_tags", "context"):
                issues.append(
                    {
                        "loc": ["dynamic_data", str(key)],
                        "msg": "Extra inputs are not permitted",
                        "type": "extra_forbidden",
                    }
                )
    for name, value in (("minify", minify), ("strict", strict), ("plain_text", plain_text)):
        if value is not None and not isinstance(value, bool):
            issues.append({"loc": [name], "msg": "Input should be a valid boolean", "type": "bool_type"})
    if issues:
        raise invalid_request(issues)
    return RenderRequest(
        template_id=cast(str, template_id),
        target=cast(RenderTarget, target),
        dynamic_data=cast("Optional[DynamicData]", dynamic_data),
        minify=cast("Optional[bool]", minify),
        strict=cast("Optional[bool]", strict),
        plain_text=cast("Optional[bool]", plain_text),
    )


# --------------------------------------------------------------------------------------------------
# Key scope (X-Key-Targets) and cache entries


def key_fingerprint(api_key: str) -> str:
    """A short one-way tag of the key for cache entries (same derivation as the JS client).

    Domain-separated, so a cache file reveals neither the key nor the service's lookup hash.
    """
    return hashlib.sha256(b"mailrender-client-scope\x00" + api_key.encode("utf-8")).hexdigest()[:24]


@dataclass(frozen=True)
class CachedScope:
    """What the key may render, as the service reported it; ``key`` is a fingerprint, never the key."""

    key: str
    targets: tuple[RenderTarget, ...]
    #: False when the service sent no X-Key-Targets: ``targets`` are only those it accepted so far.
    complete: bool


@dataclass(frozen=True)
class CacheEntry:
    """One cached template. Expired entries are kept: they are the last good copy for stale-on-error."""

    template_id: str
    template: dict[str, Any]
    etag: Optional[str]
    #: When the service last vouched for this copy (200 or 304), seconds since the epoch (wall clock,
    #: because a disk cache is shared by processes).
    fetched_at: float
    scope: Optional[CachedScope]
    #: The engine's template_ref: changes whenever the template does (id + ETag, or a content hash).
    ref: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.ref == "":
            object.__setattr__(self, "ref", template_ref(self.template_id, self.etag, self.template))


def template_ref(template_id: str, etag: Optional[str], template: Mapping[str, Any]) -> str:
    version = etag if etag else "sha256:" + hashlib.sha256(canonical_json(template).encode("utf-8")).hexdigest()
    ref = f"{template_id}@{version}"
    if len(ref) > MAX_TEMPLATE_REF:
        ref = "sha256:" + hashlib.sha256(ref.encode("utf-8")).hexdigest()
    return ref


def canonical_json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


def learned_scope(
    fingerprint: str,
    header_targets: Optional[tuple[RenderTarget, ...]],
    previous: Optional[CachedScope],
    target: RenderTarget,
) -> CachedScope:
    """The scope to record after the service accepted a fetch for ``target``."""
    if header_targets is not None:
        return CachedScope(key=fingerprint, targets=header_targets, complete=True)
    # Without the header (an older service), the targets it accepted with ?target= are all we know.
    known = previous.targets if previous is not None and previous.key == fingerprint else ()
    return CachedScope(key=fingerprint, targets=known if target in known else (*known, target), complete=False)


def scope_verdict(scope: Optional[CachedScope], fingerprint: str, target: RenderTarget) -> str:
    """``allowed``, ``forbidden`` or ``unknown`` (ask the service) for ``target`` with this key."""
    if scope is None or scope.key != fingerprint:
        return "unknown"
    if target in scope.targets:
        return "allowed"
    return "forbidden" if scope.complete else "unknown"


def fresh_cached(
    cached: Optional[CacheEntry], fingerprint: str, target: RenderTarget, ttl: float, now: float
) -> Optional[CacheEntry]:
    """The entry to render from without a network call, or None to (re)fetch.

    Raises FORBIDDEN when the cached scope says the key may not render ``target``, with no request.
    """
    if cached is None:
        return None
    verdict = scope_verdict(cached.scope, fingerprint, target)
    if verdict == "forbidden" and cached.scope is not None:
        raise forbidden_target(cached.scope.targets, target)
    if verdict == "allowed" and now - cached.fetched_at < ttl:
        return cached
    return None


# --------------------------------------------------------------------------------------------------
# The template fetch


@dataclass(frozen=True)
class HttpRequest:
    method: str
    url: str
    headers: dict[str, str] = field(repr=False)  # holds the Authorization header


@dataclass(frozen=True)
class Fetched:
    template: dict[str, Any]
    etag: Optional[str]
    key_targets: Optional[tuple[RenderTarget, ...]]


@dataclass(frozen=True)
class NotModified:
    etag: Optional[str]
    key_targets: Optional[tuple[RenderTarget, ...]]


@dataclass(frozen=True)
class FetchFailure:
    error: MailrenderError
    #: Seconds the service asked us to wait (Retry-After), if it said.
    retry_after: Optional[float] = None


FetchOutcome = Union[Fetched, NotModified, FetchFailure]


def build_fetch_request(settings: Settings, template_id: str, target: RenderTarget, etag: Optional[str]) -> HttpRequest:
    url = f"{settings.base_url}{TEMPLATE_PATH}{quote(template_id, safe='')}?target={quote(target, safe='')}"
    headers = {"authorization": f"Bearer {settings.api_key}", "accept": "application/json", "user-agent": USER_AGENT}
    if etag is not None:
        headers["if-none-match"] = etag
    return HttpRequest("GET", url, headers)


def parse_key_targets(header: Optional[str]) -> Optional[tuple[RenderTarget, ...]]:
    """``X-Key-Targets: html,mjml`` as known targets; None when the header is absent."""
    if header is None:
        return None
    listed = [t.strip() for t in header.split(",")]
    return tuple(t for t in RENDER_TARGETS if t in listed)


def parse_retry_after(value: Optional[str], now: float) -> Optional[float]:
    """Retry-After as delta-seconds or an HTTP-date, in seconds from ``now``; None when unreadable."""
    if value is None or value.strip() == "":
        return None
    text = value.strip()
    if text.isdigit():
        return float(text)
    try:
        return max(0.0, parsedate_to_datetime(text).timestamp() - now)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


def _is_issue(value: object) -> bool:
    if not isinstance(value, dict):
        return False
    item = cast("dict[str, object]", value)
    return isinstance(item.get("loc"), list) and isinstance(item.get("msg"), str) and isinstance(item.get("type"), str)


def issues_from(value: object) -> list[ValidationIssue]:
    if not isinstance(value, list):
        return []
    out: list[ValidationIssue] = []
    for raw in cast("list[object]", value):
        if _is_issue(raw):
            item = cast("dict[str, Any]", raw)
            out.append(
                {"loc": [str(p) for p in cast("list[object]", item["loc"])], "msg": item["msg"], "type": item["type"]}
            )
    return out


def _error_from_response(status: int, body: bytes) -> MailrenderError:
    """The service's ``{code, message, issues}`` body mapped to the client's codes by status."""
    try:
        doc: object = json.loads(body)
    except ValueError:
        doc = None
    info = cast("dict[str, object]", doc) if isinstance(doc, dict) else {}
    message = info.get("message")
    text = message if isinstance(message, str) else f"The service answered HTTP {status}"
    return MailrenderError(code_for_status(status), text, status, issues_from(info.get("issues")))


def interpret_response(status: int, headers: Mapping[str, str], body: bytes, now: float) -> FetchOutcome:
    """One answer to the template fetch. ``headers`` must be case-insensitive (httpx.Headers is)."""
    key_targets = parse_key_targets(headers.get("x-key-targets"))
    etag = headers.get("etag")
    if status == 304:
        return NotModified(etag, key_targets)
    if status == 200:
        try:
            doc: object = json.loads(body)
        except ValueError:
            doc = None
        if not isinstance(doc, dict):
            return FetchFailure(
                MailrenderError(
                    "UNKNOWN", "The service answered 200 with a body that is not a template JSON object", 200
                )
            )
        return Fetched(cast("dict[str, Any]", doc), etag, key_targets)
    return FetchFailure(_error_from_response(status, body), parse_retry_after(headers.get("retry-after"), now))


def timeout_failure(settings: Settings) -> FetchFailure:
    # Messages name the service address, never the key.
    return FetchFailure(
        MailrenderError("TIMEOUT", f"No answer from {settings.base_url} within {settings.timeout:g} s", 0)
    )


def network_failure(settings: Settings, detail: str) -> FetchFailure:
    return FetchFailure(MailrenderError("NETWORK_ERROR", f"Could not reach {settings.base_url}: {detail}", 0))


def backoff_delay(retry_index: int, random: Callable[[], float]) -> float:
    """Jittered exponential backoff: BASE * 2**n scaled into [0.5, 1) so clients that failed together spread out."""
    return RETRY_BASE_DELAY * (2**retry_index) * (0.5 + random() / 2)


def retry_delay(outcome: FetchOutcome, retry_index: int, random: Callable[[], float]) -> Optional[float]:
    """Seconds to wait before retry ``retry_index`` (0-based), or None to stop and use ``outcome``."""
    if not isinstance(outcome, FetchFailure) or retry_index >= MAX_RETRIES or not is_retryable(outcome.error):
        return None
    if outcome.retry_after is not None:
        # The service's Retry-After wins over our schedule; one longer than we are willing to wait ends the tries.
        return None if outcome.retry_after > MAX_RETRY_AFTER else outcome.retry_after
    return backoff_delay(retry_index, random)


@dataclass(frozen=True)
class Resolved:
    entry: CacheEntry
    stale: bool


@dataclass(frozen=True)
class Settled:
    """What a finished fetch means: a result (maybe stale) or an error, plus cache changes to make."""

    resolved: Optional[Resolved]
    error: Optional[MailrenderError]
    #: The entry to write to the cache (None: nothing to write).
    store: Optional[CacheEntry] = None
    #: Drop the cached entry (the template is gone: 404).
    drop: bool = False


def settle_fetch(
    template_id: str,
    target: RenderTarget,
    cached: Optional[CacheEntry],
    outcome: FetchOutcome,
    fingerprint: str,
    now: float,
) -> Settled:
    if isinstance(outcome, FetchFailure):
        error = outcome.error
        drop = error.code == "TEMPLATE_NOT_FOUND"
        if cached is not None and may_serve_stale(error, scope_verdict(cached.scope, fingerprint, target)):
            return Settled(Resolved(cached, stale=True), None)
        return Settled(None, error, drop=drop)
    scope = learned_scope(fingerprint, outcome.key_targets, cached.scope if cached is not None else None, target)
    if isinstance(outcome, NotModified):
        if cached is None:
            return Settled(
                None, MailrenderError("UNKNOWN", "The service answered 304 to a request that had no If-None-Match", 304)
            )
        entry = replace(cached, etag=outcome.etag or cached.etag, fetched_at=now, scope=scope, ref="")
    else:
        entry = CacheEntry(
            template_id=template_id, template=outcome.template, etag=outcome.etag, fetched_at=now, scope=scope
        )
    error = (
        forbidden_target(scope.targets, target) if scope_verdict(scope, fingerprint, target) == "forbidden" else None
    )
    # The entry is stored even when this target is refused: other targets may render from it.
    return Settled(None if error else Resolved(entry, stale=False), error, store=entry)


# --------------------------------------------------------------------------------------------------
# Cache entry files (the JS client's format, so both clients can share one folder)

_ENTRY_FORMAT = 1


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
            "fetchedAt": round(entry.fetched_at * 1000),
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
        template_id=tid, template=cast("dict[str, Any]", template), etag=etag, fetched_at=fetched / 1000, scope=scope
    )


def cache_file_name(template_id: str) -> str:
    """A file-name-safe, reversible name (JS: encodeURIComponent plus ``!'()*.~``); long ids are hashed."""
    encoded = quote(template_id, safe="").replace(".", "%2E").replace("~", "%7E")
    if len(encoded) > 200:
        encoded = "~" + hashlib.sha256(template_id.encode("utf-8")).hexdigest()
    return encoded + ".json"


# --------------------------------------------------------------------------------------------------
# The engine protocol (spec/README.md, version 1)


class EngineProtocolError(Exception):
    """The process answered something that is not a protocol-1 envelope (a wrong or broken engine)."""


def engine_request_line(
    request_id: int,
    entry: CacheEntry,
    request: RenderRequest,
    include_template: bool,
    layout: bool = False,
    layout_parts: bool = False,
) -> bytes:
    """One ``--serve`` request line; the template goes along only when the process may not hold the ref.

    ``layout`` asks for output_format "layout" (spec/README.md): the process sends each layout's
    parts once and then only the recipient's values; ``layout_parts`` asks for the parts again.
    """
    doc: dict[str, Any] = {"id": request_id, "template_ref": entry.ref, "target": request.target}
    if include_template:
        doc["template"] = entry.template
    if request.dynamic_data is not None:
        doc["dynamic_data"] = request.dynamic_data
    options: dict[str, bool] = {}
    if request.minify is not None:
        options["minify"] = request.minify
    if request.strict is not None:
        options["strict"] = request.strict
    if request.plain_text is not None:
        options["plain_text"] = request.plain_text
    if options:
        doc["options"] = options
    if layout:
        doc["output_format"] = "layout"
        if layout_parts:
            doc["layout_parts"] = True
    # ensure_ascii keeps the line pure ASCII: no raw U+2028 or invalid surrogates can reach the engine.
    return json.dumps(doc, separators=(",", ":")).encode("ascii") + b"\n"


def engine_speaks_layouts(envelope: Mapping[str, Any]) -> bool:
    """output_format "layout" came with engine 1.1; an older engine refuses the key as a bad request."""
    version = envelope.get("engine_version")
    if not isinstance(version, str):
        return False
    numbers = version.split("-")[0].split(".")
    try:
        return (int(numbers[0]), int(numbers[1])) >= (1, 1)
    except (ValueError, IndexError):
        return False


class Layouts:
    """The layouts one engine process has sent, by id, so its ``values``-only answers become output.

    Ids are per process: a new process needs a new ``Layouts``. Bounded: the least recently used
    layout goes first, and an answer naming a dropped one is re-requested with ``layout_parts``.
    """

    def __init__(self, max_entries: int = LAYOUT_CACHE_MAX_ENTRIES) -> None:
        self._parts: OrderedDict[int, list[str]] = OrderedDict()
        self._max_entries = max_entries

    def __len__(self) -> int:
        return len(self._parts)

    def resolve(self, envelope: dict[str, Any]) -> bool:
        """Turns an ok layout answer into an ordinary one (``output``) in place; False if its parts
        are not kept (ask again with ``layout_parts``). Any other envelope is left as it is."""
        layout = envelope.get("layout")
        if not isinstance(layout, dict):
            return True
        layout = cast("dict[str, Any]", layout)
        layout_id = layout.get("id")
        values = envelope.get("values")
        if not isinstance(layout_id, int) or not isinstance(values, list):
            raise EngineProtocolError(f"the engine sent a malformed layout answer: {str(envelope)[:120]}")
        parts = layout.get("parts")
        if isinstance(parts, list):
            self._parts[layout_id] = cast("list[str]", parts)
            if len(self._parts) > self._max_entries:
                self._parts.popitem(last=False)
        else:
            parts = self._parts.get(layout_id)
            if parts is None:
                return False
            self._parts.move_to_end(layout_id)
        parts = cast("list[str]", parts)
        values = cast("list[str]", values)
        if len(values) != len(parts) - 1:
            raise EngineProtocolError(f"the engine sent {len(values)} values for a layout of {len(parts)} parts")
        pieces = [parts[0]] * (2 * len(values) + 1)
        pieces[1::2] = values
        pieces[2::2] = parts[1:]
        envelope["output"] = "".join(pieces)
        del envelope["layout"], envelope["values"]
        return True


def parse_envelope(line: bytes) -> dict[str, Any]:
    try:
        doc: object = json.loads(line)
    except ValueError:
        raise EngineProtocolError(f"the engine wrote a line that is not JSON: {line[:120]!r}") from None
    # Only "an object" is required here: check_handshake then names a wrong engine's versions.
    if not isinstance(doc, dict):
        raise EngineProtocolError(f"the engine wrote JSON that is not a response envelope: {line[:120]!r}")
    return cast("dict[str, Any]", doc)


def check_handshake(envelope: Mapping[str, Any], engine_path: str) -> None:
    """The version handshake: refuse an engine that speaks another protocol or is another major."""
    protocol = envelope.get("protocol_version")
    version = envelope.get("engine_version")
    major = str(version).split(".")[0] if isinstance(version, str) else ""
    if protocol != PROTOCOL_VERSION or major != str(ENGINE_MAJOR):
        raise MailrenderError(
            "UNKNOWN",
            f"The mailrender engine at {engine_path} is engine {version!r} speaking protocol {protocol!r}, but mailrender "
            f"{VERSION} needs engine {ENGINE_MAJOR}.x speaking protocol {PROTOCOL_VERSION}. Reinstall mailrender "
            f"(its wheel bundles a matching engine), or point engine_path= / {ENV_ENGINE_PATH} at a matching mailrender-engine.",
            0,
        )


def is_ref_unknown(envelope: Mapping[str, Any]) -> bool:
    error = envelope.get("error")
    return (
        envelope.get("ok") is False
        and isinstance(error, dict)
        and cast("dict[str, object]", error).get("code") == "TEMPLATE_REF_UNKNOWN"
    )


def result_from_envelope(envelope: Mapping[str, Any], request: RenderRequest, stale: bool) -> RenderResult:
    if envelope.get("ok") is True:
        output = envelope.get("output")
        if not isinstance(output, str):
            return _raise(MailrenderError("UNKNOWN", "The mailrender engine answered ok without an output"))
        warnings: list[RenderWarning] = []
        for raw in cast("Sequence[Any]", envelope.get("warnings") or []):
            w = cast("dict[str, Any]", raw)
            path = cast("list[object]", w.get("path") or [])
            warnings.append(
                RenderWarning(code=str(w.get("code")), message=str(w.get("message")), path=tuple(str(p) for p in path))
            )
        return RenderResult(
            output=output,
            target=request.target,
            template_id=request.template_id,
            from_stale_cache=stale,
            warnings=tuple(warnings),
            text=str(envelope["text"]) if "text" in envelope else None,
        )
    error = cast("dict[str, Any]", envelope.get("error") or {})
    code, message = str(error.get("code")), str(error.get("message"))
    if code == "RENDER_ERROR":
        # 422 like the service's render endpoint gives for the same failure, so both paths compare equal.
        return _raise(MailrenderError("RENDER_ERROR", message, 422, issues_from(error.get("issues"))))
    if code in ("BAD_REQUEST", "REQUEST_TOO_LARGE", "INVALID_JSON"):
        # The engine refused the request itself: the caller's dynamic data (or its size) is the cause.
        return _raise(
            MailrenderError(
                "RENDER_ERROR",
                f"The engine refused the render request ({code}): {message}",
                422,
                issues_from(error.get("issues")),
            )
        )
    return _raise(MailrenderError("UNKNOWN", f"The engine failed ({code}): {message}", 0))


def _raise(error: MailrenderError) -> RenderResult:
    raise error
