"""The part of a seat's view the greedy bot reads (:mod:`plugins.brass.bot`), built straight
from a state for the search bot's playouts.

A playout decision asks the greedy bot for a move in a determinized state, hundreds of
times a think; the full view (:func:`plugins.brass_pittsburgh.view.view`) spells out far
more than the bot reads (discards, link supplies, the pending steps, the decision in words,
every oilfield's details) and costs several times as much. This document holds only what
the bot reads, every value as the view has it (tests/test_brass_playout_policy.py pins that
it is part of the view and that the bot weighs every move alike from both). Static parts
(names, ends, merchant entries, market ladders by their cubes) are built once and shared:
the bot only reads them.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from typing import Any

import msgspec

from plugins.brass.bot import FollowUpFacts, joined_to
from plugins.brass.knowledge import Knowledge
from plugins.brass_pittsburgh.links import LIGHT
from plugins.brass_pittsburgh.names import Names
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.state import State
from plugins.brass_pittsburgh.view import _market


class _Tables:
    """What every bot view of one board side shares, by engine index."""

    def __init__(self, r: Rules, names: Names, side: str) -> None:
        d, board, n = r.data, r.board_of(side), names.sides[side]
        self.r, self.side, self.n = r, side, n
        self.card = list(names.card)
        self.tile_ids = list(names.tile)
        self.space = list(n.space)
        self.location = [n.location[board.slot_node[slot]] for slot in range(len(n.space))]
        self.line = list(n.line)
        self.line_ends = [list(line.endpoints) for line in board.lines]
        self.route = [
            (n.route[ri], route.oilfield, route.city) for ri, route in enumerate(board.routes)
        ]
        self.tile = {
            tile: (d.mat.tiles[tile].industry, d.mat.tiles[tile].level, r.tile_holds[tile] or None)
            for tile in d.mat.tiles
        }
        self.vanderbilt = dict(board.side.vanderbilt)
        self.merchant: dict[tuple[int, str, bool], dict[str, Any]] = {}
        for m, (node, _min_players) in enumerate(board.merchant_spaces):
            for t, tile in d.merchant_tiles.items():
                for face_up in (False, True):
                    self.merchant[m, t, face_up] = {
                        "merchant": n.merchant[m], "location": n.location[node], "tile": t,
                        "face_up": face_up, "accepts": list(tile.accepts),
                        "reward": msgspec.to_builtins(tile.reward),
                    }  # fmt: skip
        self.markets: dict[tuple[int, tuple[tuple[str, int], ...]], dict[str, Any]] = {}
        self.market_index = {name: m for m, name in enumerate(n.market)}
        self.merchant_location = [n.location[node] for node, _ in board.merchant_spaces]
        self.stars = {q: d.quality_rewards[q].stars_required for q in d.quality_rewards}

    def market(self, m: int, cubes: dict[str, int]) -> dict[str, Any]:
        key = (m, tuple(cubes.items()))
        found = self.markets.get(key)
        if found is None:
            found = self.markets[key] = msgspec.to_builtins(
                _market(self.r, self.side, m, cubes, self.n)
            )
        return found


@cache
def _tables(r: Rules, names: Names, side: str) -> _Tables:
    return _Tables(r, names, side)


def bot_view(r: Rules, names: Names, s: State, seat: int) -> dict[str, Any]:
    """The fields of ``seat``'s view of ``s`` that the greedy bot reads."""
    tb = _tables(r, names, s.side)
    tile_ids = tb.tile_ids
    players: list[dict[str, Any]] = [{"hand_count": len(h)} for h in s.hands]
    players[seat].update(
        money=s.money[seat], income_space=s.income[seat],
        income_level=r.income.level(s.income[seat]), whiskey=s.whiskey[seat],
        mat=dict(zip(tile_ids, s.mat[seat], strict=True)),
        accessible=[tile_ids[k] for k in r.mat.accessible(s.mat[seat])],
    )  # fmt: skip
    space, location, tiles = tb.space, tb.location, tb.tile
    out: dict[str, Any] = {
        "side": s.side,
        "seat": seat,
        "era": s.era + 1,
        "deck_count": len(s.deck),
        "hand": [tb.card[c] for c in s.hands[seat]],
        "players": players,
        "tiles": [
            {
                "space": space[slot],
                "location": location[slot],
                "owner": o,
                "tile": tile,
                "industry": tiles[tile][0],
                "level": tiles[tile][1],
                "flipped": s.slot_flipped[slot],
                "resources": s.slot_cubes[slot],
                "resource": tiles[tile][2],
            }
            for slot, o in enumerate(s.slot_owner)
            if o >= 0
            for tile in (s.slot_tile[slot],)
        ],
        "lines": [
            {
                "line": tb.line[li],
                "ends": tb.line_ends[li],
                "owner": o,
                "link": link,
                "kind": "light" if link == LIGHT else "heavy",
                "carries": r.train_carries[link] or None,
                "cargo": s.line_cargo[li],
            }
            for li, o in enumerate(s.line_owner)
            if o >= 0
            for link in (s.line_link[li],)
        ],
        "pipelines": [
            {
                "route": tb.route[ri][0],
                "oilfield": tb.route[ri][1],
                "city": tb.route[ri][2],
                "owner": o,
                "pipeline": pipe,
                "carries_oil": r.data.pipelines[pipe].carries_oil,
            }
            for ri, o in enumerate(s.route_owner)
            if o >= 0
            for pipe in (s.route_pipeline[ri],)
        ],
        "markets": [tb.market(m, cubes) for m, cubes in enumerate(s.market_cubes)],
        "vanderbilt": tb.vanderbilt,
        "merchants": [
            tb.merchant[m, t, s.merchant_faceup[m]] for m, t in enumerate(s.merchant_tile) if t
        ],
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
    tb = _tables(r, names, s.side)
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


def _price(r: Rules, tb: _Tables, s: State, market: str, resource: str) -> float | None:
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
