"""MailrenderClient: the synchronous shell around the sans-I/O core.

Order of a render: check the arguments → cached entry fresh and in scope? render from it → else
(re)fetch, conditional on the cached ETag, with retries for outages → on an outage use the expired
copy (stale-on-error) → render through the engine process. Merge tags and context go only to the
local engine process, never to the service.
"""

from __future__ import annotations

import os
import threading
import time
import warnings
from types import TracebackType
from typing import TYPE_CHECKING, Callable, Optional, cast

from ._cache import CacheStore, keep_layout, layout_loader, make_cache, wall_clock_ms
from ._constants import DEFAULT_TARGET, DEFAULT_TIMEOUT
from ._core.entry import CacheEntry, key_fingerprint
from ._core.fetch import FetchOutcome, build_fetch_request, interpret_response, network_failure, timeout_failure
from ._core.freshness import Resolved, fresh_cached, settle_fetch
from ._core.protocol import result_from_envelope
from ._core.render_request import RenderRequest, check_render_request
from ._core.retry import retry_delay
from ._core.settings import resolve_settings
from ._engine_discovery import find_engine
from ._types import CacheConfig, DynamicData, RenderResult, RenderTarget

if TYPE_CHECKING:
    # Imported when a client is made, not by ``import mailrender``: what a program that only imports
    # the package never uses costs it nothing (see __init__.py).
    from concurrent.futures import Future

    import httpx


_FlightKey = tuple[str, str]


def describe_http_error(error: httpx.HTTPError) -> str:
    """A short cause for NETWORK_ERROR messages (httpx's text names the URL at most, never headers)."""
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


