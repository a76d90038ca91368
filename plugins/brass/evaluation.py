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

from collections.abc import Callable, Iterator
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
TileFacts = tuple[int, int, int, str, bool]
"""A printed tile as :class:`BoardEvaluation` weighs it: VP, link icons, income spaces it
gives when it flips, how it flips (a :data:`FLIP_CHANCE` key, ``"built"``, or ``""``: not
weighed before it flips) and whether it stays on the board into the second era."""
Tile = tuple[int, bool, int, int, int, str, bool]
"""A tile on the board: its owner, whether it is flipped, then its :data:`TileFacts`."""


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
    negative income it has no money for (tiles sold, then VP). A board of its own
    (Pittsburgh's mat tiles and Oil Cities) gives its ``table`` of tiles, names those on the
    board by :meth:`tiles` and adds to each seat's money and income by :meth:`seat_value`."""

    def __init__(
        self, d: Any, era_points: Callable[[Any], tuple[list[int], list[int]]],
        flips: list[str], rounds_after: dict[int, int], shortfall_vp: float = 0.0,
        table: dict[Any, TileFacts] | None = None,
    ) -> None:  # fmt: skip
        self.d, self.era_points = d, era_points
        self.rounds_after, self.shortfall_vp = rounds_after, shortfall_vp
        self.table = table if table is not None else {
            (k, t.level): (t.vp, t.link_icons, t.income, flips[k], t.level > 1)
            for k, rows in enumerate(d.tiles) for t in rows
        }  # fmt: skip
        """Per tile (``(industry, level)`` on the family board): its :data:`TileFacts`."""

    def tiles(self, s: Any) -> Iterator[Tile]:
        """Every industry tile on the board of ``s`` (:data:`Tile`)."""
        table, ind, lvl = self.table, s.slot_ind, s.slot_level
        for slot, owner in enumerate(s.slot_owner):
            if owner >= 0:
                yield owner, s.slot_flipped[slot], *table[ind[slot], lvl[slot]]

    def seat_value(self, s: Any, seat: int, level: int, out: Outlook) -> float:
        """What ``seat`` is worth beyond its VP, tiles, money and income ``level``: here the
        negative income its money cannot pay (``shortfall_vp``), a loss."""
        return -self.shortfall_vp * max(0, -level * out.payments - s.money[seat])

    def __call__(self, s: Any) -> list[float]:
        if s.phase == OVER:
            return [float(v) for v in s.vp]
        levels = self.d.income.levels
        last, level = len(levels) - 1, [levels[sp] for sp in s.income]
        rounds_era, outs = outlooks(s, level, self.rounds_after[s.players])
        links, industries = self.era_points(s)
        value = [float(s.vp[i] + links[i] + industries[i]) for i in range(s.players)]
        first = s.era == 0
        for owner, flipped, vp, icons, income, flip, carried in self.tiles(s):
            stays = first and carried
            if flipped:
                value[owner] += vp if stays else 0
                continue
            if not flip:
                continue
            p = 1.0 if flip == "built" else flip_chance(flip, rounds_era, stays)
            gain = levels[min(last, s.income[owner] + income)] - level[owner]
            value[owner] += p * (vp * (2 if stays else 1) + icons + gain * outs[owner].income_vp)
        for i, out in enumerate(outs):
            value[i] += level[i] * out.income_vp + s.money[i] * out.money_vp
            value[i] += self.seat_value(s, i, level[i], out)
        return value
