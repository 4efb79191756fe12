"""A render call's arguments, checked before any work: a bad one fails like the service's 422."""

from __future__ import annotations

from collections import abc
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Optional, cast

from .._constants import RENDER_TARGETS
from .._errors import invalid_request
from .._types import DynamicData, RenderTarget, ValidationIssue


@dataclass(frozen=True)
class RenderRequest:
    template_id: str
    target: RenderTarget
    dynamic_data: Optional[DynamicData]
    minify: Optional[bool]
    strict: Optional[bool]
    plain_text: Optional[bool] = None
    component_props: Optional[bool] = None

    @property
    def minified(self) -> bool:
        return self.minify is not False  # the engine's default

    @property
    def per_recipient(self) -> bool:
        """False for what is compiled from the template anyway (plain text) or is one for every
        recipient (a component): such a render neither sends nor keeps saved layouts."""
        return self.plain_text is not True and self.component_props is not True


def check_render_request(
    template_id: object,
    target: object,
    dynamic_data: object,
    minify: object = None,
    strict: object = None,
    plain_text: object = None,
    component_props: object = None,
) -> RenderRequest:
    """Checks a render call's arguments; a bad one fails like the service's 422 for a bad body."""
    issues: list[ValidationIssue] = []
    if not isinstance(template_id, str) or template_id.strip() == "":
        issues.append({"loc": ["template_id"], "msg": "Input should be a non-empty string", "type": "string_type"})
    if target not in RENDER_TARGETS:
        allowed = ", ".join(f"'{t}'" for t in RENDER_TARGETS)
        issues.append({"loc": ["target"], "msg": f"Input should be {allowed}", "type": "literal_error"})
    # collections.abc's Mapping: isinstance with typing's alias costs several Python-level calls.
    if dynamic_data is not None and not isinstance(dynamic_data, abc.Mapping):
        issues.append(
            {"loc": ["dynamic_data"], "msg": "Input should be a dict: {merge_tags, context}", "type": "dict_type"}
        )
    elif isinstance(dynamic_data, abc.Mapping):
        for key in cast("Mapping[str, object]", dynamic_data):
            if key not in ("merge_tags", "context"):
                issues.append(
                    {
                        "loc": ["dynamic_data", str(key)],
                        "msg": "Extra inputs are not permitted",
                        "type": "extra_forbidden",
                    }
                )
    flags = (("minify", minify), ("strict", strict), ("plain_text", plain_text), ("component_props", component_props))
    for name, value in flags:
        if value is not None and not isinstance(value, bool):
            issues.append({"loc": [name], "msg": "Input should be a valid boolean", "type": "bool_type"})
    if issues:
        raise invalid_request(issues)
    return RenderRequest(
        template_id=cast(str, template_id),
        target=cast(RenderTarget, target),
        dynamic_data=cast("Optional[DynamicData]", dynamic_data),
        minify=cast("Optional[bool]", minify),
        strict=cast("Optional[bool]", strict),
        plain_text=cast("Optional[bool]", plain_text),
        component_props=cast("Optional[bool]", component_props),
    )