class MailrenderClient:
    """Fetches template JSON from the service (cached) and renders it with the bundled engine.

    ``api_key`` falls back to ``MAILRENDER_API_KEY``; ``base_url`` to ``MAILRENDER_BASE_URL`` then
    ``http://localhost:8787``; ``timeout`` is seconds per HTTP attempt; ``cache`` is a CacheConfig
    (``ttl`` in milliseconds); ``http_client`` is an ``httpx.Client`` you own (we never close it);
    ``engine_path`` overrides ``MAILRENDER_ENGINE_PATH`` and the engine bundled in the package.
    """

    def __init__(
        self,
        api_key: Optional[str] = None,
        *,
        base_url: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
        cache: Optional[CacheConfig] = None,
        http_client: Optional[httpx.Client] = None,
        engine_path: Optional[str] = None,
    ) -> None:
        import httpx

        from ._engine import EngineRunner

        env = dict(os.environ)
        self._settings = resolve_settings(
            api_key=api_key, base_url=base_url, timeout=timeout, cache=cache, engine_path=engine_path, env=env
        )
        if http_client is not None and not isinstance(cast(object, http_client), httpx.Client):
            raise TypeError(
                "MailrenderClient: http_client must be an httpx.Client (AsyncMailrenderClient takes an httpx.AsyncClient)"
            )
        # Found now, so a missing engine fails at construction; the process itself starts on first render.
        engine = find_engine(self._settings.engine_path, env)
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.Client()
        self._cache: CacheStore = make_cache(
            self._settings.cache.type, self._settings.cache.path, self._settings.cache.max_entries
        )
        self._fingerprint = key_fingerprint(self._settings.api_key)
        self._engine = EngineRunner(engine, env)
        self._flights: dict[_FlightKey, Future[Resolved]] = {}
        self._flights_lock = threading.Lock()
        self._cache_write_warned = False
        self._closed = False

    def __repr__(self) -> str:
        return f"MailrenderClient(base_url={self._settings.base_url!r}, cache={self._settings.cache.type!r})"

    @property
    def base_url(self) -> str:
        return self._settings.base_url

    # ---------------------------------------------------------------- rendering

    def render(
        self,
        *,
        template_id: str,
        target: RenderTarget = DEFAULT_TARGET,
        dynamic_data: Optional[DynamicData] = None,
        minify: Optional[bool] = None,
        strict: Optional[bool] = None,
        plain_text: Optional[bool] = None,
        component_props: Optional[bool] = None,
    ) -> RenderResult:
        """Renders a template for one recipient. ``minify`` (default True) and ``strict`` (default
        False: a missing merge tag is a warning, not a RENDER_ERROR) are the engine's options;
        ``plain_text=True`` also returns ``text``, the email's plain-text version. With target
        ``react-email``, ``component_props=True`` returns a component taking a recipient's merge tags
        and context as props (no ``dynamic_data``, ``strict`` or ``plain_text`` beside it)."""
        self._check_open()
        request = check_render_request(template_id, target, dynamic_data, minify, strict, plain_text, component_props)
        resolved = self._resolve(request)
        envelope = self._engine.render(resolved.entry, request, layout_loader(self._cache, request))
        write = keep_layout(self._cache, request, envelope)
        if write is not None:
            self._keep(write, stacklevel=2)
        return result_from_envelope(envelope, request, resolved.stale)

    def render_html(self, template_id: str, dynamic_data: Optional[DynamicData] = None) -> str:
        return self.render(template_id=template_id, target="html", dynamic_data=dynamic_data).output

    def render_react(self, template_id: str, dynamic_data: Optional[DynamicData] = None) -> str:
        return self.render(template_id=template_id, target="react-email", dynamic_data=dynamic_data).output

    def render_mjml(self, template_id: str, dynamic_data: Optional[DynamicData] = None) -> str:
        return self.render(template_id=template_id, target="mjml", dynamic_data=dynamic_data).output

    # ---------------------------------------------------------------- cache management

    def list_cached(self) -> list[str]:
        """Ids of the cached templates (fresh or expired)."""
        return self._cache.list()

    def delete_cached(self, template_id: str) -> bool:
        """Removes one template from the cache; True when it was there."""
        return self._cache.delete(template_id)

    def clear_cache(self) -> None:
        self._cache.clear()

    def invalidate(self, template_id: str) -> bool:
        """Deprecated since 2.0.0: use ``delete_cached(template_id)``."""
        warnings.warn(
            "MailrenderClient.invalidate() is deprecated; use delete_cached(template_id)",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.delete_cached(template_id)

    # ---------------------------------------------------------------- lifecycle

    def close(self) -> None:
        """Stops the engine process and closes the HTTP client we created (not an injected one)."""
        if self._closed:
            return
        self._closed = True
        self._engine.close()
        if self._owns_http:
            self._http.close()

    def __enter__(self) -> MailrenderClient:
        return self

    def __exit__(
        self, exc_type: Optional[type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]
    ) -> None:
        self.close()

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("MailrenderClient: the client is closed")

    # ---------------------------------------------------------------- the template's way in

    def _resolve(self, request: RenderRequest) -> Resolved:
        s = self._settings
        hit = fresh_cached(
            self._cache.get(request.template_id), self._fingerprint, request.target, s.cache.ttl_ms, wall_clock_ms()
        )
        if hit is not None:
            return Resolved(hit, stale=False)
        from concurrent.futures import Future

        # Concurrent renders of one template and target share one fetch (and its outcome).
        key = (request.template_id, request.target)
        with self._flights_lock:
            flight = self._flights.get(key)
            first = flight is None
            if flight is None:
                flight = Future[Resolved]()
                self._flights[key] = flight
        if not first:
            return flight.result()
        try:
            resolved = self._refresh(request)
            flight.set_result(resolved)
            return resolved
        except BaseException as error:
            flight.set_exception(error)
            raise
        finally:
            with self._flights_lock:
                del self._flights[key]

    def _refresh(self, request: RenderRequest) -> Resolved:
        s = self._settings
        cached = self._cache.get(request.template_id)
        # Another flight may have just refreshed it.
        hit = fresh_cached(cached, self._fingerprint, request.target, s.cache.ttl_ms, wall_clock_ms())
        if hit is not None:
            return Resolved(hit, stale=False)
        outcome = self._fetch(request.template_id, request.target, cached.etag if cached is not None else None)
        settled = settle_fetch(request.template_id, request.target, cached, outcome, self._fingerprint, wall_clock_ms())
        if settled.drop:
            self._cache.delete(request.template_id)
        if settled.store is not None:
            self._store(settled.store)
        if settled.error is not None:
            raise settled.error
        assert settled.resolved is not None
        return settled.resolved

    def _fetch(self, template_id: str, target: RenderTarget, etag: Optional[str]) -> FetchOutcome:
        import random

        import httpx

        s = self._settings
        retry = 0
        while True:
            req = build_fetch_request(s, template_id, target, etag)
            try:
                response = self._http.request(req.method, req.url, headers=req.headers, timeout=s.timeout)
                outcome = interpret_response(response.status_code, response.headers, response.content, time.time())
            except httpx.TimeoutException:
                outcome = timeout_failure(s)
            except httpx.HTTPError as error:
                outcome = network_failure(s, describe_http_error(error))
            delay = retry_delay(outcome, retry, random.random)
            if delay is None:
                return outcome
            time.sleep(delay)
            retry += 1

    def _store(self, entry: CacheEntry) -> None:
        self._keep(lambda: self._cache.set(entry), stacklevel=6)

    def _keep(self, write: Callable[[], None], stacklevel: int) -> None:
        """Runs a cache write. A cache that cannot be written (read-only or full disk) slows renders
        down; it does not fail them (warned once). ``stacklevel``: the caller's frame, seen from here."""
        try:
            write()
        except OSError as error:
            if not self._cache_write_warned:
                self._cache_write_warned = True
                warnings.warn(
                    f"mailrender: could not write the template cache ({error}); rendering continues uncached",
                    RuntimeWarning,
                    stacklevel=stacklevel,
                )
