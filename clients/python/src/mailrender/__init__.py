"""mailrender: render email templates from the mailrender service with the bundled engine.

Template JSON is fetched from the service (and cached); rendering runs in a local engine process, so
merge tags and context never leave this machine.

``import mailrender`` stays cheap: httpx is imported when a client is made, and the async client
(with asyncio) when ``mailrender.AsyncMailrenderClient`` is first looked up.
"""

from typing import TYPE_CHECKING

from ._client import MailrenderClient
from ._constants import VERSION as __version__
from ._errors import MailrenderError
from ._types import (
    CacheConfig,
    ContextValue,
    DynamicData,
    ErrorCode,
    MergeTags,
    RenderResult,
    RenderTarget,
    RenderWarning,
    TemplateJson,
    ValidationIssue,
)

if TYPE_CHECKING:
    from ._async_client import AsyncMailrenderClient


def __getattr__(name: str) -> object:
    if name == "AsyncMailrenderClient":
        from ._async_client import AsyncMailrenderClient

        return AsyncMailrenderClient
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "AsyncMailrenderClient",
    "CacheConfig",
    "ContextValue",
    "DynamicData",
    "ErrorCode",
    "MailrenderClient",
    "MailrenderError",
    "MergeTags",
    "RenderResult",
    "RenderTarget",
    "RenderWarning",
    "TemplateJson",
    "ValidationIssue",
    "__version__",
]
