"""The part of a seat's view the greedy bot reads (:mod:`plugins.brass.bot`), built straight
from a state for the search bot's playouts.

A playout decision asks the greedy bot for a move in a determinized state, hundreds of
times a think; the full view (:func:`plugins.brass_birmingham.view.view`) spells out far
more than the bot reads (discards, the pending steps, the double rail check, the decision
in words) and costs several times as much. This document holds only what the bot reads,
every value as the view has it (tests/test_brass_playout_policy.py pins that it is part of
the view and that the bot weighs every move alike from both). The static parts (names,
ends, merchant and market entries) are built once and shared: the bot only reads them.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import msgspec

from plugins.brass.board_docs import market_view
from plugins.brass.bot import FollowUpFacts, joined_to
from plugins.brass.mat import EMPTY
from plugins.brass_birmingham.data import INDUSTRIES, Birmingham
from plugins.brass_birmingham.names import Names
from plugins.brass_birmingham.state import State
from plugins.brass_birmingham.view import ERAS, _bonus


class _Tables:
    """What every bot view of one board shares, by engine index."""

    def __init__(self, d: Birmingham, names: Names) -> None:
        self.space = list(names.space)
        self.location = [names.location[d.slot_loc[slot]] for slot in range(d.n_slots)]
        self.card = list(names.card)
        self.link_name = list(names.link)
        self.link_ends = [[names.location[n] for n in nodes] for nodes in d.link_nodes]
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
        self.coal = [msgspec.to_builtins(market_view(d.coal_market, c))
                     for c in range(d.coal_market.capacity + 1)]  # fmt: skip
        self.iron = [msgspec.to_builtins(market_view(d.iron_market, c))
                     for c in range(d.iron_market.capacity + 1)]  # fmt: skip
        # per industry and tiles taken off its stack: the next level, and tiles left
        self.next_level = [
            [None if (lvl := d.stacks.top_level(k, taken)) == EMPTY else lvl
             for taken in range(d.stacks.sizes[k] + 1)]
            for k in range(len(INDUSTRIES))
        ]  # fmt: skip
        self.sizes = list(d.stacks.sizes)


@cache
def _tables(d: Birmingham, names: Names) -> _Tables:
    return _Tables(d, names)


def bot_view(d: Birmingham, names: Names, s: State, seat: int) -> dict[str, Any]:
    """The fields of ``seat``'s view of ``s`` that the greedy bot reads."""
    tb = _tables(d, names)
    card = tb.card
    players: list[dict[str, Any]] = [{"hand_count": len(h)} for h in s.hands]
    mat = s.mat[seat]
    players[seat].update(
        money=s.money[seat], income_space=s.income[seat],
        income_level=d.income.level(s.income[seat]),
        next_tiles={name: tb.next_level[k][mat[k]] for k, name in enumerate(INDUSTRIES)},
        tiles_left={name: tb.sizes[k] - mat[k] for k, name in enumerate(INDUSTRIES)},
    )  # fmt: skip
    space, location = tb.space, tb.location
    kind = ERAS[s.era]
    return {
        "seat": seat,
        "era": kind,
        "deck_count": len(s.deck),
        "hand": [card[c] for c in s.hands[seat]],
        "players": players,
        "tiles": [
            {
                "space": space[slot],
                "location": location[slot],
                "owner": o,
                "industry": INDUSTRIES[s.slot_ind[slot]],
                "level": s.slot_level[slot],
                "flipped": s.slot_flipped[slot],
                "resources": s.slot_cubes[slot],
            }
            for slot, o in enumerate(s.slot_owner)
            if o >= 0
        ],
        "links": [
            {"link": tb.link_name[li], "ends": tb.link_ends[li], "owner": o, "kind": kind}
            for li, o in enumerate(s.link_owner)
            if o >= 0
        ],
        "markets": {
            "coal": tb.coal[min(s.coal_market, len(tb.coal) - 1)],
            "iron": tb.iron[min(s.iron_market, len(tb.iron) - 1)],
        },
        "merchants": [
            tb.merchant[m, t, s.merchant_beer[m]] for m, t in enumerate(s.merchant_tile) if t >= 0
        ],
    }


def follow_up_facts(d: Birmingham, names: Names, s: State, seat: int) -> FollowUpFacts:
    """What the playouts' quick follow-up rules read of ``s`` for ``seat``."""
    tb = _tables(d, names)
    mat, card, space = s.mat[seat], tb.card, tb.space
    return FollowUpFacts(
        seat=seat, era=s.era, hand=Counter(card[c] for c in s.hands[seat]),
        next_tiles=[f"{name}:{lvl}" for k, name in enumerate(INDUSTRIES)
                    if (lvl := tb.next_level[k][mat[k]])],
        occupied={space[slot]: (o, s.slot_cubes[slot])
                  for slot, o in enumerate(s.slot_owner) if o >= 0},
        pipelines={},
        near_merchant=joined_to(
            {tb.merchant_location[m] for m, t in enumerate(s.merchant_tile) if t >= 0},
            [tb.link_ends[li] for li, o in enumerate(s.link_owner) if o >= 0],
        ),
        price=_no_price,
    )  # fmt: skip


def _no_price(market: str, resource: str) -> float | None:
    return None
