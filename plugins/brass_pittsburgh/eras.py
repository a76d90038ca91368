"""End-of-era scoring and the rounds' money rules that differ from Birmingham.

Train links score with the family's :func:`plugins.brass.scoring.link_points` over the
link-point icons at their two ends (printed on the location plus those of flipped tiles
there, :func:`.scoring.location_icons`); a double link train scores twice. Pipelines never
score. Light trains leave the board as they score in both eras; heavy trains stay after
era 1 and leave after era 2.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from plugins.brass.income import IncomeTrack
from plugins.brass.scoring import link_points
from plugins.brass_pittsburgh.board import PittsburghBoard


def train_link_vp(board: PittsburghBoard, line: int, icons: Sequence[int], multiplier: int) -> int:
    """VP of the train on ``line``: the icons at both ends, times its multiplier (2 for the
    double link train)."""
    return multiplier * link_points(board.line_nodes[line], icons)


def train_leaves_at_era_end(era: int, heavy: bool) -> bool:
    """Light trains go back to their owner at the end of each era; heavy ones after era 2."""
    return not heavy or era == 2


class Bankruptcy(msgspec.Struct, frozen=True, kw_only=True):
    whiskey: int
    vp: int
    income_space: int


def bankrupt(track: IncomeTrack, vp: int, vp_loss: int) -> Bankruptcy:
    """A player who cannot pay negative income drinks all whiskey, loses ``vp_loss`` VP
    (the total may go below zero) and moves the income marker to level 0, and plays on."""
    return Bankruptcy(whiskey=0, vp=vp - vp_loss, income_space=track.highest_space[0])
