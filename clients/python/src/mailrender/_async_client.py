"""AsyncMailrenderClient: the asyncio shell around the same sans-I/O core as MailrenderClient.

Fetches use ``httpx.AsyncClient``. A render's request is encoded and written to the engine process in
the client's thread pool, and its answer is decoded by the engine's reader thread, which completes
an asyncio future: the event loop never blocks, no thread sits waiting for an answer, and any number
of tasks' renders pipeline through the one engine process. Disk-cache file operations also run in the
thread pool.
"""

from __future__ import annotations

import asyncio
import functools
import os
import random
import time
import warnings
from concurrent.futures import ThreadPoolExecutor
from types import TracebackType
from typing import Callable, Optional, TypeVar, cast

import httpx

from ._cache import CacheStore, keep_layout, layout_loader, make_cache, wall_clock_ms
from ._client import describe_http_error
from ._constants import DEFAULT_TARGET, DEFAULT_TIMEOUT
from ._core.entry import CacheEntry, key_fingerprint
from ._core.fetch import FetchOutcome, build_fetch_request, interpret_response, network_failure, timeout_failure
from ._core.freshness import Resolved, fresh_cached, settle_fetch
from ._core.protocol import result_from_envelope
from ._core.render_request import RenderRequest, check_render_request
from ._core.retry import retry_delay
from ._core.settings import resolve_settings
from ._engine import EngineRunner
from ._engine_discovery import find_engine
from ._types import CacheConfig, DynamicData, RenderResult, RenderTarget

_T = TypeVar("_T")
_FlightKey = tuple[str, str]
#: Threads only write engine requests and use a disk cache; no thread waits for an engine answer.
_RENDER_THREADS = 4


