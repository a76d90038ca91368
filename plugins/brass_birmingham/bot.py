"""The bots' Birmingham, on the family's board (:mod:`plugins.brass.board_bot`): the printed
facts for the greedy bot, the part of a seat's view it reads with the merchants, the
playouts' follow-up facts, and ``evaluate`` (:class:`~plugins.brass.evaluation.BoardEvaluation`,
a brewery flipping when its beer is gone)."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from plugins.brass.board_bot import BotTables, board_knowledge
from plugins.brass.bot import FollowUpFacts
from plugins.brass.evaluation import BoardEvaluation
from plugins.brass.knowledge import Knowledge
from plugins.brass_birmingham.data import (
    BREWERY,
    COAL,
    INDUSTRIES,
    IRON,
    SELLABLE,
    Birmingham,
    birmingham,
)
from plugins.brass_birmingham.names import Names
from plugins.brass_birmingham.state import State
from plugins.brass_birmingham.variant import birmingham_variant
from plugins.brass_birmingham.view import _bonus


def rounds_per_era(d: Birmingham) -> dict[int, int]:
    """An era lasts as many rounds as the deck deals hands of its player count (two cards
    a turn)."""
    return {p: sum(copies) // (2 * p) for p, copies in d.deck_copies.items()}


def knowledge_of(d: Birmingham) -> Knowledge:
    flips = ["sell" if k in SELLABLE else "deplete" for k in range(len(INDUSTRIES))]
    resources = {COAL: "coal", IRON: "iron", BREWERY: "beer"}
    loan = (d.rules.loan_amount, d.rules.loan_levels)
    return board_knowledge(d, flips, resources, rounds_per_era(d), loan, lambda t: t.beer)


def evaluation(d: Birmingham) -> BoardEvaluation:
    """``evaluate`` for data ``d``; unpaid negative income is not counted."""
    flips = ["sell" if k in SELLABLE else "beer" if k == BREWERY else "deplete"
             for k in range(len(INDUSTRIES))]  # fmt: skip
    return BoardEvaluation(d, birmingham_variant(d).era_points, flips, rounds_per_era(d))


class Tables(BotTables):
    """The family's tables plus each merchant space's entry, by tile and barrel."""

    def __init__(self, d: Birmingham, names: Names) -> None:
        super().__init__(d, names)
        tile_ids = [t.id for t in d.merchant_tiles]
        self.merchant_location = [names.location[loc] for loc in d.merchant_loc]
        self.merchant: dict[tuple[int, int, int], dict[str, Any]] = {}
        for m, loc in enumerate(d.merchant_loc):
            for t in range(len(d.merchant_tiles)):
                for beer in (0, 1):
                    self.merchant[m, t, beer] = {
                        "merchant": names.merchant[m], "location": names.location[loc],
                        "tile": tile_ids[t], "buys": [INDUSTRIES[k] for k in
                                                      sorted(d.merchant_accepts[t])],
                        "beer": bool(beer), "bonus": msgspec.to_builtins(_bonus(d, loc)),
                    }  # fmt: skip


@cache
def tables(d: Birmingham, names: Names) -> Tables:
    return Tables(d, names)


def bot_view(d: Birmingham, names: Names, s: State, seat: int) -> dict[str, Any]:
    """The fields of ``seat``'s view of ``s`` that the greedy bot reads."""
    tb = tables(d, names)
    merchants = [tb.merchant[m, t, s.merchant_beer[m]]
                 for m, t in enumerate(s.merchant_tile) if t >= 0]  # fmt: skip
    return {**tb.bot_view(s, seat), "merchants": merchants}


def follow_up_facts(d: Birmingham, names: Names, s: State, seat: int) -> FollowUpFacts:
    tb = tables(d, names)
    merchants = {tb.merchant_location[m] for m, t in enumerate(s.merchant_tile) if t >= 0}
    return tb.follow_up_facts(s, seat, merchants)


@cache
def knowledge() -> Knowledge:
    """The shipped data's facts, built once per process."""
    return knowledge_of(birmingham())
