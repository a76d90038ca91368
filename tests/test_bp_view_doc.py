"""The view example in Brass: Pittsburgh's CLIENTS.md has the real view's shape, and the
view's decision always names its seat (``null`` once nobody answers)."""

from __future__ import annotations

from pathlib import Path

from plugins.brass_pittsburgh.game import BrassPittsburgh, Options
from tests.brass_view_doc import assert_example_has_the_real_keys, documented_view, played_views

GUIDE = Path(__file__).parent.parent / "plugins" / "brass_pittsburgh" / "CLIENTS.md"
DATA_KEYED = {
    ".players[].mat",
    ".markets[].ladders",
    ".cube_costs.build",
    ".cube_costs.build.*",
    ".cube_costs.network",
    ".cube_costs.network.*",
}
"""Dicts keyed by data (mat spaces, resources, the seat's priced places): their values are
compared under ``*``."""
BY_KIND = {".decision", ".merchants[].reward[]"}
"""Entries whose fields depend on their kind: the example shows one kind, so its fields
need only be real ones."""


def test_documented_view_example_has_the_real_views_keys_at_every_level() -> None:
    assert_example_has_the_real_keys(BrassPittsburgh(), Options(), GUIDE, DATA_KEYED, BY_KIND)


def test_view_example_shows_who_owns_an_oil_city() -> None:
    oilfields = documented_view(GUIDE)["oilfields"]
    assert all("oil_city_owner" in entry for entry in oilfields)


def test_decision_seat_is_null_during_era_scoring_and_once_the_game_is_over() -> None:
    views = played_views(BrassPittsburgh(), Options(), 2, 3)
    assert views[-1]["decision"]["kind"] == "game_over"
    unanswered = [v["decision"] for v in views if v["phase"] != "play"]
    assert {d["kind"] for d in unanswered} == {"era_scoring", "game_over"}
    assert all(d["seat"] is None for d in unanswered)


def test_view_has_no_game_field_as_the_match_envelope_carries_it() -> None:
    assert "game" not in played_views(BrassPittsburgh(), Options(), 2, 4)[0]