class AsyncMailrenderClient:
    """The asynchronous client; same arguments as MailrenderClient, ``http_client`` an ``httpx.AsyncClient``."""

    def __init__(
        self,
        api_key: Optional[str] = None,
        *,
        base_url: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
        cache: Optional[CacheConfig] = None,
        http_client: Optional[httpx.AsyncClient] = None,
        engine_path: Optional[str] = None,
    ) -> None:
        env = dict(os.environ)
        self._settings = resolve_settings(
            api_key=api_key, base_url=base_url, timeout=timeout, cache=cache, engine_path=engine_path, env=env
        )
        if http_client is not None and not isinstance(cast(object, http_client), httpx.AsyncClient):
            raise TypeError(
                "AsyncMailrenderClient: http_client must be an httpx.AsyncClient (MailrenderClient takes an httpx.Client)"
            )
        engine = find_engine(self._settings.engine_path, env)
        self._owns_http = http_client is None
        self._http = http_client if http_client is not None else httpx.AsyncClient()
        self._cache: CacheStore = make_cache(
            self._settings.cache.type, self._settings.cache.path, self._settings.cache.max_entries
        )
        self._fingerprint = key_fingerprint(self._settings.api_key)
        self._engine = EngineRunner(engine, env)
        self._executor = ThreadPoolExecutor(max_workers=_RENDER_THREADS, thread_name_prefix="mailrender-render")
        self._flights: dict[_FlightKey, asyncio.Future[Resolved]] = {}
        self._cache_write_warned = False
        self._closed = False

    def __repr__(self) -> str:
        return f"AsyncMailrenderClient(base_url={self._settings.base_url!r}, cache={self._settings.cache.type!r})"

    @property
    def base_url(self) -> str:
        return self._settings.base_url

    async def _off_loop(self, fn: Callable[..., _T], *args: object) -> _T:
        return await asyncio.get_running_loop().run_in_executor(self._executor, functools.partial(fn, *args))

    async def _cache_call(self, fn: Callable[..., _T], *args: object) -> _T:
        # A memory cache is a dict lookup: a thread hop would cost more than it saves.
        return await self._off_loop(fn, *args) if self._cache.blocking else fn(*args)

    # ---------------------------------------------------------------- rendering

    async def render(
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
        self._check_open()
        request = check_render_request(template_id, target, dynamic_data, minify, strict, plain_text, component_props)
        resolved = await self._resolve(request)
        load = layout_loader(self._cache, request)
        envelope = await self._engine.render_async(resolved.entry, request, self._executor, load)
        write = keep_layout(self._cache, request, envelope)
        if write is not None:
            await self._keep(write)
        return result_from_envelope(envelope, request, resolved.stale)

    async def render_html(self, template_id: str, dynamic_data: Optional[DynamicData] = None) -> str:
        return (await self.render(template_id=template_id, target="html", dynamic_data=dynamic_data)).output

    async def render_react(self, template_id: str, dynamic_data: Optional[DynamicData] = None) -> str:
        return (await self.render(template_id=template_id, target="react-email", dynamic_data=dynamic_data)).output

    async def render_mjml(self, template_id: str, dynamic_data: Optional[DynamicData] = None) -> str:
        return (await self.render(template_id=template_id, target="mjml", dynamic_data=dynamic_data)).output

    # ---------------------------------------------------------------- cache management
    # Plain methods, as in the maildeno SDK: a ported ``client.clear_cache()`` without ``await`` must
    # clear the cache, not create a coroutine nobody runs. Each is a few file operations at most.

    def list_cached(self) -> list[str]:
        return self._cache.list()

    def delete_cached(self, template_id: str) -> bool:
        return self._cache.delete(template_id)

    def clear_cache(self) -> None:
        self._cache.clear()

    def invalidate(self, template_id: str) -> bool:
        """Deprecated since 2.0.0: use ``delete_cached(template_id)``."""
        warnings.warn(
            "AsyncMailrenderClient.invalidate() is deprecated; use delete_cached(template_id)",
            DeprecationWarning,
            stacklevel=2,
        )
        return self.delete_cached(template_id)

    # ---------------------------------------------------------------- lifecycle

    async def aclose(self) -> None:
        """Stops the engine process and closes the HTTP client we created (not an injected one)."""
        if self._closed:
            return
        self._closed = True
        await asyncio.get_running_loop().run_in_executor(self._executor, self._engine.close)
        self._executor.shutdown(wait=False)
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> AsyncMailrenderClient:
        return self

    async def __aexit__(
        self, exc_type: Optional[type[BaseException]], exc: Optional[BaseException], tb: Optional[TracebackType]
    ) -> None:
        await self.aclose()

    def _check_open(self) -> None:
        if self._closed:
            raise RuntimeError("AsyncMailrenderClient: the client is closed")

    # ---------------------------------------------------------------- the template's way in

    async def _resolve(self, request: RenderRequest) -> Resolved:
        s = self._settings
        cached = await self._cache_call(self._cache.get, request.template_id)
        hit = fresh_cached(cached, self._fingerprint, request.target, s.cache.ttl_ms, wall_clock_ms())
        if hit is not None:
            return Resolved(hit, stale=False)
        key = (request.template_id, request.target)
        flight = self._flights.get(key)
        if flight is not None:
            # shield: one waiter's cancellation must not cancel the fetch the others wait for.
            return await asyncio.shield(flight)
        flight = asyncio.get_running_loop().create_future()
        self._flights[key] = flight
        try:
            resolved = await self._refresh(request)
            flight.set_result(resolved)
            return resolved
        except BaseException as error:
            flight.set_exception(error)
            flight.exception()  # marks it retrieved: no "never retrieved" noise when nobody else waited
            raise
        finally:
            del self._flights[key]

    async def _refresh(self, request: RenderRequest) -> Resolved:
        s = self._settings
        cached = await self._cache_call(self._cache.get, request.template_id)
        hit = fresh_cached(cached, self._fingerprint, request.target, s.cache.ttl_ms, wall_clock_ms())
        if hit is not None:
            return Resolved(hit, stale=False)
        outcome = await self._fetch(request.template_id, request.target, cached.etag if cached is not None else None)
        settled = settle_fetch(request.template_id, request.target, cached, outcome, self._fingerprint, wall_clock_ms())
        if settled.drop:
            await self._cache_call(self._cache.delete, request.template_id)
        if settled.store is not None:
            await self._store(settled.store)
        if settled.error is not None:
            raise settled.error
        assert settled.resolved is not None
        return settled.resolved

    async def _fetch(self, template_id: str, target: RenderTarget, etag: Optional[str]) -> FetchOutcome:
        s = self._settings
        retry = 0
        while True:
            req = build_fetch_request(s, template_id, target, etag)
            try:
                response = await self._http.request(req.method, req.url, headers=req.headers, timeout=s.timeout)
                outcome = interpret_response(response.status_code, response.headers, response.content, time.time())
            except httpx.TimeoutException:
                outcome = timeout_failure(s)
            except httpx.HTTPError as error:
                outcome = network_failure(s, describe_http_error(error))
            delay = retry_delay(outcome, retry, random.random)
            if delay is None:
                return outcome
            await asyncio.sleep(delay)
            retry += 1

    async def _store(self, entry: CacheEntry) -> None:
        await self._keep(functools.partial(self._cache.set, entry))

    async def _keep(self, write: Callable[[], None]) -> None:
        """Runs a cache write; one that fails is warned about once and the render goes on uncached."""
        try:
            await self._cache_call(write)
        except OSError as error:
            if not self._cache_write_warned:
                self._cache_write_warned = True
                warnings.warn(
                    f"mailrender: could not write the template cache ({error}); rendering continues uncached",
                    RuntimeWarning,
                    stacklevel=2,
                )
