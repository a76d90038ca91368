"""The Pittsburgh player mat as a graph of tile spaces.

Unlike Birmingham's one stack per industry (:class:`plugins.brass.mat.TileStacks`), the
Pittsburgh mat is five paths of spaces joined by arrows: along a path, branching off it
(Steel into Skyscrapers, Manufacturing into Automobiles) and shortcuts across to a
neighbouring path. A space holds a stack of identical tiles; its state is how many are
left. A space's top tile is accessible when the space still holds a tile and either no
arrow points to it (the bottom of a path) or some space pointing to it is empty.

Locked links (heavy trains and pipelines printed above a tile) move to the personal supply
as soon as the space below them empties, whether its tile was built or developed.
"""

from __future__ import annotations

from collections.abc import Sequence

from plugins.brass.graph import positions
from plugins.brass_pittsburgh.data import MatTile, PittsburghData

ACCESSIBLE_KEPT = 4096
"""Mat states whose accessible spaces a mat graph keeps."""


class MatGraph:
    """Spaces ``0..n-1`` in the data file's order, with their arrows and locked links (a
    family :class:`plugins.brass.mat.Mat`)."""

    def __init__(self, data: PittsburghData) -> None:
        self.tiles: list[MatTile] = list(data.mat.tiles.values())
        self.index: dict[str, int] = {t.id: i for i, t in enumerate(self.tiles)}
        self.predecessors: list[list[int]] = [[] for _ in self.tiles]
        for arrow in data.mat.arrows:
            self.predecessors[self.index[arrow.to]].append(self.index[arrow.from_])
        self.cube_costs: list[list[tuple[str, int]]] = [
            list(t.cost.resources().items()) for t in self.tiles
        ]
        """Per space, the resources its tile costs to build."""
        self._accessible: dict[tuple[int, ...], tuple[int, ...]] = {}
        self._bottoms = [i for i, preds in enumerate(self.predecessors) if not preds]
        """Spaces no arrow points to: accessible while they hold a tile."""
        self._successors: list[list[int]] = [[] for _ in self.tiles]
        """Per space, the spaces its arrows point to (accessible once it is empty)."""
        for i, preds in enumerate(self.predecessors):
            for p in preds:
                self._successors[p].append(i)
        self.locked: list[list[str]] = [[] for _ in self.tiles]
        self.locked_by: dict[str, int] = {}
        """Link id -> the space whose last tile unlocks it (links that start on the mat)."""
        for ls in data.mat.link_spaces:
            self.locked[self.index[ls.unlocked_by]].append(ls.link)
            self.locked_by[ls.link] = self.index[ls.unlocked_by]

    def initial(self) -> list[int]:
        """Tiles per space at setup: every stack full."""
        return [t.count for t in self.tiles]

    def accessible(self, left: Sequence[int]) -> list[int]:
        """Spaces whose top tile may be built or developed now (a new list each time)."""
        # Every listing asks; a player's mat changes only when a tile leaves it.
        key = tuple(left)
        found = self._accessible.get(key)
        if found is None:
            if len(self._accessible) >= ACCESSIBLE_KEPT:
                self._accessible.clear()
            # The bottoms of the paths, and the spaces an empty one points to (a mat has
            # few empty spaces: found without a Python-level pass over all of them).
            opened = [i for i in self._bottoms if left[i] > 0]
            for empty in positions(left, 0):
                opened += [i for i in self._successors[empty] if left[i] > 0]
            found = self._accessible[key] = tuple(sorted(set(opened)))
        return list(found)

    def take(self, left: list[int], space: int) -> list[str]:
        """Remove the top tile of an accessible ``space`` (built or developed) in place;
        returns the links it unlocks for the personal supply."""
        if space not in self.accessible(left):
            raise ValueError(f"mat space {self.tiles[space].id} is not accessible")
        left[space] -= 1
        return list(self.locked[space]) if left[space] == 0 else []

    def empty_spaces(self, left: Sequence[int]) -> int:
        """Industry spaces with no tile left (what the Polyphase Alternator scores)."""
        return sum(1 for n in left if n == 0)
