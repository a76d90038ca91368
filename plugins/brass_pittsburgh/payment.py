"""The cheapest way to pay for cubes, so legal moves can tell what a seat can afford.

The player chooses each cube's source (:func:`.sourcing.cube_sources`); the cheapest plan
is: every free cube first (own resource trains, connected tiles), then the cheapest
connected market cubes one by one (a ladder gets dearer as it empties), Vanderbilt for
the rest or wherever he is cheaper. Vanderbilt never runs out, so every need has a price.

:class:`PaymentTable` sums the sources up once per connected group of locations, so that
listing many builds and links on one state asks each question in a few steps.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from plugins.brass_pittsburgh.board import PittsburghBoard
from plugins.brass_pittsburgh.markets import MarketLadder
from plugins.brass_pittsburgh.sourcing import SlotResources, held_slots


class PaymentTable:
    """Free cubes and market offers of one state, per (cube, connected group). Free cubes
    are summed up at once (few slots hold any); a cube kind's market offers when that kind
    is first asked about (a listing asks about few)."""

    def __init__(
        self,
        board: PittsburghBoard,
        labels: Sequence[int],
        *,
        slot_resource: SlotResources,
        slot_cubes: Sequence[int],
        own_trains: Mapping[int, tuple[str, int]],
        ladders: Sequence[Mapping[str, MarketLadder]],
        market_cubes: Sequence[Mapping[str, int]],
        floor: Mapping[str, int] | None = None,
    ) -> None:
        self.board, self.labels = board, labels
        self._ladders, self._market_cubes = ladders, market_cubes
        self._floor = floor
        """Per cube, the least any market or Vanderbilt ever asks for one (:meth:`least`)."""
        free: dict[tuple[str, int], int] = {}
        free_groups: dict[str, set[int]] = {}
        """Per cube, the connected groups with a free one."""
        anywhere: dict[str, int] = {}
        """Per cube, the free ones wherever they are (:meth:`least`)."""
        slot_node = board.slot_node
        for slot in held_slots(slot_cubes):
            if res := slot_resource[slot]:
                key = (res, labels[slot_node[slot]])
                n = slot_cubes[slot]
                free[key] = free.get(key, 0) + n
                anywhere[res] = anywhere.get(res, 0) + n
                free_groups.setdefault(res, set()).add(key[1])
        line_nodes = board.line_nodes
        self.trains = {
            line: (res, n, labels[line_nodes[line][0]]) for line, (res, n) in own_trains.items()
        }
        for res, n, label in self.trains.values():
            free[(res, label)] = free.get((res, label), 0) + n
            if n:
                anywhere[res] = anywhere.get(res, 0) + n
                free_groups.setdefault(res, set()).add(label)
        self.free, self._free_groups, self._anywhere = free, free_groups, anywhere
        self._offers: dict[str, dict[int, Sequence[int]]] = {}
        self._sourced: dict[str, set[int]] = {}
        self._known: dict[tuple[tuple[int, ...], str, int, int], int] = {}

    def offers(self, cube: str) -> dict[int, Sequence[int]]:
        """Per connected group, the prices of the market ``cube`` cubes on sale there,
        cheapest first (worked out when first asked)."""
        found = self._offers.get(cube)
        if found is None:
            found = self._offers[cube] = _market_offers(
                self.board, self.labels, self._ladders, self._market_cubes, cube
            )
        return found

    def sourced(self, cube: str) -> set[int]:
        """Connected groups with a free or market ``cube``; anywhere else each costs
        Vanderbilt's price."""
        found = self._sourced.get(cube)
        if found is None:
            found = self._sourced[cube] = self._free_groups.get(cube, set()) | set(
                self.offers(cube)
            )
        return found

    def least(self, cubes: Sequence[tuple[str, int]]) -> int:
        """No place pays less for ``cubes`` (a table made with ``floor``): those not free
        anywhere at the least price ever asked for them. A listing over this bound needs
        no plan worked out place by place."""
        floor, anywhere, total = self._floor, self._anywhere, 0
        assert floor is not None
        for cube, n in cubes:
            short = n - anywhere.get(cube, 0)
            if short > 0:
                total += short * floor[cube]
        return total

    def cheapest(
        self, consumers: Sequence[int], cube: str, count: int, exclude_line: int = -1
    ) -> int:
        """Least money that delivers ``count`` cubes of ``cube`` to ``consumers``."""
        if count <= 0:
            return 0
        labels = self.labels
        if len(consumers) == 1:  # the usual question: one location
            reach: tuple[int, ...] = (labels[consumers[0]],)
        else:
            reach = tuple({labels[c] for c in consumers})
        # Listings ask again and again about the same few connected groups.
        key = (reach, cube, count, exclude_line)
        known = self._known.get(key)
        if known is None:
            known = self._known[key] = self._cheapest(reach, cube, count, exclude_line)
        return known

    def _cheapest(self, reach: tuple[int, ...], cube: str, count: int, exclude_line: int) -> int:
        if len(reach) == 1:
            free = self.free.get((cube, reach[0]), 0)
        else:
            free = sum(self.free.get((cube, label), 0) for label in reach)
        if exclude_line in self.trains:
            res, n, label = self.trains[exclude_line]
            if res == cube and label in reach:
                free -= n
        short = count - free
        if short <= 0:
            return 0
        vanderbilt = self.board.vanderbilt_price(cube)
        on_sale = self.offers(cube)
        if len(reach) == 1:
            offers = on_sale.get(reach[0], ())
        else:
            offers = sorted(p for label in reach for p in on_sale.get(label, ()))
        # market cubes cheapest first while cheaper than Vanderbilt, then Vanderbilt
        total = vanderbilt * short
        for p in offers[:short]:
            if p < vanderbilt:
                total += p - vanderbilt
        return total


def _market_offers(
    board: PittsburghBoard,
    labels: Sequence[int],
    ladders: Sequence[Mapping[str, MarketLadder]],
    market_cubes: Sequence[Mapping[str, int]],
    cube: str,
) -> dict[int, Sequence[int]]:
    """Per connected group, the prices of the market ``cube`` cubes on sale there, cheapest
    first (groups with none left out)."""
    offers: dict[int, Sequence[int]] = {}
    for m, node in board.cube_markets.get(cube, ()):
        prices = ladders[m][cube].offers(market_cubes[m][cube])
        if prices:
            label = labels[node]
            known = offers.get(label)
            offers[label] = sorted((*known, *prices)) if known else prices
    return offers


def cheapest_cubes(
    board: PittsburghBoard,
    labels: Sequence[int],
    consumers: Sequence[int],
    cube: str,
    count: int,
    *,
    slot_resource: SlotResources,
    slot_cubes: Sequence[int],
    own_trains: Mapping[int, tuple[str, int]],
    ladders: Sequence[Mapping[str, MarketLadder]],
    market_cubes: Sequence[Mapping[str, int]],
    exclude_line: int = -1,
) -> int:
    """Least money that delivers ``count`` cubes of ``cube`` to ``consumers`` (one question;
    build a :class:`PaymentTable` to ask many)."""
    table = PaymentTable(
        board, labels, slot_resource=slot_resource, slot_cubes=slot_cubes,
        own_trains=own_trains, ladders=ladders, market_cubes=market_cubes,
    )  # fmt: skip
    return table.cheapest(consumers, cube, count, exclude_line)
