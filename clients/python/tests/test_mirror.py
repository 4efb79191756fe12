"""The sync and async suites are mirrors: the same behaviours, test for test."""

from __future__ import annotations

import ast
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: Behaviours only one shell has, with the reason.
ONLY_ASYNC = {"test_event_loop_is_not_blocked_by_renders"}  # a sync client has no event loop to block


def _tests_in(name: str) -> set[str]:
    tree = ast.parse((HERE / name).read_text(encoding="utf-8"))
    return {
        n.name
        for n in tree.body
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)) and n.name.startswith("test_")
    }


def test_sync_and_async_suites_hold_the_same_tests() -> None:
    sync, asyn = _tests_in("test_sync_client.py"), _tests_in("test_async_client.py")
    assert len(sync) >= 25
    assert sync == asyn - ONLY_ASYNC
