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

from typing import Final

from plugins.brass.state import SCORING, BrassState
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
