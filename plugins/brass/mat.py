"""The player mat: industry tiles waiting to be built or developed away.

Birmingham's mat is one stack per industry, lowest level on top: the state of a stack is
the index of its next tile in the industry's tile sequence (``TileStacks.sequence``).
A game whose mat is a graph of paths (Pittsburgh) provides its own mat with the same two
methods (:class:`Mat`): *which tiles may be taken now*, and *take one*. Reducers take
tiles only through ``take``; develop listings start from ``accessible``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol

EMPTY = -1
""":meth:`TileStacks.top_level` of a stack with no tile left (levels may start at 0)."""


class TileStacks:
    """``sequence[industry]`` lists each tile's level in stack order (``[1, 1, 1, 2, 2, ..]``
    for three level-I tiles and two level-II). Positions are ints per industry.

    ``counts_by_level[industry]`` gives the copies of each level from the industry's
    ``first_levels`` entry on (1 by default; Lancashire's shipyards start at level 0)."""

    def __init__(
        self, counts_by_level: Sequence[Sequence[int]], first_levels: Sequence[int] = ()
    ) -> None:
        firsts = list(first_levels) or [1] * len(counts_by_level)
        self.sequence: list[list[int]] = [
            [first + level for level, n in enumerate(counts) for _ in range(n)]
            for counts, first in zip(counts_by_level, firsts, strict=True)
        ]
        self.sizes = [len(seq) for seq in self.sequence]

    def top_level(self, industry: int, position: int) -> int:
        """Level of the lowest tile left (the only one that may be built or developed),
        or :data:`EMPTY` when the stack is empty."""
        seq = self.sequence[industry]
        return seq[position] if position < len(seq) else EMPTY

    def taken(self, industry: int, position: int) -> list[int]:
        """Levels of the tiles already taken off the stack (built or developed)."""
        return self.sequence[industry][:position]

    def accessible(self, positions: Sequence[int]) -> list[int]:
        """Industries whose stack still holds a tile (its lowest may be taken)."""
        return [k for k, size in enumerate(self.sizes) if positions[k] < size]

    def take(self, positions: list[int], industry: int) -> list[str]:
        """Take the lowest tile of ``industry``'s stack in place; unlocks nothing."""
        positions[industry] += 1
        return []


class Mat(Protocol):
    """What every Brass mat offers: ``left`` is the game's per-seat record of its mat
    (Birmingham: tiles taken per industry; Pittsburgh: tiles left per mat space)."""

    def accessible(self, left: Sequence[int]) -> list[int]:
        """Mat entries (industries or spaces) whose tile may be built or developed now."""
        ...

    def take(self, left: list[int], entry: int) -> list[str]:
        """Take the tile of ``entry`` (changes ``left``); returns the link tiles it
        unlocks (Pittsburgh's locked links), if any."""
        ...


def developable(mat: Mat, left: Sequence[int], develops: Callable[[int], bool]) -> list[int]:
    """Entries whose tile may be developed away now: accessible, and ``develops`` (the
    game's no-development rule: Birmingham's icon, Pittsburgh's flag) allows it."""
    return [k for k in mat.accessible(left) if develops(k)]
