"""The Brass: Pittsburgh game state (flat lists) and the reducer that builds it.

Indices: seats ``0..players-1``; cards are card kinds of :class:`.rules.Rules.cards`;
``mat[seat][space]`` counts the tiles left on each mat space (:class:`.mat.MatGraph`);
lines, pipeline routes, oilfields, markets, merchant spaces and industry slots follow the
board side's order (:class:`.board.PittsburghBoard`). Tile and link ids are the data
set's ids; ``""`` means none.
"""

from __future__ import annotations

from typing import Any

from plugins.brass.state import OVER, PLAY, SCORING, BrassState, apply_core, core_fields
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh.board import PittsburghBoard
from plugins.brass_pittsburgh.links import LIGHT
from plugins.brass_pittsburgh.rules import Rules

__all__ = [
    "ERA1",
    "ERA2",
    "OVER",
    "PLACES",
    "PLAY",
    "SCORING",
    "State",
    "apply",
    "empty_board",
    "era_number",
    "initial_state",
]

ERA1, ERA2 = 0, 1
"""``State.era`` of the rulebook's era 1 and era 2 (the family counts from 0)."""


class State(BrassState, kw_only=True):
    """The family's shared fields (cards, money, income, VP, turns; ``era`` counts from 0)
    plus the Pittsburgh board and player boards."""

    side: str
    """The board side in play."""
    whiskey: list[int]
    mat: list[list[int]]
    light_trains: list[int]
    """Light trains in each seat's personal supply."""
    link_supply: list[list[str]]
    """Heavy trains and pipelines in each seat's personal supply (unlocked, not built)."""
    line_owner: list[int]
    line_link: list[str]
    """The link tile on each railroad line (``LT`` or a heavy train id)."""
    line_cargo: list[int]
    """Resources left on a resource heavy train (its kind comes from the train)."""
    route_owner: list[int]
    route_pipeline: list[str]
    slot_owner: list[int]
    slot_tile: list[str]
    slot_cubes: list[int]
    slot_flipped: list[bool]
    oil: list[int]
    """Barrels on each oilfield (or on its Oil City), ready to use."""
    oil_pending: list[int]
    """Barrels under each oilfield, released at the end of era 1."""
    oilfield_tile: list[str]
    oilfield_revealed: list[bool]
    oil_city_owner: list[int]
    oil_city_flipped: list[bool]
    market_cubes: list[dict[str, int]]
    merchant_tile: list[str]
    merchant_faceup: list[bool]
    quality_rewards: list[str]
    quality_faceup: list[bool]


PLACES = {
    "line_owner": ("line", -1), "line_link": ("line", ""), "line_cargo": ("line", 0),
    "route_owner": ("route", -1), "route_pipeline": ("route", ""),
    "slot_owner": ("space", -1), "slot_tile": ("space", ""), "slot_cubes": ("space", 0),
    "slot_flipped": ("space", False),
    "oil": ("oilfield", 0), "oil_pending": ("oilfield", 0), "oilfield_tile": ("oilfield", ""),
    "oilfield_revealed": ("oilfield", False), "oil_city_owner": ("oilfield", -1),
    "oil_city_flipped": ("oilfield", False),
    "market_cubes": ("market", None), "merchant_tile": ("merchant", ""),
}  # fmt: skip
"""The state's per-place fields: the kind of place they follow (a position document names
the places by the side's id table of that kind) and the value of an empty place (the
markets start with their printed cubes: :func:`empty_board`)."""


def empty_board(board: PittsburghBoard) -> dict[str, list[Any]]:
    """Every field of :data:`PLACES` with each place of ``board`` empty (no tile drawn)."""
    size = {"line": len(board.lines), "route": len(board.routes), "space": len(board.slot_node),
            "oilfield": len(board.oilfields), "merchant": len(board.merchant_spaces)}  # fmt: skip
    markets = [{res: ladder.initial for res, ladder in m.ladders.items()} for m in board.markets]
    return {key: markets if kind == "market" else [empty] * size[kind]
            for key, (kind, empty) in PLACES.items()}  # fmt: skip


def era_number(state: BrassState) -> int:
    """The rulebook's era, 1 or 2 (the family counts eras from 0)."""
    return state.era + 1


def initial_state(rules: Rules, e: ev.Started) -> State:
    data, n = rules.data, e.players
    on_mat = data.links_on_mat()
    supply = [link for link in (*data.heavy_trains, *data.pipelines) if link not in on_mat]
    core = core_fields(
        rules.turn_rules, n, e.order, e.deck, e.hands, e.facedown,
        data.constants.starting_money, data.income_track.start_space,
    )  # fmt: skip
    drawn = {"oilfield_tile": list(e.oilfield_tiles), "merchant_tile": list(e.merchant_tiles)}
    return State(
        **core, **{**empty_board(rules.board_of(e.side)), **drawn}, side=e.side,
        whiskey=[0] * n, mat=[rules.mat.initial() for _ in range(n)],
        light_trains=[data.light_trains.count] * n, link_supply=[supply[:] for _ in range(n)],
        merchant_faceup=[bool(t) for t in e.merchant_tiles],
        quality_rewards=list(e.quality_rewards), quality_faceup=[True] * len(e.quality_rewards),
    )  # fmt: skip


