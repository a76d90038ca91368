"""Property-based API tests: schemathesis drives every documented operation of the app
(highcard installed) and checks that nothing answers 5xx and every answer matches the
OpenAPI document. The event stream never ends on a live match, so it is left to
tests/test_api.py."""

from __future__ import annotations

from typing import Any

import pytest
import schemathesis
from conftest import install_highcard
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from api.app import DOCS_PATH, create_app
from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore
from core.webhooks import Webhooks
from worker.inprocess import InlineRunner

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
]
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)


def highcard_only() -> GameRegistry:
    """Just the test game: the run stays fast and deterministic whatever else is installed."""
    install_highcard()
    import highcard.plugin

    registry = GameRegistry()
    registry.register(highcard.plugin, name="highcard")
    return registry


class NoWaitStore(MemoryStore):
    """Long polls answer at once (as if their wait were over), so a generated ``wait=60``
    costs no minute and the walk stays deterministic; tests/test_api_long_poll.py waits."""

    def wait(self, stream_id: str, after_version: int, timeout: float) -> bool:
        return self.version(stream_id) > after_version


def build_app() -> Any:
    runner = InlineRunner()
    service = MatchService(NoWaitStore(), highcard_only(), runner, snapshot_every=5)
    # Every host "resolves" to loopback, so every hook is refused: none calls the internet
    service.webhooks = Webhooks(MemoryStore(), resolve=lambda host, port: ["127.0.0.1"])
    runner.bind(service)
    service.create_match("highcard", 2, seed="fixed", match_id="m1")
    return create_app(service)


@pytest.fixture(scope="module")
def api_schema() -> Any:
    app = build_app()
    return schemathesis.openapi.from_asgi(f"{DOCS_PATH}/openapi.json", app).exclude(
        operation_id="streamEvents"
    )


schema = schemathesis.pytest.from_fixture("api_schema")


@schema.parametrize()
@SETTINGS
def test_no_operation_fails_or_breaks_its_schema(case: Any) -> None:
    case.call_and_validate(checks=CHECKS)


def test_stateful_walks_over_links_stay_in_the_schema(api_schema: Any) -> None:
    machine = api_schema.as_state_machine()

    class Checked(machine):  # type: ignore[misc, valid-type]
        calls = 0

        def validate_response(self, response: Any, case: Any, **kwargs: Any) -> None:
            type(self).calls += 1
            case.validate_response(response, checks=CHECKS)

    Checked.run(settings=settings(SETTINGS, max_examples=15, stateful_step_count=6))
    assert Checked.calls > 0
