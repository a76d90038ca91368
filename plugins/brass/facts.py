"""Facts derived from one state: what the rules ask about the board, computed on demand.

One :class:`Facts` serves one ``decide`` or ``legal_moves`` call, so a listing that asks
"is this location in my network?" a thousand times works the network out once. A link
about to be placed joins the components of its locations, so "connected to the new link"
is "connected to any of its locations": no graph is rebuilt per candidate.

A variant with facts of its own (Birmingham's beer) subclasses :class:`Facts` and returns
it from :meth:`plugins.brass.variant.Variant.facts`.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import compress
from typing import TYPE_CHECKING, Any

from plugins.brass.graph import positions

if TYPE_CHECKING:
    from plugins.brass.variant import Variant


class Facts:
    """The board facts of state ``s`` under variant ``v`` (``d`` is the variant's data)."""

    def __init__(self, v: Variant, s: Any) -> None:
        d = v.d
        self.v, self.d, self.s = v, d, s
        self.comp = d.graph.labels(s.link_owner)
        self._trade_comps = set(map(self.comp.__getitem__, v.trade_nodes(s)))
        self._networks: dict[int, set[int]] = {}
        self._owned: dict[int, list[int]] = {}
        self._lowest: dict[int, list[int]] = {}
        self._presence: dict[int, bool] = {}
        self._links: dict[int, int] = {}
        self._coal: dict[int, int] | None = None
        self._iron = -1

    def presence(self, seat: int) -> bool:
        """Whether the seat has any industry or link on the board."""
        found = self._presence.get(seat)
        if found is None:
            found = self._presence[seat] = seat in self.s.slot_owner or seat in self.s.link_owner
        return found

    def lowest(self, seat: int) -> list[int]:
        """Per industry, the level of the seat's lowest tile on its mat (``EMPTY``: none
        left), the only one it may build or develop."""
        found = self._lowest.get(seat)
        if found is None:
            mat = self.s.mat[seat]
            found = self._lowest[seat] = list(map(self.d.stacks.top_level, range(len(mat)), mat))
        return found

    def owned(self, seat: int) -> list[int]:
        """The build spaces holding the seat's tiles, in board order."""
        found = self._owned.get(seat)
        if found is None:
            found = self._owned[seat] = positions(self.s.slot_owner, seat)
        return found

    def network(self, seat: int) -> set[int]:
        """The locations of the seat's network: its tiles' locations and its links' ends."""
        net = self._networks.get(seat)
        if net is None:
            d = self.d
            nodes = map(d.slot_loc.__getitem__, self.owned(seat))
            net = self._networks[seat] = d.graph.network(nodes, self.s.link_owner, seat)
        return net

    def network_lines(self, seat: int) -> Sequence[int]:
        """The link lines a new link of the seat may take: those touching its network, or
        every line while it has nothing on the board (if the variant allows a first link
        anywhere; else none)."""
        if self.presence(seat):
            d = self.d
            return sorted({li for n in self.network(seat) for li in d.graph.node_links[n]})
        return range(self.d.n_links) if self.v.first_link_anywhere else ()

    def links_placed(self, seat: int) -> int:
        """The seat's links on the board (of its limited supply of link tiles)."""
        found = self._links.get(seat)
        if found is None:
            found = self._links[seat] = self.s.link_owner.count(seat)
        return found

    def comps(self, nodes: Sequence[int]) -> set[int]:
        return set(map(self.comp.__getitem__, nodes))

    def reaches_trade(self, nodes: Sequence[int]) -> bool:
        """Whether any of ``nodes`` is connected to a trade point (market access)."""
        if len(nodes) == 1:
            return self.comp[nodes[0]] in self._trade_comps
        return not self._trade_comps.isdisjoint(self.comps(nodes))

    def board_coal(self, nodes: Sequence[int]) -> int:
        """Coal on unflipped mines connected to any of ``nodes``."""
        if self._coal is None:
            self._count_cubes()
        assert self._coal is not None
        if len(nodes) == 1:
            return self._coal.get(self.comp[nodes[0]], 0)
        total = 0
        for c in self.comps(nodes):
            total += self._coal.get(c, 0)
        return total

    def all_coal(self) -> int:
        """Coal on mines anywhere on the board, connected or not."""
        if self._coal is None:
            self._count_cubes()
        assert self._coal is not None
        return sum(self._coal.values())

    def board_iron(self) -> int:
        """Iron on unflipped works anywhere (iron needs no connection)."""
        if self._iron < 0:
            self._count_cubes()
        return self._iron

    def _count_cubes(self) -> None:
        """Coal per connected group and iron on the board, in one pass."""
        s, comp, slot_loc = self.s, self.comp, self.d.slot_loc
        coal_ind, iron_ind = self.v.coal, self.v.iron
        coal: dict[int, int] = {}
        iron = 0
        cubes = s.slot_cubes
        for slot in compress(range(len(cubes)), cubes):  # the spaces with cubes
            ind = s.slot_ind[slot]
            if ind == coal_ind:
                c = comp[slot_loc[slot]]
                coal[c] = coal.get(c, 0) + cubes[slot]
            elif ind == iron_ind:
                iron += cubes[slot]
        self._coal, self._iron = coal, iron