def apply(rules: Rules, state: State | None, event: Any) -> State:
    """Fold one event into ``state`` in place and return it (``None`` before ``Started``)."""
    s, e, t = state, event, type(event)
    if t is ev.Started:
        return initial_state(rules, e)
    assert s is not None, "a match starts with a Started event"
    if apply_core(rules.turn_rules, s, e):
        return s
    # the board's events, the most frequent first
    if t is ev.Gained:
        s.money[e.seat] += e.money
        s.vp[e.seat] += e.vp
        if e.income_spaces:
            s.income[e.seat] = rules.income.advance(s.income[e.seat], e.income_spaces)
        s.whiskey[e.seat] = min(rules.data.constants.whiskey_max, s.whiskey[e.seat] + e.whiskey)
    elif t is ev.CubeTaken:
        s.slot_cubes[e.slot] -= 1
    elif t is ev.MarketBought:
        s.market_cubes[e.market][e.resource] -= 1
    elif t is ev.OilTaken:
        s.oil[e.oilfield] -= 1
    elif t is ev.CargoTaken:
        s.line_cargo[e.line] -= 1
    elif t is ev.TileTaken:
        s.link_supply[e.seat] += rules.mat.take(s.mat[e.seat], e.space)
    elif t is ev.TilePlaced:
        s.slot_owner[e.slot] = e.seat
        s.slot_tile[e.slot] = rules.mat.tiles[e.space].id
        s.slot_cubes[e.slot] = e.cubes
        s.slot_flipped[e.slot] = e.flipped
    elif t is ev.TrainPlaced:
        s.line_owner[e.line], s.line_link[e.line], s.line_cargo[e.line] = e.seat, e.link, e.cargo
        if e.link == LIGHT:
            s.light_trains[e.seat] -= 1
        else:
            s.link_supply[e.seat].remove(e.link)
    elif t is ev.CubesSold:
        s.slot_cubes[e.slot] -= e.count
        s.market_cubes[e.market][e.resource] += e.count
    elif t is ev.TileFlipped:
        s.slot_flipped[e.slot] = True
    elif t is ev.WhiskeySpent:
        s.whiskey[e.seat] -= e.count
    elif t is ev.IncomeSet:
        s.income[e.seat] = e.space
    elif t is ev.PipelinePlaced:
        if s.route_owner[e.route] >= 0:  # a reserve pipeline swapped out goes home
            s.link_supply[e.seat].append(s.route_pipeline[e.route])
        s.route_owner[e.route], s.route_pipeline[e.route] = e.seat, e.pipeline
        s.link_supply[e.seat].remove(e.pipeline)
        s.oil[rules.board_of(s.side).route_oilfield[e.route]] += e.oil_added
    elif t is ev.OilfieldRevealed:
        s.oilfield_revealed[e.oilfield] = True
        s.oil[e.oilfield] += e.oil_now
        s.oil_pending[e.oilfield] += e.oil_later
    elif t is ev.MerchantFlipped:
        s.merchant_faceup[e.space] = False
    elif t is ev.QualityClaimed:
        s.quality_faceup[e.index] = False
    elif t is ev.TileRemoved:
        _clear_slot(s, e.slot)
    elif t is ev.TrainReplaced:
        s.light_trains[s.line_owner[e.line]] += 1
        s.line_owner[e.line], s.line_link[e.line], s.line_cargo[e.line] = -1, "", 0
    elif t is ev.OilCityBuilt:
        s.oil_city_owner[e.oilfield] = e.seat
        s.oil[e.oilfield] += e.barrels
    elif t is ev.OilCityFlipped:
        s.oil_city_flipped[e.oilfield] = True
    elif t is ev.Bankrupt:
        s.whiskey[e.seat] = 0
        s.income[e.seat] = rules.income.highest_space[0]
    elif t is ev.BoardCleared:
        _board_cleared(s, e)
    else:
        raise TypeError(f"unknown event {t.__name__}")
    return s


def _clear_slot(s: State, slot: int) -> None:
    s.slot_owner[slot], s.slot_tile[slot] = -1, ""
    s.slot_cubes[slot], s.slot_flipped[slot] = 0, False


def _board_cleared(s: State, e: ev.BoardCleared) -> None:
    for line in e.lines:
        owner, link = s.line_owner[line], s.line_link[line]
        if link == LIGHT:
            s.light_trains[owner] += 1
        else:
            s.link_supply[owner].append(link)
        s.line_owner[line], s.line_link[line], s.line_cargo[line] = -1, "", 0
    for slot in e.slots:
        _clear_slot(s, slot)
    for field, n in enumerate(e.oil_released):
        s.oil[field] += n
        s.oil_pending[field] -= n
