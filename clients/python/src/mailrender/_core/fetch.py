"""The template fetch: the request to send, and what the service's answer means."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Optional, Union, cast
from urllib.parse import quote

from .._constants import RENDER_TARGETS, TEMPLATE_PATH, USER_AGENT
from .._errors import MailrenderError, code_for_status, issues_from
from .._types import RenderTarget
from .settings import Settings


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
    # Imported here: the email package costs import time that only an HTTP-date needs.
    from email.utils import parsedate_to_datetime

    try:
        return max(0.0, parsedate_to_datetime(text).timestamp() - now)
    except (TypeError, ValueError, IndexError, OverflowError):
        return None


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
