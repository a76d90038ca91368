"""What a Brass position is worth: each seat's expected final VP, for the search hooks'
``evaluate`` (:mod:`core.game`).

A game's evaluation adds up, per seat: the VP it has; what the era's end would score now
(links under the icons showing, flipped tiles), exactly as the game scores it; what carries
into the next era (tiles above level I score again); each unflipped tile's VP, income and
icons times the chance it still flips (:func:`flip_chance`); and its money and income
level at the worth :mod:`plugins.brass.worth` gives them (the greedy bot weighs moves in
the same units). A finished game is worth its final scores exactly.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from plugins.brass.state import OVER, SCORING, BrassState
from plugins.brass.worth import Outlook, outlook, rounds_left

FLIP_CHANCE: Final = {"sell": 0.55, "deplete": 0.45, "beer": 0.4}
"""Chance an unflipped tile still flips with a few rounds of the era to go, by how it
flips (sold; emptied of coal, iron or the like; emptied of beer)."""
CARRIED_CHANCE: Final = 0.4
"""Chance an unflipped tile that stays into the next era flips there."""
FULL_TIME: Final = 4
"""Rounds left from which an unflipped tile has its full chance to flip."""


def outlooks(s: BrassState, levels: list[int], rounds_after: int) -> tuple[int, list[Outlook]]:
    """Rounds left in the era (none once it is being scored) and each seat's outlook."""
    cards = len(s.deck) + sum(len(h) for h in s.hands)
    rounds_era = 0 if s.phase == SCORING else max(1, rounds_left(cards, s.players))
    after = rounds_after if s.era == 0 else 0
    return rounds_era, [outlook(rounds_era, after, s.money[i], levels[i]) for i in range(s.players)]


def flip_chance(kind: str, rounds_era: int, carried: bool) -> float:
    """Chance an unflipped tile of ``kind`` (a :data:`FLIP_CHANCE` key) flips before the
    game ends: this era with ``rounds_era`` rounds left, or the next if it is ``carried``."""
    p = FLIP_CHANCE[kind] * min(1.0, rounds_era / FULL_TIME)
    return max(p, CARRIED_CHANCE) if carried else p


class BoardEvaluation:
    """``evaluate`` for a variant on the family board (:mod:`plugins.brass.board_state`):
    the sum above, with ``flips[industry]`` a :data:`FLIP_CHANCE` key (or ``"built"``: a
    tile that flips as soon as its build is paid), ``era_points`` the variant's scoring and
    ``rounds_after`` the rounds of the second era by player count; level 1 tiles leave at
    the first era's end. ``shortfall_vp``: VP a seat is expected to lose per unit of future
    negative income it has no money for (tiles sold, then VP)."""

    def __init__(
        self, d: Any, era_points: Callable[[Any], tuple[list[int], list[int]]],
        flips: list[str], rounds_after: dict[int, int], shortfall_vp: float = 0.0,
    ) -> None:  # fmt: skip
        self.d, self.era_points, self.flips = d, era_points, flips
        self.rounds_after, self.shortfall_vp = rounds_after, shortfall_vp

    def __call__(self, s: Any) -> list[float]:
        if s.phase == OVER:
            return [float(v) for v in s.vp]
        d, levels = self.d, self.d.income.levels
        level = [levels[sp] for sp in s.income]
        rounds_era, outs = outlooks(s, level, self.rounds_after[s.players])
        links, industries = self.era_points(s)
        value = [float(s.vp[i] + links[i] + industries[i]) for i in range(s.players)]
        for slot, owner in enumerate(s.slot_owner):
            if owner < 0:
                continue
            k, lvl = s.slot_ind[slot], s.slot_level[slot]
            t, stays = d.tile(k, lvl), s.era == 0 and lvl > 1
            if s.slot_flipped[slot]:
                value[owner] += t.vp if stays else 0
                continue
            flip = self.flips[k]
            p = 1.0 if flip == "built" else flip_chance(flip, rounds_era, stays)
            gain = levels[min(len(levels) - 1, s.income[owner] + t.income)] - level[owner]
            scored = t.vp * (2 if stays else 1) + t.link_icons
            value[owner] += p * (scored + gain * outs[owner].income_vp)
        for i, out in enumerate(outs):
            value[i] += level[i] * out.income_vp + s.money[i] * out.money_vp
            value[i] -= self.shortfall_vp * max(0, -level[i] * out.payments - s.money[i])
        return value
