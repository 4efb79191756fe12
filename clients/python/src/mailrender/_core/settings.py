"""The client's options, checked once at construction: a bad option fails there, naming it."""

from __future__ import annotations

import math
import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Optional, cast
from urllib.parse import urlsplit

from .._constants import (
    CACHE_KEYS,
    DEFAULT_BASE_URL,
    DEFAULT_CACHE_MAX_ENTRIES,
    DEFAULT_CACHE_TTL_MS,
    DEFAULT_CACHE_TYPE,
    DEFAULT_DISK_CACHE_PATH,
    ENV_API_KEY,
    ENV_BASE_URL,
)
from .._errors import MailrenderError
from .._types import CacheType


@dataclass(frozen=True)
class CacheSettings:
    type: CacheType
    path: str
    #: Milliseconds, as the option is given and as cache times are kept (``freshness``).
    ttl_ms: float
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
    return CacheSettings(type=kind, path=path, ttl_ms=ttl_ms, max_entries=max_entries)


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
