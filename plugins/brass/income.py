"""The income track: spaces on the progress track and the income level printed by each.

Income rises by *spaces* (a flip of five spaces may add fewer levels) and falls by *levels*
(a loan drops three levels and puts the marker on the highest space of the new level).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from plugins.brass.data import DataError


class IncomeTrack:
    """A track built from ``space_to_level`` (index = space). Levels must not decrease
    along the track; the first space carries the lowest level (the floor)."""

    def __init__(self, space_to_level: Sequence[int], start_space: int) -> None:
        levels = list(space_to_level)
        if not levels:
            raise DataError("income track: no spaces")
        if any(b < a for a, b in itertools.pairwise(levels)):
            raise DataError("income track: levels must not decrease along the track")
        if any(b > a + 1 for a, b in itertools.pairwise(levels)):
            raise DataError("income track: a level is skipped")
        if not 0 <= start_space < len(levels):
            raise DataError("income track: start space outside the track")
        self.levels = levels
        self.start_space = start_space
        self.last_space = len(levels) - 1
        self.min_level = levels[0]
        self.max_level = levels[-1]
        self.highest_space = {lvl: sp for sp, lvl in enumerate(levels)}

    def level(self, space: int) -> int:
        """The income level paid (or owed, if negative) at ``space``."""
        return self.levels[space]

    def advance(self, space: int, spaces: int) -> int:
        """The space after gaining ``spaces``, stopping at the end of the track."""
        return min(self.last_space, space + spaces)

    def drop_levels(self, space: int, levels: int) -> int | None:
        """The highest space of the level ``levels`` below the current one, or ``None`` if
        that would fall under the track's lowest level (the action is then illegal)."""
        target = self.levels[space] - levels
        if target < self.min_level:
            return None
        return self.highest_space[target]
