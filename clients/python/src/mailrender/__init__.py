"""mailrender: render email templates from the mailrender service with the bundled engine.

Template JSON is fetched from the service (and cached); rendering runs in a local engine process, so
merge tags and context never leave this machine.
"""

from ._async_client import AsyncMailrenderClient
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
