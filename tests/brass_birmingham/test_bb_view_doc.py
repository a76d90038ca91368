"""The view example in Brass: Birmingham's CLIENTS.md has the real view's shape, and the
view's decision always names its seat (``null`` once nobody answers)."""

from __future__ import annotations

from pathlib import Path

from plugins.brass_birmingham.game import BrassBirmingham, Options
from tests.brass_view_doc import assert_example_has_the_real_keys, played_views

GUIDE = Path(__file__).parents[2] / "plugins" / "brass_birmingham" / "CLIENTS.md"
DATA_KEYED = {".market_buys.build", ".market_buys.build.*", ".market_buys.network"}
"""Dicts keyed by data: their values are compared under ``*`` (locations, industries and
link lines in ``market_buys``)."""
BY_KIND = {".decision"}
"""Entries whose fields depend on their kind: the example shows one kind, so its fields
need only be real ones."""


def test_documented_view_example_has_the_real_views_keys_at_every_level() -> None:
    assert_example_has_the_real_keys(BrassBirmingham(), Options(), GUIDE, DATA_KEYED, BY_KIND)


def test_decision_seat_is_null_during_era_scoring_and_once_the_game_is_over() -> None:
    views = played_views(BrassBirmingham(), Options(), 2, 3)
    assert views[-1]["decision"]["kind"] == "game_over"
    unanswered = [v["decision"] for v in views if v["phase"] != "play"]
    assert {d["kind"] for d in unanswered} == {"era_scoring", "game_over"}
    assert all(d["seat"] is None for d in unanswered)


def test_view_has_no_game_field_as_the_match_envelope_carries_it() -> None:
    assert "game" not in played_views(BrassBirmingham(), Options(), 2, 4)[0]
