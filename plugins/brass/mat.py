"""The player mat: industry tiles waiting to be built or developed away.

Birmingham's mat is one stack per industry, lowest level on top: the state of a stack is
the index of its next tile in the industry's tile sequence (``TileStacks.sequence``).
A game whose mat is a graph of paths (Pittsburgh) provides its own ``accessible`` rule
with the same shape: *which tiles may be taken now*.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class TileStacks:
    """``sequence[industry]`` lists each tile's level in stack order (``[1, 1, 1, 2, 2, ..]``
    for three level-I tiles and two level-II). Positions are ints per industry."""

    def __init__(self, counts_by_level: Sequence[Sequence[int]]) -> None:
        self.sequence: list[list[int]] = [
            [level + 1 for level, n in enumerate(counts) for _ in range(n)]
            for counts in counts_by_level
        ]
        self.sizes = [len(seq) for seq in self.sequence]

    def top_level(self, industry: int, position: int) -> int:
        """Level of the lowest tile left (the only one that may be built or developed),
        or 0 when the stack is empty."""
        seq = self.sequence[industry]
        return seq[position] if position < len(seq) else 0

    def taken(self, industry: int, position: int) -> list[int]:
        """Levels of the tiles already taken off the stack (built or developed)."""
        return self.sequence[industry][:position]


class AccessibleMat(Protocol):
    """A mat whose takeable tiles follow a graph (Pittsburgh's paths and branches).

    ``left`` is the game's per-seat record of tiles still on the mat."""

    def accessible(self, left: Sequence[int]) -> list[int]:
        """Mat spaces whose tile may be built or developed now."""
        ...

    def take(self, left: list[int], space: int) -> list[int]:
        """Take the tile on ``space`` (changes ``left``); returns what it unlocks."""
        ...
