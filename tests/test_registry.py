"""Game discovery: entry points, explicit registration, and broken plugins being skipped."""

from __future__ import annotations

from importlib.metadata import entry_points
from pathlib import Path
from typing import Any

import msgspec
import pytest
from conftest import install_highcard

from core.errors import NotFound
from core.hooks import ENTRY_POINT_GROUP, hookimpl
from core.registry import GameRegistry, validate_game
from core.service import MatchService
from core.store.memory import MemoryStore

BROKEN_DISTS = Path(__file__).parent / "plugin_fixtures" / "broken_dists"
"""Fake installed distributions whose ``ironworks.games`` entry points are all broken."""


@pytest.fixture
def with_broken_plugins(monkeypatch: pytest.MonkeyPatch) -> None:
    install_highcard()
    monkeypatch.syspath_prepend(str(BROKEN_DISTS))


def _loaded() -> GameRegistry:
    registry = GameRegistry()
    registry.load_entry_points()
    return registry


def _problem(registry: GameRegistry, plugin: str) -> str:
    found = [p.error for p in registry.problems if p.plugin == plugin]
    assert found, f"no problem recorded for {plugin}: {registry.problems}"
    return found[0]


class _Plugin:
    """An explicitly registered plugin offering the given games."""

    def __init__(self, *games: Any) -> None:
        self.games = list(games)

    @hookimpl
    def ironworks_games(self) -> list[Any]:
        return self.games


class RequiredOption(msgspec.Struct, kw_only=True):
    rounds: int


class UntaggedA(msgspec.Struct):
    card: int


class UntaggedB(msgspec.Struct):
    seat: int


def _highcard_variant(**attrs: Any) -> Any:
    from highcard.game import HighCard

    return type("Variant", (HighCard,), attrs)()


def test_highcard_is_discovered_through_its_entry_point(registry: GameRegistry) -> None:
    from highcard.game import HighCard

    (ep,) = [ep for ep in entry_points(group=ENTRY_POINT_GROUP) if ep.name == "highcard"]
    assert ep.dist is not None and ep.dist.name == "highcard"
    assert isinstance(registry.get("highcard"), HighCard)
    assert not [p for p in registry.problems if p.plugin == "highcard"]


def test_plugin_raising_on_import_is_reported_and_skipped(with_broken_plugins: None) -> None:
    registry = _loaded()
    error = _problem(registry, "raises-on-import")
    assert "import failed" in error and "broken on purpose" in error
    assert "highcard" in registry


@pytest.mark.parametrize(
    ("plugin", "reason"),
    [
        ("inverted-players", "min_players/max_players"),
        ("missing-methods", "missing methods view, redact"),
        ("options-not-struct", "Options must be a msgspec Struct"),
        ("hook-raises", "registration failed: ValueError: cannot build my games"),
        ("no-hook", "registration failed: AttributeError"),
    ],
)
def test_plugin_with_bad_metadata_is_reported_and_skipped(
    with_broken_plugins: None, plugin: str, reason: str
) -> None:
    registry = _loaded()
    assert reason in _problem(registry, plugin)
    assert plugin not in registry
    assert "highcard" in registry


@pytest.mark.parametrize(
    ("attrs", "reason"),
    [
        ({"id": "Not A Slug!"}, "bad game id"),
        ({"id": ""}, "bad game id"),
        ({"title": None}, "title must be a string"),
        ({"min_players": 0}, "min_players/max_players"),
        ({"max_players": "4"}, "min_players/max_players"),
        ({"Options": int}, "Options must be a msgspec Struct"),
        ({"Move": None}, "Move union is missing"),
        ({"Event": None}, "Event union is missing"),
        ({"sample_hidden": "no"}, "missing methods sample_hidden"),
        ({"metadata": ["not", "a", "dict"]}, "metadata must be a dict"),
        ({"metadata": {"when": object()}}, "metadata must be JSON-encodable"),
        ({"Options": RequiredOption}, "every option needs a default"),
        ({"Move": UntaggedA | UntaggedB}, "Move is not a usable msgspec type"),
        ({"Event": UntaggedA | UntaggedB}, "Event is not a usable msgspec type"),
    ],
)
def test_validate_game_names_the_bad_attribute(
    registry: GameRegistry, attrs: dict[str, Any], reason: str
) -> None:
    assert validate_game(_highcard_variant()) is None
    error = validate_game(_highcard_variant(**attrs))
    assert error is not None and reason in error


def test_explicitly_registered_plugin_provides_its_games(registry: GameRegistry) -> None:
    game = _highcard_variant(id="explicit-highcard")
    mine = GameRegistry()
    plugin = _Plugin(game)
    mine.register(plugin, name="explicit")
    mine.register(plugin, name="explicit")  # registering twice is harmless
    assert mine.get("explicit-highcard") is game
    assert mine.games() == [game]
    assert mine.problems == []


def test_duplicate_game_id_is_reported_and_the_first_game_kept(registry: GameRegistry) -> None:
    first, second = _highcard_variant(id="twice"), _highcard_variant(id="twice")
    mine = GameRegistry()
    mine.register(_Plugin(first), name="first")
    mine.register(_Plugin(second), name="second")
    assert mine.get("twice") is first
    assert "already provided" in _problem(mine, "second")


def test_one_bad_game_does_not_take_its_siblings_down(registry: GameRegistry) -> None:
    good = _highcard_variant(id="good-sibling")
    mine = GameRegistry()
    mine.register(_Plugin(_highcard_variant(min_players=5, max_players=1), good), name="mixed")
    assert mine.get("good-sibling") is good
    assert "min_players/max_players" in _problem(mine, "mixed")


def test_unknown_game_is_a_clear_not_found(registry: GameRegistry) -> None:
    with pytest.raises(NotFound) as info:
        registry.get("no-such-game")
    assert info.value.code == "unknown_game" and "no-such-game" in info.value.message


def test_service_plays_on_beside_broken_plugins(with_broken_plugins: None) -> None:
    registry = _loaded()
    assert len(registry.problems) >= 6
    service = MatchService(MemoryStore(), registry)
    match = service.create_match("highcard", 2)
    assert service.tasks(match)
    with pytest.raises(NotFound) as info:
        service.create_match("raises-on-import", 2)
    assert info.value.code == "unknown_game"


def test_health_lists_broken_plugins_while_the_api_serves_the_good_ones(
    with_broken_plugins: None,
) -> None:
    from litestar.testing import TestClient

    from api.app import create_app

    registry = _loaded()
    with TestClient(create_app(MatchService(MemoryStore(), registry))) as client:
        health = client.get("/health")
        games = client.get("/games")
        created = client.post("/matches", json={"game": "highcard", "players": 2})
    assert health.status_code == 200, health.text
    skipped = {p["plugin"] for p in health.json()["plugin_problems"]}
    assert {"raises-on-import", "inverted-players", "no-hook"} <= skipped
    assert "highcard" in health.json()["games"]
    assert games.status_code == 200 and "highcard" in {g["id"] for g in games.json()}
    assert created.status_code == 201, created.text
