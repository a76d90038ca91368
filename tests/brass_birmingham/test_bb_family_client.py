"""The Brass-family pieces both games share at the client boundary and in their rules:
names, the event log, results, card checks and the mat protocol."""

from __future__ import annotations

import pytest

from core.errors import IllegalMove
from plugins.brass import events as fev
from plugins.brass.build import (
    EVERY_LOCATION,
    NETWORK_LOCATIONS,
    NO_LOCATION,
    card_reach,
    card_refusal,
)
from plugins.brass.cards import CardDef
from plugins.brass.client import Decision, Ids, card_ids
from plugins.brass.hidden import redact_core
from plugins.brass.log import redact_log
from plugins.brass.mat import TileStacks, developable
from plugins.brass.scoring import TieBreak, final_result, link_icons

NAMES = ("location:b", "location:a", "industry:coal")


def name(card: int) -> str:
    return NAMES[card]


def test_drawn_cards_are_shown_sorted_never_in_deck_order() -> None:
    drew = fev.Drew(0, [2, 0, 1])
    assert redact_core(drew, 0, name)["cards"] == sorted(NAMES)
    assert redact_core(drew, 1, name) == {"seat": 0, "count": 3, "cards": None}


def test_log_names_discards_and_counts_eras_from_the_games_first_era() -> None:
    def rename(e: object, out: dict) -> dict:
        return {**out, "renamed": True}

    def describe(step: fev.Step) -> Decision:
        return Decision(kind=step.kind, moves=[step.kind], prompt="choose")

    def log(e: object, first_era: int = 0) -> dict:
        return redact_log(e, 1, name, describe, rename, first_era)

    assert log(fev.Discarded(0, [2])) == {"seat": 0, "cards": ["industry:coal"]}
    assert log(fev.EraScored(0, [1, 2], [3, 4]), first_era=1)["era"] == 1
    assert log(fev.EraBegan(1, [0], [[1], [2]]), first_era=1)["era"] == 2
    assert log(fev.Awaiting([fev.Step("discard", 1)], 1)) == {
        "deciding": 1,
        "decision": {"kind": "discard", "moves": ["discard"], "prompt": "choose"},
    }
    assert log(fev.Paid(0, 3)) == {"seat": 0, "amount": 3, "renamed": True}


def test_result_breaks_vp_ties_in_order_and_names_the_tie_breaks() -> None:
    result = final_result(
        [10, 10, 8, 10],
        [TieBreak("income_level", "income level", [3, 3, 9, 3]),
         TieBreak("money", "money", [1, 4, 9, 1])],
    )  # fmt: skip
    assert result.ranking == [2, 1, 4, 2]  # equal keys share a place
    assert result.details == {
        "income_level": [3, 3, 9, 3],
        "money": [1, 4, 9, 1],
        "tie_breaks": ["income level", "money"],
    }


def test_card_treated_as_wild_builds_any_industry_anywhere() -> None:
    coal = CardDef("coal", "industry", industries=(0,))
    assert card_refusal(coal, 5, 1, in_network=False, has_presence=True, nameable=True) == (
        "card_wrong_industry",
        "an industry card builds only the industries it shows",
    )
    assert card_refusal(coal, 5, 1, False, True, True, wild=True) is None
    assert card_refusal(None, 5, 1, False, True, False, wild=True) is None
    assert card_reach(None, has_presence=True, wild=True) == EVERY_LOCATION


def test_card_reach_location_card_its_town_industry_card_the_network() -> None:
    assert card_reach(CardDef("b", "location", location=4), has_presence=True) == 4
    assert card_reach(CardDef("x", "location"), has_presence=True) == NO_LOCATION
    coal = CardDef("coal", "industry", industries=(0,))
    assert card_reach(coal, has_presence=True) == NETWORK_LOCATIONS
    assert card_reach(coal, has_presence=False) == EVERY_LOCATION


def test_tile_stacks_follow_the_mat_protocol() -> None:
    stacks = TileStacks([[1, 1], [0, 2]])  # industry 0: I, II; industry 1: II, II
    taken = [1, 2]
    assert stacks.accessible(taken) == [0]
    assert stacks.take(taken, 0) == [] and taken == [2, 2]
    assert stacks.accessible(taken) == []
    assert developable(stacks, [0, 0], lambda industry: industry == 1) == [1]


def test_unknown_name_is_refused_with_its_code_and_a_sentence_naming_it() -> None:
    cards = card_ids(NAMES, ["location:a"])
    assert cards[2] == "industry:coal" and cards.index_of("location:a") == 1
    assert "industry:coal" in cards and "industry:iron" not in cards
    with pytest.raises(IllegalMove) as err:
        cards.index_of("industry:iron")
    assert err.value.code == "unknown_card"
    assert "'industry:iron'" in str(err.value) and "('location:a')" in str(err.value)
    with pytest.raises(IllegalMove) as err:
        Ids(["a~b"], "unknown_link", "no line {name}").index_of("b~a")
    assert err.value.code == "unknown_link" and "no line 'b~a'" in str(err.value)


def test_link_icons_add_each_flipped_tiles_icons_to_the_printed_ones() -> None:
    assert link_icons([2, 0, 1], [(1, 1), (1, 2), (2, 1)]) == [2, 3, 2]
