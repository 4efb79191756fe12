"""The one error type of the client, and the few rules about which errors are outages."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Optional, cast

from ._types import ErrorCode, ValidationIssue


class MailrenderError(Exception):
    """Raised for every failure of a render: ``MailrenderError(code, message, status=0, issues=None)``,
    the argument order of the ``maildeno`` SDK's error.

    ``status`` is the HTTP status, or 0 when there was no answer (``NETWORK_ERROR``, ``TIMEOUT``) or
    no HTTP at all (an engine failure). ``issues`` holds ``{loc, msg, type}`` items for ``RENDER_ERROR``.
    """

    code: ErrorCode
    status: int
    message: str
    issues: list[ValidationIssue]

    def __init__(
        self, code: ErrorCode, message: str, status: int = 0, issues: Optional[Sequence[ValidationIssue]] = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.status = status
        self.message = message
        self.issues = list(issues) if issues is not None else []

    def __str__(self) -> str:
        return self.message

    def __repr__(self) -> str:
        return f"MailrenderError(code={self.code!r}, status={self.status}, message={self.message!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        # Picklable across processes (multiprocessing, concurrent.futures) despite the 4-argument init.
        return (MailrenderError, (self.code, self.message, self.status, self.issues))


_STATUS_CODES: dict[int, ErrorCode] = {
    401: "INVALID_API_KEY",
    403: "FORBIDDEN",
    404: "TEMPLATE_NOT_FOUND",
    422: "RENDER_ERROR",
}


def code_for_status(status: int) -> ErrorCode:
    """The code for an HTTP error status, as the service spec maps them."""
    return _STATUS_CODES.get(status, "UNKNOWN")


def forbidden_target(key_targets: Sequence[str], requested: str) -> MailrenderError:
    """The service's exact wording for a target outside the key's scope, so both paths read alike."""
    return MailrenderError(
        "FORBIDDEN", f"API key is limited to targets [{', '.join(key_targets)}]; requested '{requested}'", 403
    )


def invalid_request(issues: Sequence[ValidationIssue]) -> MailrenderError:
    """A bad argument to a render call, shaped like the service's 422 for a bad request body."""
    described = "; ".join(f"{'.'.join(i['loc']) or '(root)'}: {i['msg']}" for i in issues)
    return MailrenderError("RENDER_ERROR", f"Invalid render request: {described}", 422, issues)


def issues_from(value: object) -> list[ValidationIssue]:
    """The well-formed ``{loc, msg, type}`` items of an answer's ``issues`` (the service's or the engine's)."""
    if not isinstance(value, list):
        return []
    out: list[ValidationIssue] = []
    for raw in cast("list[object]", value):
        if not isinstance(raw, dict):
            continue
        item = cast("dict[str, object]", raw)
        loc, msg, kind = item.get("loc"), item.get("msg"), item.get("type")
        if isinstance(loc, list) and isinstance(msg, str) and isinstance(kind, str):
            out.append({"loc": [str(p) for p in cast("list[object]", loc)], "msg": msg, "type": kind})
    return out


def is_outage(error: MailrenderError) -> bool:
    """No connection, a timeout, 429 or a 5xx: only these let an expired copy be used (stale-on-error).

    A 401/403/404 is an answer: a revoked key or a deleted template must stop rendering.
    """
    return error.code in ("NETWORK_ERROR", "TIMEOUT") or error.status == 429 or error.status >= 500


def may_serve_stale(error: MailrenderError, verdict: str) -> bool:
    """A failed fetch falls back to the expired cached copy only for an outage, and only when the
    cached scope allows the target for this key (``scope_verdict``)."""
    return is_outage(error) and verdict == "allowed"


def is_retryable(error: MailrenderError) -> bool:
    """Connection errors, 429 and 5xx. A timeout is not retried, so a silent server costs one timeout."""
    return error.code == "NETWORK_ERROR" or error.status == 429 or error.status >= 500
