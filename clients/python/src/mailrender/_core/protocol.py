"""The engine protocol (spec/README.md, version 1): request lines, envelopes, the version handshake."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Optional, cast

from .._constants import ENGINE_MAJOR, ENV_ENGINE_PATH, PROTOCOL_VERSION, VERSION
from .._errors import MailrenderError, issues_from
from .._types import RenderResult, RenderWarning
from .entry import CacheEntry
from .render_request import RenderRequest


class EngineProtocolError(Exception):
    """The process answered something that is not a protocol-1 envelope (a wrong or broken engine)."""


def engine_request_line(
    request_id: int,
    entry: CacheEntry,
    request: RenderRequest,
    include_template: bool,
    layout: bool = False,
    layout_parts: bool = False,
    save_layout: bool = False,
    saved_layout: Optional[str] = None,
) -> bytes:
    """One ``--serve`` request line; the template goes along only when the process may not hold the ref.

    ``layout`` asks for output_format "layout" (spec/README.md): the process sends each layout's
    parts once and then only the recipient's values; ``layout_parts`` asks for the parts again.
    ``save_layout`` and ``saved_layout`` go with the template (spec/README.md, "Saved layouts"): a
    new layout is asked for, and the one kept from an earlier process is handed back.
    """
    doc: dict[str, Any] = {"id": request_id, "template_ref": entry.ref, "target": request.target}
    if include_template:
        doc["template"] = entry.template
    if request.dynamic_data is not None:
        doc["dynamic_data"] = request.dynamic_data
    options: dict[str, bool] = {}
    if request.minify is not None:
        options["minify"] = request.minify
    if request.strict is not None:
        options["strict"] = request.strict
    if request.plain_text is not None:
        options["plain_text"] = request.plain_text
    if request.component_props is not None:
        options["component_props"] = request.component_props
    if options:
        doc["options"] = options
    if layout:
        doc["output_format"] = "layout"
        if layout_parts:
            doc["layout_parts"] = True
    if include_template and save_layout:
        doc["save_layout"] = True
    if include_template and saved_layout is not None:
        doc["saved_layout"] = saved_layout
    # ensure_ascii keeps the line pure ASCII: no raw U+2028 or invalid surrogates can reach the engine.
    return json.dumps(doc, separators=(",", ":")).encode("ascii") + b"\n"


def engine_speaks_layouts(envelope: Mapping[str, Any]) -> bool:
    """output_format "layout" came with engine 1.1; an older engine refuses the key as a bad request."""
    version = envelope.get("engine_version")
    if not isinstance(version, str):
        return False
    numbers = version.split("-")[0].split(".")
    try:
        return (int(numbers[0]), int(numbers[1])) >= (1, 1)
    except (ValueError, IndexError):
        return False


def parse_envelope(line: bytes) -> dict[str, Any]:
    try:
        doc: object = json.loads(line)
    except ValueError:
        raise EngineProtocolError(f"the engine wrote a line that is not JSON: {line[:120]!r}") from None
    # Only "an object" is required here: check_handshake then names a wrong engine's versions.
    if not isinstance(doc, dict):
        raise EngineProtocolError(f"the engine wrote JSON that is not a response envelope: {line[:120]!r}")
    return cast("dict[str, Any]", doc)


def check_handshake(envelope: Mapping[str, Any], engine_path: str) -> None:
    """The version handshake: refuse an engine that speaks another protocol or is another major."""
    protocol = envelope.get("protocol_version")
    version = envelope.get("engine_version")
    major = str(version).split(".")[0] if isinstance(version, str) else ""
    if protocol != PROTOCOL_VERSION or major != str(ENGINE_MAJOR):
        raise MailrenderError(
            "UNKNOWN",
            f"The mailrender engine at {engine_path} is engine {version!r} speaking protocol {protocol!r}, but mailrender "
            f"{VERSION} needs engine {ENGINE_MAJOR}.x speaking protocol {PROTOCOL_VERSION}. Reinstall mailrender "
            f"(its wheel bundles a matching engine), or point engine_path= / {ENV_ENGINE_PATH} at a matching mailrender-engine.",
            0,
        )


def refused_saved_layouts(envelope: Mapping[str, Any]) -> bool:
    """Whether the engine refused the request for its saved-layout keys, as an engine that predates
    them does (an unknown key is a BAD_REQUEST naming it)."""
    error = envelope.get("error")
    if envelope.get("ok") is not False or not isinstance(error, dict):
        return False
    error = cast("dict[str, Any]", error)
    issues = error.get("issues")
    if error.get("code") != "BAD_REQUEST" or not isinstance(issues, list):
        return False
    for issue in cast("list[object]", issues):
        loc = cast("dict[str, object]", issue).get("loc") if isinstance(issue, dict) else None
        if isinstance(loc, list) and cast("list[object]", loc)[:1] in (["saved_layout"], ["save_layout"]):
            return True
    return False


def is_ref_unknown(envelope: Mapping[str, Any]) -> bool:
    error = envelope.get("error")
    return (
        envelope.get("ok") is False
        and isinstance(error, dict)
        and cast("dict[str, object]", error).get("code") == "TEMPLATE_REF_UNKNOWN"
    )


def result_from_envelope(envelope: Mapping[str, Any], request: RenderRequest, stale: bool) -> RenderResult:
    """The result of an ok envelope; raises the client's error for any other."""
    if envelope.get("ok") is not True:
        raise error_from_envelope(envelope)
    output = envelope.get("output")
    if not isinstance(output, str):
        raise MailrenderError("UNKNOWN", "The mailrender engine answered ok without an output")
    warnings: list[RenderWarning] = []
    for raw in cast("Sequence[Any]", envelope.get("warnings") or []):
        w = cast("dict[str, Any]", raw)
        path = cast("list[object]", w.get("path") or [])
        warnings.append(
            RenderWarning(code=str(w.get("code")), message=str(w.get("message")), path=tuple(str(p) for p in path))
        )
    return RenderResult(
        output=output,
        target=request.target,
        template_id=request.template_id,
        from_stale_cache=stale,
        warnings=tuple(warnings),
        text=str(envelope["text"]) if "text" in envelope else None,
    )


def error_from_envelope(envelope: Mapping[str, Any]) -> MailrenderError:
    """The client's error for an engine's failed answer (spec/clients.md, "Errors")."""
    error = cast("dict[str, Any]", envelope.get("error") or {})
    code, message = str(error.get("code")), str(error.get("message"))
    if code == "RENDER_ERROR":
        # 422 like the service's render endpoint gives for the same failure, so both paths compare equal.
        return MailrenderError("RENDER_ERROR", message, 422, issues_from(error.get("issues")))
    if code in ("BAD_REQUEST", "REQUEST_TOO_LARGE", "INVALID_JSON"):
        # The engine refused the request itself: the caller's dynamic data (or its size) is the cause.
        return MailrenderError(
            "RENDER_ERROR",
            f"The engine refused the render request ({code}): {message}",
            422,
            issues_from(error.get("issues")),
        )
    return MailrenderError("UNKNOWN", f"The engine failed ({code}): {message}", 0)
