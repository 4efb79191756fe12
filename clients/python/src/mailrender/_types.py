"""The public vocabulary: template, data, cache options, targets and results.

``TemplateJson`` mirrors the top level of ``spec/template/v1/template.schema.json`` (a test fails when
the two drift apart); the inside of a template stays opaque to the client, as the seed says.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal, Optional, TypedDict, Union

RenderTarget = Literal["html", "react-email", "mjml"]
CacheType = Literal["memory", "disk"]
ErrorCode = Literal[
    "INVALID_API_KEY",
    "FORBIDDEN",
    "TEMPLATE_NOT_FOUND",
    "RENDER_ERROR",
    "NETWORK_ERROR",
    "TIMEOUT",
    "UNKNOWN",
]


class TemplateJson(TypedDict):
    """The template definition (``GET /v1/sdk/template/{id}``); unknown extra keys are allowed."""

    template_id: Union[str, float]
    template_name: str
    canvas: dict[str, Any]
    rows: list[dict[str, Any]]
    schema_version: str


class MergeTags(TypedDict, total=False):
    """Merge-tag values by group; the engine escapes each for where it lands."""

    text: dict[str, str]
    url: dict[str, str]
    attr: dict[str, str]


ContextValue = Union[str, int, float, bool]


class DynamicData(TypedDict, total=False):
    """Per-recipient data: merge tags and the flat visibility context. Never sent to the service."""

    merge_tags: MergeTags
    context: dict[str, ContextValue]


class CacheConfig(TypedDict, total=False):
    """The ``cache=`` option. ``ttl`` is in milliseconds (default 300 000); ``max_entries`` defaults to 50."""

    type: CacheType
    path: str
    ttl: float
    max_entries: int


class ValidationIssue(TypedDict):
    """One problem, in the service's ``{loc, msg, type}`` shape."""

    loc: list[str]
    msg: str
    type: str


@dataclass(frozen=True)
class RenderWarning:
    """A problem that did not stop the render (unknown block type, unsafe URL, missing merge tag)."""

    code: str
    message: str
    path: tuple[str, ...]


@dataclass(frozen=True)
class RenderResult:
    """One render's output; the field order is the maildeno SDK's (template_id, target, output, from_stale_cache)."""

    template_id: str
    target: RenderTarget
    output: str
    #: True when the service could not be reached and the expired cached copy was used.
    from_stale_cache: bool = False
    warnings: tuple[RenderWarning, ...] = ()
    #: The email's plain-text version, with ``plain_text=True``.
    text: Optional[str] = None
