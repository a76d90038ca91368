"""The part of a seat's view the greedy bot reads (:mod:`plugins.brass.bot`), built straight
from a state for the search bot's playouts.

A playout decision asks the greedy bot for a move in a determinized state, hundreds of
times a think; the full view (:func:`plugins.brass_pittsburgh.view.view`) spells out far
more than the bot reads (discards, link supplies, the pending steps, the decision in words,
every oilfield's details) and costs several times as much. This document holds only what
the bot reads, every value as the view has it (tests/test_brass_playout_policy.py pins that
it is part of the view and that the bot weighs every move alike from both). The board's
parts are the view's own (:class:`~plugins.brass_pittsburgh.view.Tables`), shared: the bot
only reads them.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from plugins.brass.bot import FollowUpFacts, joined_to
from plugins.brass.knowledge import Knowledge
from plugins.brass_pittsburgh.names import Names
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.state import State
from plugins.brass_pittsburgh.view import Tables, tables


def bot_view(r: Rules, names: Names, s: State, seat: int) -> dict[str, Any]:
    """The fields of ``seat``'s view of ``s`` that the greedy bot reads."""
    tb = tables(r, names, s.side)
    tile_ids = tb.tile_ids
    players: list[dict[str, Any]] = [{"hand_count": len(h)} for h in s.hands]
    players[seat].update(
        money=s.money[seat], income_space=s.income[seat],
        income_level=r.income.level(s.income[seat]), whiskey=s.whiskey[seat],
        mat=dict(zip(tile_ids, s.mat[seat], strict=True)),
        accessible=[tile_ids[k] for k in r.mat.accessible(s.mat[seat])],
    )  # fmt: skip
    out: dict[str, Any] = {
        "side": s.side,
        "seat": seat,
        "era": s.era + 1,
        "deck_count": len(s.deck),
        "hand": [tb.card[c] for c in s.hands[seat]],
        "players": players,
        **tb.board(s),
        "oilfields": [
            {
                "oilfield": name,
                "in_play": bool(tile),
                "face_down": bool(tile) and not s.oilfield_revealed[f],
                "oil": s.oil[f],
            }
            for f, name in enumerate(tb.n.oilfield)
            for tile in (s.oilfield_tile[f],)
        ],
        "quality_rewards": [
            {"reward": q, "stars_required": tb.stars[q]} for q in s.quality_rewards
        ],
    }
    if s.pending and s.pending[0].kind == "quality":
        out["decision"] = {"count": s.pending[0].n}
    return out


def follow_up_facts(r: Rules, names: Names, s: State, seat: int, k: Knowledge) -> FollowUpFacts:
    """What the playouts' quick follow-up rules read of ``s`` for ``seat`` (``k``: the
    side's knowledge, naming the tiles it knows)."""
    tb = tables(r, names, s.side)
    tile_ids, space = tb.tile_ids, tb.space
    accessible = (tile_ids[i] for i in r.mat.accessible(s.mat[seat]))
    return FollowUpFacts(
        seat=seat, era=s.era, hand=Counter(tb.card[c] for c in s.hands[seat]),
        next_tiles=[t for t in accessible if t in k.tiles],
        occupied={space[slot]: (o, s.slot_cubes[slot])
                  for slot, o in enumerate(s.slot_owner) if o >= 0},
        pipelines={tb.route[ri][0]: o for ri, o in enumerate(s.route_owner) if o >= 0},
        near_merchant=joined_to(
            {tb.merchant_location[m] for m, t in enumerate(s.merchant_tile) if t},
            [tb.line_ends[li] for li, o in enumerate(s.line_owner) if o >= 0],
        ),
        price=lambda market, resource: _price(r, tb, s, market, resource),
    )  # fmt: skip


def _price(r: Rules, tb: Tables, s: State, market: str, resource: str) -> float | None:
    """The next ``resource`` cube's price at ``market`` (or Vanderbilt), as the view shows."""
    if market == "vanderbilt":
        return float(tb.vanderbilt.get(resource, 15))
    m = tb.market_index.get(market)
    if m is None:
        return None
    cubes = s.market_cubes[m]
    if resource not in cubes:
        return None
    price = r.ladders[s.side][m][resource].buy_price(cubes[resource])
    return None if price is None else float(price)
