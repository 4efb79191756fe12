"""When a cached copy may be used: cache times, the key's scope, and what a finished fetch means.

Cache times are whole milliseconds on the wall clock, floored (spec/clients.md, "Cache times"), in
every client: a copy written by one process and read by another in the same millisecond has age 0,
never a negative one, so ``ttl`` 0 is never fresh.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import Optional

from .._errors import MailrenderError, forbidden_target, may_serve_stale
from .._types import RenderTarget
from .entry import CachedScope, CacheEntry
from .fetch import FetchFailure, FetchOutcome, NotModified


def cache_millis(clock_ms: float) -> int:
    """A clock reading in milliseconds as a cache time: floored to the whole millisecond."""
    return math.floor(clock_ms)


def is_fresh(fetched_at_ms: int, now_ms: int, ttl_ms: float) -> bool:
    """Fresh while ``0 <= age < ttl``. A negative age (a fetchedAt in the future: another machine's
    clock, or a clock set back) is stale: the copy is revalidated rather than trusted for longer."""
    age = now_ms - fetched_at_ms
    return 0 <= age < ttl_ms


def scope_verdict(scope: Optional[CachedScope], fingerprint: str, target: RenderTarget) -> str:
    """``allowed``, ``forbidden`` or ``unknown`` (ask the service) for ``target`` with this key."""
    if scope is None or scope.key != fingerprint:
        return "unknown"
    if target in scope.targets:
        return "allowed"
    return "forbidden" if scope.complete else "unknown"


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


def fresh_cached(
    cached: Optional[CacheEntry], fingerprint: str, target: RenderTarget, ttl_ms: float, now_ms: int
) -> Optional[CacheEntry]:
    """The entry to render from without a network call, or None to (re)fetch.

    Raises FORBIDDEN when the cached scope says the key may not render ``target``, with no request.
    """
    if cached is None:
        return None
    verdict = scope_verdict(cached.scope, fingerprint, target)
    if verdict == "forbidden" and cached.scope is not None:
        raise forbidden_target(cached.scope.targets, target)
    if verdict == "allowed" and is_fresh(cached.fetched_at_ms, now_ms, ttl_ms):
        return cached
    return None


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
    now_ms: int,
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
        entry = replace(cached, etag=outcome.etag or cached.etag, fetched_at_ms=now_ms, scope=scope, ref="")
    else:
        entry = CacheEntry(
            template_id=template_id, template=outcome.template, etag=outcome.etag, fetched_at_ms=now_ms, scope=scope
        )
    error = (
        forbidden_target(scope.targets, target) if scope_verdict(scope, fingerprint, target) == "forbidden" else None
    )
    # The entry is stored even when this target is refused: other targets may render from it.
    return Settled(None if error else Resolved(entry, stale=False), error, store=entry)
