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
from plugins.brass_pittsburgh.links import LIGHT
from plugins.brass_pittsburgh.rules import Rules

__all__ = [
    "ERA1",
    "ERA2",
    "OVER",
    "PLAY",
    "SCORING",
    "State",
    "apply",
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

    def clone(self) -> State:
        return State(
            **self.core_copy(), side=self.side, whiskey=self.whiskey[:],
            mat=[m[:] for m in self.mat], light_trains=self.light_trains[:],
            link_supply=[s[:] for s in self.link_supply], line_owner=self.line_owner[:],
            line_link=self.line_link[:], line_cargo=self.line_cargo[:],
            route_owner=self.route_owner[:], route_pipeline=self.route_pipeline[:],
            slot_owner=self.slot_owner[:], slot_tile=self.slot_tile[:],
            slot_cubes=self.slot_cubes[:], slot_flipped=self.slot_flipped[:], oil=self.oil[:],
            oil_pending=self.oil_pending[:], oilfield_tile=self.oilfield_tile[:],
            oilfield_revealed=self.oilfield_revealed[:],
            oil_city_owner=self.oil_city_owner[:], oil_city_flipped=self.oil_city_flipped[:],
            market_cubes=[dict(m) for m in self.market_cubes],
            merchant_tile=self.merchant_tile[:], merchant_faceup=self.merchant_faceup[:],
            quality_rewards=self.quality_rewards[:], quality_faceup=self.quality_faceup[:],
        )  # fmt: skip


def era_number(state: BrassState) -> int:
    """The rulebook's era, 1 or 2 (the family counts eras from 0)."""
    return state.era + 1


def initial_state(rules: Rules, e: ev.Started) -> State:
    data, board = rules.data, rules.board_of(e.side)
    n, c = e.players, rules.data.constants
    on_mat = data.links_on_mat()
    nl, nr, ns = len(board.lines), len(board.routes), len(board.slot_node)
    nf = len(board.oilfields)
    core = core_fields(
        rules.turn_rules, n, e.order, e.deck, e.hands, e.facedown, c.starting_money,
        data.income_track.start_space,
    )  # fmt: skip
    return State(
        **core,
        side=e.side,
        whiskey=[0] * n,
        mat=[rules.mat.initial() for _ in range(n)],
        light_trains=[data.light_trains.count] * n,
        link_supply=[
            [
                *(h for h in data.heavy_trains if h not in on_mat),
                *(p for p in data.pipelines if p not in on_mat),
            ]
            for _ in range(n)
        ],
        line_owner=[-1] * nl,
        line_link=[""] * nl,
        line_cargo=[0] * nl,
        route_owner=[-1] * nr,
        route_pipeline=[""] * nr,
        slot_owner=[-1] * ns,
        slot_tile=[""] * ns,
        slot_cubes=[0] * ns,
        slot_flipped=[False] * ns,
        oil=[0] * nf,
        oil_pending=[0] * nf,
        oilfield_tile=list(e.oilfield_tiles),
        oilfield_revealed=[False] * nf,
        oil_city_owner=[-1] * nf,
        oil_city_flipped=[False] * nf,
        market_cubes=[
            {res: ladder.initial for res, ladder in m.ladders.items()} for m in board.markets
        ],
        merchant_tile=list(e.merchant_tiles),
        merchant_faceup=[bool(t) for t in e.merchant_tiles],
        quality_rewards=list(e.quality_rewards),
        quality_faceup=[True] * len(e.quality_rewards),
    )


def apply(rules: Rules, state: State | None, event: Any) -> State:
    """Fold one event into ``state`` in place and return it (``None`` before ``Started``)."""
    if isinstance(event, ev.Started):
        return initial_state(rules, event)
    assert state is not None, "a match starts with a Started event"
    s, e = state, event
    if apply_core(rules.turn_rules, s, e):
        return s
    handler = _HANDLERS.get(type(e))
    if handler is None:
        raise TypeError(f"unknown event {type(e).__name__}")
    handler(rules, s, e)
    return s


def _gained(r: Rules, s: State, e: ev.Gained) -> None:
    s.money[e.seat] += e.money
    s.vp[e.seat] += e.vp
    if e.income_spaces:
        s.income[e.seat] = r.income.advance(s.income[e.seat], e.income_spaces)
    s.whiskey[e.seat] = min(r.data.constants.whiskey_max, s.whiskey[e.seat] + e.whiskey)


def _income_set(r: Rules, s: State, e: ev.IncomeSet) -> None:
    s.income[e.seat] = e.space


def _whiskey_spent(r: Rules, s: State, e: ev.WhiskeySpent) -> None:
    s.whiskey[e.seat] -= e.count


def _bankrupt(r: Rules, s: State, e: ev.Bankrupt) -> None:
    s.whiskey[e.seat] = 0
    s.income[e.seat] = r.income.highest_space[0]


def _tile_taken(r: Rules, s: State, e: ev.TileTaken) -> None:
    s.link_supply[e.seat] += r.mat.take(s.mat[e.seat], e.space)


def _tile_placed(r: Rules, s: State, e: ev.TilePlaced) -> None:
    s.slot_owner[e.slot] = e.seat
    s.slot_tile[e.slot] = r.mat.tiles[e.space].id
    s.slot_cubes[e.slot] = e.cubes
    s.slot_flipped[e.slot] = e.flipped


def _clear_slot(s: State, slot: int) -> None:
    s.slot_owner[slot], s.slot_tile[slot] = -1, ""
    s.slot_cubes[slot], s.slot_flipped[slot] = 0, False


def _tile_removed(r: Rules, s: State, e: ev.TileRemoved) -> None:
    _clear_slot(s, e.slot)


def _tile_flipped(r: Rules, s: State, e: ev.TileFlipped) -> None:
    s.slot_flipped[e.slot] = True


def _oil_city_built(r: Rules, s: State, e: ev.OilCityBuilt) -> None:
    s.oil_city_owner[e.oilfield] = e.seat
    s.oil[e.oilfield] += e.barrels


def _oil_city_flipped(r: Rules, s: State, e: ev.OilCityFlipped) -> None:
    s.oil_city_flipped[e.oilfield] = True


def _cube_taken(r: Rules, s: State, e: ev.CubeTaken) -> None:
    s.slot_cubes[e.slot] -= 1


def _cargo_taken(r: Rules, s: State, e: ev.CargoTaken) -> None:
    s.line_cargo[e.line] -= 1


def _market_bought(r: Rules, s: State, e: ev.MarketBought) -> None:
    s.market_cubes[e.market][e.resource] -= 1


def _cubes_sold(r: Rules, s: State, e: ev.CubesSold) -> None:
    s.slot_cubes[e.slot] -= e.count
    s.market_cubes[e.market][e.resource] += e.count


def _oil_taken(r: Rules, s: State, e: ev.OilTaken) -> None:
    s.oil[e.oilfield] -= 1


def _train_placed(r: Rules, s: State, e: ev.TrainPlaced) -> None:
    s.line_owner[e.line], s.line_link[e.line], s.line_cargo[e.line] = e.seat, e.link, e.cargo
    if e.link == LIGHT:
        s.light_trains[e.seat] -= 1
    else:
        s.link_supply[e.seat].remove(e.link)


def _train_replaced(r: Rules, s: State, e: ev.TrainReplaced) -> None:
    s.light_trains[s.line_owner[e.line]] += 1
    s.line_owner[e.line], s.line_link[e.line], s.line_cargo[e.line] = -1, "", 0


def _pipeline_placed(r: Rules, s: State, e: ev.PipelinePlaced) -> None:
    if s.route_owner[e.route] >= 0:  # a reserve pipeline swapped out goes home
        s.link_supply[e.seat].append(s.route_pipeline[e.route])
    s.route_owner[e.route], s.route_pipeline[e.route] = e.seat, e.pipeline
    s.link_supply[e.seat].remove(e.pipeline)
    s.oil[r.board_of(s.side).route_oilfield[e.route]] += e.oil_added


def _oilfield_revealed(r: Rules, s: State, e: ev.OilfieldRevealed) -> None:
    s.oilfield_revealed[e.oilfield] = True
    s.oil[e.oilfield] += e.oil_now
    s.oil_pending[e.oilfield] += e.oil_later


def _merchant_flipped(r: Rules, s: State, e: ev.MerchantFlipped) -> None:
    s.merchant_faceup[e.space] = False


def _quality_claimed(r: Rules, s: State, e: ev.QualityClaimed) -> None:
    s.quality_faceup[e.index] = False


def _board_cleared(r: Rules, s: State, e: ev.BoardCleared) -> None:
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


_HANDLERS: dict[type, Any] = {
    ev.Gained: _gained,
    ev.IncomeSet: _income_set,
    ev.WhiskeySpent: _whiskey_spent,
    ev.Bankrupt: _bankrupt,
    ev.TileTaken: _tile_taken,
    ev.TilePlaced: _tile_placed,
    ev.TileRemoved: _tile_removed,
    ev.TileFlipped: _tile_flipped,
    ev.OilCityBuilt: _oil_city_built,
    ev.OilCityFlipped: _oil_city_flipped,
    ev.CubeTaken: _cube_taken,
    ev.CargoTaken: _cargo_taken,
    ev.MarketBought: _market_bought,
    ev.CubesSold: _cubes_sold,
    ev.OilTaken: _oil_taken,
    ev.TrainPlaced: _train_placed,
    ev.TrainReplaced: _train_replaced,
    ev.PipelinePlaced: _pipeline_placed,
    ev.OilfieldRevealed: _oilfield_revealed,
    ev.MerchantFlipped: _merchant_flipped,
    ev.QualityClaimed: _quality_claimed,
    ev.BoardCleared: _board_cleared,
}
