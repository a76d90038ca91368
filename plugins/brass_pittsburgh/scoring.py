"""End of an era on a Pittsburgh state: what scores and what leaves the board.

The family's era end (:mod:`plugins.brass.turn`) asks it through the variant's
``era_points`` and ``era_change``:

1. every train link scores the link-point icons at its two ends (printed on the location
   plus those of flipped tiles there), twice for a double link train; light trains leave
   the board, heavy trains only at the end of era 2; pipelines never score;
2. every flipped industry tile scores its VP (unflipped ones nothing), plus the crown
   jewels' special scores (Polyphase Alternator, Locomotive Works);
3. era 1 only: level I tiles leave the board, and the oil waiting under each oilfield is
   released onto it.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from plugins.brass.scoring import link_icons, link_points
from plugins.brass_pittsburgh.board import PittsburghBoard
from plugins.brass_pittsburgh.industries import leaves_at_end_of_era1
from plugins.brass_pittsburgh.links import LIGHT
from plugins.brass_pittsburgh.rewards import era_end_vp
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.state import State, era_number


class EraScore(msgspec.Struct, frozen=True, kw_only=True):
    icons: list[int]
    """Link-point icons per location the links scored (:func:`location_icons`)."""
    link_vp: list[int]
    industry_vp: list[int]
    """Printed VP of flipped tiles plus the crown jewels' special scores, per seat."""
    trains_removed: list[int]
    """Lines whose train goes back to its owner's supply."""
    slots_cleared: list[int]
    """Slots whose tile leaves the board (era 1: the level I tiles)."""
    oil_released: list[int]
    """Barrels moving from under each oilfield onto it (era 1 only)."""


def train_link_vp(board: PittsburghBoard, line: int, icons: Sequence[int], multiplier: int) -> int:
    """VP of the train on ``line``: the icons at both ends, times its multiplier (2 for the
    double link train)."""
    return multiplier * link_points(board.line_nodes[line], icons)


def train_leaves_at_era_end(era: int, heavy: bool) -> bool:
    """Light trains go back to their owner at the end of each era; heavy ones after era 2."""
    return not heavy or era == 2


def heavy_trains_on_board(rules: Rules, state: State, seat: int) -> int:
    return sum(
        1
        for line, owner in enumerate(state.line_owner)
        if owner == seat and state.line_link[line] not in ("", LIGHT)
    )


def location_icons(rules: Rules, state: State) -> list[int]:
    """Link-point icons per location now: printed, plus those of flipped tiles there."""
    board, tiles = rules.board_of(state.side), rules.data.mat.tiles
    flipped = [
        (board.slot_node[slot], tiles[tile].link_icons)
        for slot, tile in enumerate(state.slot_tile)
        if tile and state.slot_flipped[slot]
    ]
    return link_icons(board.printed_link_icons, flipped)


def score_era(rules: Rules, state: State) -> EraScore:
    data, board = rules.data, rules.board_of(state.side)
    n = state.players
    icons = location_icons(rules, state)
    link_vp = [0] * n
    removed = []
    for line, owner in enumerate(state.line_owner):
        if owner < 0:
            continue
        link = state.line_link[line]
        heavy = link != LIGHT
        multiplier = data.heavy_trains[link].link_score_multiplier if heavy else 1
        link_vp[owner] += train_link_vp(board, line, icons, multiplier)
        if train_leaves_at_era_end(era_number(state), heavy):
            removed.append(line)
    industry_vp = [0] * n
    for slot, tile_id in enumerate(state.slot_tile):
        if tile_id and state.slot_flipped[slot]:
            seat, tile = state.slot_owner[slot], data.mat.tiles[tile_id]
            industry_vp[seat] += tile.vp
            if tile.vp_special is not None:
                industry_vp[seat] += era_end_vp(
                    [tile.vp_special],
                    empty_mat_spaces=rules.mat.empty_spaces(state.mat[seat]),
                    heavy_trains_built=heavy_trains_on_board(rules, state, seat),
                )
    oil_city = next(t for t in data.mat.tiles.values() if t.build_on == "oilfield")
    for field, seat in enumerate(state.oil_city_owner):
        if seat >= 0 and state.oil_city_flipped[field]:
            industry_vp[seat] += oil_city.vp
    era1 = era_number(state) == 1
    cleared = [
        slot
        for slot, tile in enumerate(state.slot_tile)
        if era1 and tile and leaves_at_end_of_era1(data.mat.tiles[tile])
    ]
    released = list(state.oil_pending) if era1 else [0] * len(state.oil_pending)
    return EraScore(
        icons=icons,
        link_vp=link_vp,
        industry_vp=industry_vp,
        trains_removed=removed,
        slots_cleared=cleared,
        oil_released=released,
    )
