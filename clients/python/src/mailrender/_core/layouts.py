"""Joining an engine's layout answers (output_format "layout") with the parts it sent before."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any, cast

from .._constants import LAYOUT_CACHE_MAX_ENTRIES
from .protocol import EngineProtocolError


class Layouts:
    """The layouts one engine process has sent, by id, so its ``values``-only answers become output.

    Ids are per process: a new process needs a new ``Layouts``. Bounded: the least recently used
    layout goes first, and an answer naming a dropped one is re-requested with ``layout_parts``.
    """

    def __init__(self, max_entries: int = LAYOUT_CACHE_MAX_ENTRIES) -> None:
        self._parts: OrderedDict[int, list[str]] = OrderedDict()
        self._max_entries = max_entries

    def __len__(self) -> int:
        return len(self._parts)

    def resolve(self, envelope: dict[str, Any]) -> bool:
        """Turns an ok layout answer into an ordinary one (``output``) in place; False if its parts
        are not kept (ask again with ``layout_parts``). Any other envelope is left as it is."""
        layout = envelope.get("layout")
        if not isinstance(layout, dict):
            return True
        layout = cast("dict[str, Any]", layout)
        layout_id = layout.get("id")
        values = envelope.get("values")
        if not isinstance(layout_id, int) or not isinstance(values, list):
            raise EngineProtocolError(f"the engine sent a malformed layout answer: {str(envelope)[:120]}")
        parts = layout.get("parts")
        if isinstance(parts, list):
            self._parts[layout_id] = cast("list[str]", parts)
            if len(self._parts) > self._max_entries:
                self._parts.popitem(last=False)
        else:
            parts = self._parts.get(layout_id)
            if parts is None:
                return False
            self._parts.move_to_end(layout_id)
        parts = cast("list[str]", parts)
        values = cast("list[str]", values)
        if len(values) != len(parts) - 1:
            raise EngineProtocolError(f"the engine sent {len(values)} values for a layout of {len(parts)} parts")
        pieces = [parts[0]] * (2 * len(values) + 1)
        pieces[1::2] = values
        pieces[2::2] = parts[1:]
        envelope["output"] = "".join(pieces)
        del envelope["layout"], envelope["values"]
        return True
