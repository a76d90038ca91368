"""The view example in Brass: Birmingham's CLIENTS.md has the real view's shape, and the
view's decision always names its seat (``null`` once nobody answers)."""

from __future__ import annotations

import json
from pathlib import Path
from random import Random
from typing import Any

from core.game import SYSTEM
from plugins.brass_birmingham.game import BrassBirmingham, Options

GUIDE = Path(__file__).parents[2] / "plugins" / "brass_birmingham" / "CLIENTS.md"
DATA_KEYED: set[str] = set()
"""Dicts keyed by data: their values are compared under ``*`` (none in this view)."""
BY_KIND = {".decision"}
"""Entries whose fields depend on their kind: the example shows one kind, so its fields
need only be real ones."""


def documented_view() -> dict[str, Any]:
    section = GUIDE.read_text().split("## The view", 1)[1]
    return json.loads(section.split("```json", 1)[1].split("```", 1)[0])


def shape(doc: Any, path: str = "", out: dict[str, set[str]] | None = None) -> dict[str, set[str]]:
    """The keys seen at each path of ``doc`` (list entries merged under ``[]``)."""
    out = {} if out is None else out
    if isinstance(doc, dict):
        keyed = path in DATA_KEYED
        if not keyed:
            out.setdefault(path, set()).update(doc)
        for key, value in doc.items():
            shape(value, f"{path}.{'*' if keyed else key}", out)
    elif isinstance(doc, list):
        for value in doc:
            shape(value, f"{path}[]", out)
    return out


def played_views(game: BrassBirmingham, players: int, seed: int) -> list[dict[str, Any]]:
    """Seat 0's view after every move of one random game, the finished game last."""
    rng = Random(seed)
    (event,) = game.setup(Options(), players, rng)
    s = game.evolve(None, event)
    views = []
    while tasks := game.pending_tasks(s):
        task = tasks[0]
        if task.kind == "system":
            events = game.decide(s, SYSTEM, task.move, rng)
        else:
            legal = game.legal_moves(s, task.seat)
            events = game.decide(s, task.seat, legal[rng.randrange(len(legal))], rng)
        for e in events:
            s = game.evolve(s, e)
        views.append(game.view(s, 0))
    return views


def test_documented_view_example_has_the_real_views_keys_at_every_level() -> None:
    game = BrassBirmingham()
    real: dict[str, set[str]] = {}
    for players, seed in ((2, 1), (4, 2)):
        for view in played_views(game, players, seed):
            shape(view, "", real)
    doc = shape(documented_view())
    assert doc[""] == real[""]
    for path, keys in doc.items():
        assert keys <= real.get(path, set()), f"{path}: documented but never shown"
        if path not in BY_KIND:
            assert keys == real[path], f"{path}: the example leaves out {real[path] - keys}"


def test_decision_seat_is_null_during_era_scoring_and_once_the_game_is_over() -> None:
    views = played_views(BrassBirmingham(), 2, 3)
    assert views[-1]["decision"]["kind"] == "game_over"
    unanswered = [v["decision"] for v in views if v["phase"] != "play"]
    assert {d["kind"] for d in unanswered} == {"era_scoring", "game_over"}
    assert all(d["seat"] is None for d in unanswered)


def test_view_has_no_game_field_as_the_match_envelope_carries_it() -> None:
    assert "game" not in played_views(BrassBirmingham(), 2, 4)[0]
