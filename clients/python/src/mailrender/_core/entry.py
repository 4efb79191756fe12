"""A cached template: the copy, its ETag, when the service last vouched for it, and the key's scope."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Optional

from .._constants import MAX_TEMPLATE_REF
from .._types import RenderTarget


def key_fingerprint(api_key: str) -> str:
    """A short one-way tag of the key for cache entries (same derivation as the JS and PHP clients).

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
    #: When the service last vouched for this copy (200 or 304): whole milliseconds since the epoch,
    #: on the wall clock because a disk cache is shared by processes (``freshness.cache_millis``).
    fetched_at_ms: int
    scope: Optional[CachedScope]
    #: The engine's template_ref: changes whenever the template does (id + ETag, or a content hash).
    ref: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.ref == "":
            object.__setattr__(self, "ref", template_ref(self.template_id, self.etag, self.template))


def template_ref(template_id: str, etag: Optional[str], template: Mapping[str, Any]) -> str:
    version = etag if etag else "sha256:" + hashlib.sha256(_canonical_json(template).encode("utf-8")).hexdigest()
    ref = f"{template_id}@{version}"
    if len(ref) > MAX_TEMPLATE_REF:
        ref = "sha256:" + hashlib.sha256(ref.encode("utf-8")).hexdigest()
    return ref


def _canonical_json(value: object) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
