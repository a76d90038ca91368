"""The committed OpenAPI document makes a working client: openapi-python-client generates one
with nothing skipped, and that client plays on a live server, every answer parsed into its
generated models."""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from api.app import create_app
from api.cli import OPENAPI_PATH
from core.service import MatchService
from core.store.memory import MemoryStore
from tests.faults import served

pytest.importorskip(
    "openapi_python_client", reason="openapi-python-client (the test extra) is not installed"
)

PACKAGE = "ironworks_generated_client"
GAME = "brass-birmingham"


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, str]]:
    """The generated package's folder, and what the generator said."""
    root = tmp_path_factory.mktemp("client")
    config = root / "config.yaml"
    # post_hooks: no formatter run, so the test needs nothing but the generator itself
    config.write_text(f"package_name_override: {PACKAGE}\npost_hooks: []\n", encoding="utf-8")
    run = subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", str(OPENAPI_PATH),
         "--config", str(config), "--meta", "none", "--output-path", str(root / PACKAGE)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert run.returncode == 0, run.stdout + run.stderr
    yield root, run.stdout + run.stderr


@pytest.fixture(scope="module")
def client_package(generated: tuple[Path, str]) -> Iterator[ModuleType]:
    root, _ = generated
    sys.path.insert(0, str(root))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def test_the_generator_skips_nothing(generated: tuple[Path, str]) -> None:
    root, said = generated
    # Every skipped schema or operation is a warning; a clean document gets none
    assert "Warning" not in said and "Unable" not in said, said
    document = OPENAPI_PATH.read_text(encoding="utf-8")
    operations = set(re.findall(r'"operationId": "(\w+)"', document))
    modules = {p.stem for p in (root / PACKAGE / "api").glob("*/*.py")} - {"__init__"}
    assert modules == {snake(op) for op in operations}


def test_the_generated_client_plays_on_a_live_server(
    client_package: ModuleType, registry: Any
) -> None:
    models = importlib.import_module(f"{PACKAGE}.models")
    ops = {
        name: importlib.import_module(f"{PACKAGE}.api.{group}.{name}")
        for group, names in {
            "games": ["list_games"], "matches": ["create_match", "get_match", "list_matches"],
            "seats": ["claim_seat"], "moves": ["list_legal_moves", "submit_move"],
            "events": ["list_events"],
        }.items()
        for name in names
    }  # fmt: skip
    with served(create_app(MatchService(MemoryStore(), registry))) as base_url:
        anonymous = client_package.Client(base_url=base_url, raise_on_unexpected_status=True)
        games = ops["list_games"].sync(client=anonymous)
        assert GAME in {g.id for g in games}

        body = models.CreateMatch(game=models.CreateMatchGame(GAME), players=2)
        created = ops["create_match"].sync(client=anonymous, body=body)
        assert isinstance(created, models.MatchCreatedBody)
        assert [s.claimed for s in created.seats] == [False, False]

        match = ops["get_match"].sync(created.id, client=anonymous)
        assert isinstance(match, models.MatchView) and match.you is None
        seat = match.to_act[0]
        claimed = ops["claim_seat"].sync(created.id, seat, client=anonymous)
        assert isinstance(claimed, models.SeatToken) and claimed.seat == seat
        player = client_package.AuthenticatedClient(
            base_url=base_url, token=claimed.token, raise_on_unexpected_status=True
        )

        legal = ops["list_legal_moves"].sync(created.id, client=player)
        assert isinstance(legal, models.LegalMoves) and legal.seat == seat and legal.moves
        move = legal.moves[0]
        assert type(move).__name__.startswith("Brass"), "a move parses into a game's model"
        accepted = ops["submit_move"].sync(
            created.id, client=player,
            body=models.SubmitMove(move=move, expected_version=legal.version),
        )  # fmt: skip
        assert isinstance(accepted, models.MoveAccepted)
        assert accepted.first_version == legal.version + 1 and not accepted.replayed

        page = ops["list_events"].sync(created.id, client=player)
        assert isinstance(page, models.EventPage) and page.version == accepted.version
        assert [e.version for e in page.events] == list(range(1, accepted.version + 1))
        assert page.events[-1].actor == seat

        lobby = ops["list_matches"].sync(client=anonymous)
        assert isinstance(lobby, models.MatchPage)
        assert [m.id for m in lobby.items] == [created.id]
        assert lobby.items[0].version == accepted.version


def test_the_generated_client_runs_an_invite_only_match_with_a_clock(
    client_package: ModuleType, registry: Any
) -> None:
    models = importlib.import_module(f"{PACKAGE}.models")
    api = f"{PACKAGE}.api"
    create_match = importlib.import_module(f"{api}.matches.create_match")
    get_match = importlib.import_module(f"{api}.matches.get_match")
    claim_seat = importlib.import_module(f"{api}.seats.claim_seat")
    invite_to_seat = importlib.import_module(f"{api}.seats.invite_to_seat")
    resign_seat = importlib.import_module(f"{api}.seats.resign_seat")
    with served(create_app(MatchService(MemoryStore(), registry))) as base_url:
        server = client_package.Client(base_url=base_url, raise_on_unexpected_status=True)

        def client(token: str) -> Any:
            return client_package.AuthenticatedClient(
                base_url=base_url, token=token, raise_on_unexpected_status=True
            )

        rules = models.MatchRules(invite_only=True, clock=models.TimeControl(turn_seconds=86400))
        body = models.CreateMatch(game=models.CreateMatchGame(GAME), players=2, rules=rules)
        match = create_match.sync(client=server, body=body)
        owner = client(match.owner_token)
        tokens = []
        for seat in (0, 1):
            code = invite_to_seat.sync(match.id, seat, client=owner).invite
            invited = models.ClaimSeat(invite=code)
            tokens.append(claim_seat.sync(match.id, seat, client=server, body=invited).token)
        view = get_match.sync(match.id, client=client(tokens[0]))
        assert view.you == 0 and view.rules.clock.turn_seconds == 86400
        assert [s.deadline is not None for s in view.seats] == [s in view.to_act for s in (0, 1)]
        changed = resign_seat.sync(match.id, 0, client=client(tokens[0]))
        assert isinstance(changed, models.SeatsChanged) and changed.status == "finished"
        over = get_match.sync(match.id, client=server)
        assert over.finished and over.result.ranking == [2, 1]
