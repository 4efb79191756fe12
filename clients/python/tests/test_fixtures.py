"""Every golden fixture through the client equals the golden output (fixtures/README.md).

Render cases: each case's template is stored through the service's admin API and rendered through
MailrenderClient for all three targets, with the case's ``options`` passed as ``minify=`` / ``strict=``
(so cases with non-default options also go through the client). Output byte for byte, warnings' code
and path in order.

Error cases: a template the service accepts (the strict missing-tag cases) is rendered through the
client. The others are templates the service refuses at upload (422), so they can never reach a client
by its normal path; they go through the client's engine runner (the same process and error mapping
the client uses) and must fail with the expected code and issues.
"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from typing import Any, cast

import pytest
from conftest import ENGINE, FIXTURES, Server, load_case
from mailrender import MailrenderClient, MailrenderError
from mailrender._core.entry import CacheEntry
from mailrender._core.protocol import result_from_envelope
from mailrender._core.render_request import check_render_request
from mailrender._engine import EngineRunner

TARGETS: list[tuple[str, str]] = [("html", "html"), ("mjml", "mjml"), ("react-email", "tsx")]
RENDER_CASES = sorted(p.name for p in (FIXTURES / "render").iterdir() if (p / "case.json").is_file())
ERROR_CASES = sorted(p.name for p in (FIXTURES / "errors").iterdir() if (p / "case.json").is_file())


def test_fixture_folders_were_found() -> None:
    assert len(RENDER_CASES) >= 50 and len(ERROR_CASES) >= 10


def without_id(template: Any) -> Any:
    """The fixtures' ids are not UUIDs, which the service refuses: stored without one, it gets its own."""
    if isinstance(template, dict):
        return {k: v for k, v in cast(dict[str, Any], template).items() if k != "template_id"}
    return template


@pytest.fixture(scope="module")
def client(server: Server, render_key: str) -> Iterator[MailrenderClient]:
    with MailrenderClient(render_key, base_url=server.url) as c:
        yield c


@pytest.mark.parametrize("name", RENDER_CASES)
def test_render_case_through_the_client(name: str, server: Server, client: MailrenderClient) -> None:
    case = load_case("render", name)
    tid = server.create_template(case["template"])
    options: dict[str, Any] = case.get("options") or {}
    warnings_expected: dict[str, list[dict[str, Any]]] = json.loads(
        (FIXTURES / "render" / name / "expected.warnings.json").read_text(encoding="utf-8")
    )
    for target, ext in TARGETS:
        result = client.render(
            template_id=tid,
            target=target,  # type: ignore[arg-type]
            dynamic_data=case.get("dynamic_data") or None,
            minify=options.get("minify"),
            strict=options.get("strict"),
            plain_text=True,
        )
        golden = (FIXTURES / "render" / name / f"expected.{ext}").read_bytes().decode("utf-8")
        assert result.output == golden, f"{name}/{target} differs from its golden"
        assert result.text == (FIXTURES / "render" / name / "expected.txt").read_bytes().decode("utf-8"), (
            f"{name}/{target} plain text"
        )
        got = [(w.code, list(w.path)) for w in result.warnings]
        assert got == [(w["code"], w["path"]) for w in warnings_expected[target]], f"{name}/{target} warnings"


def test_component_props_through_the_client(server: Server, client: MailrenderClient) -> None:
    """The engine's component, as the executable writes it; a recipient's data beside it names the key."""
    case = load_case("render", "merge-tag-positions")
    tid = server.create_template(case["template"])
    result = client.render(template_id=tid, target="react-email", component_props=True)
    request = {"template": case["template"], "target": "react-email", "options": {"component_props": True}}
    engine = subprocess.run([str(ENGINE)], input=json.dumps(request).encode(), capture_output=True, check=True)
    assert result.output == json.loads(engine.stdout)["output"]
    assert "Props = {}) {" in result.output
    with pytest.raises(MailrenderError) as caught:
        client.render(template_id=tid, target="react-email", component_props=True, dynamic_data=case["dynamic_data"])
    assert caught.value.code == "RENDER_ERROR"
    assert [(i["loc"], i["type"]) for i in caught.value.issues] == [(["dynamic_data"], "component_props_conflict")]


@pytest.fixture(scope="module")
def runner() -> Iterator[EngineRunner]:
    r = EngineRunner(str(ENGINE), {})
    yield r
    r.close()


@pytest.mark.parametrize("name", ERROR_CASES)
def test_error_case(name: str, server: Server, client: MailrenderClient, runner: EngineRunner) -> None:
    case = load_case("errors", name)
    expected = json.loads((FIXTURES / "errors" / name / "expected.error.json").read_text(encoding="utf-8"))
    options: dict[str, Any] = case.get("options") or {}
    request = check_render_request(
        "t", case["target"], case.get("dynamic_data") or None, options.get("minify"), options.get("strict")
    )
    stored = server.admin("POST", "/api/v1/templates", without_id(case["template"]))
    with pytest.raises(MailrenderError) as caught:
        if stored.status_code == 201:
            client.render(
                template_id=str(stored.json()["id"]),
                target=request.target,
                dynamic_data=request.dynamic_data,
                minify=request.minify,
                strict=request.strict,
            )
        else:
            assert stored.status_code == 422, stored.text  # the service refuses it as the engine does
            # A non-object template (a string, an array) goes as-is: only this runner can send one.
            entry = CacheEntry(
                template_id="t", template=cast(dict[str, Any], case["template"]), etag=None, fetched_at_ms=0, scope=None
            )
            result_from_envelope(runner.render(entry, request), request, False)
    assert caught.value.code == expected["code"]
    assert caught.value.issues == expected["issues"]
