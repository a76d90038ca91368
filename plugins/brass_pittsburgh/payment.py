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
    """Free cubes and market offers of one state, per (cube, connected group)."""

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
    ) -> None:
        self.board, self.labels = board, labels
        offers, market_groups = _market_offers(board, labels, ladders, market_cubes)
        sourced = {res: set(groups) for res, groups in market_groups.items()}
        free: dict[tuple[str, int], int] = {}
        slot_node = board.slot_node
        for slot in held_slots(slot_cubes):
            if res := slot_resource[slot]:
                n = slot_cubes[slot]
                key = (res, labels[slot_node[slot]])
                free[key] = free.get(key, 0) + n
                if res in sourced:
                    sourced[res].add(key[1])
                else:
                    sourced[res] = {key[1]}
        line_nodes = board.line_nodes
        self.trains = {
            line: (res, n, labels[line_nodes[line][0]]) for line, (res, n) in own_trains.items()
        }
        for res, n, label in self.trains.values():
            free[(res, label)] = free.get((res, label), 0) + n
            if n:
                sourced.setdefault(res, set()).add(label)
        self.free, self.offers, self._sourced = free, offers, sourced
        self._known: dict[tuple[tuple[int, ...], str, int, int], int] = {}

    def sourced(self, cube: str) -> set[int]:
        """Connected groups with a free or market ``cube``; anywhere else each costs
        Vanderbilt's price."""
        return self._sourced.get(cube, set())

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
        if len(reach) == 1:
            offers = self.offers.get((cube, reach[0]), [])
        else:
            offers = sorted(p for label in reach for p in self.offers.get((cube, label), ()))
        # market cubes cheapest first while cheaper than Vanderbilt, then Vanderbilt
        total = vanderbilt * short
        for p in offers[:short]:
            if p < vanderbilt:
                total += p - vanderbilt
        return total


MARKETS_KEPT = 256
"""Market offer tables a board keeps (see :func:`_market_offers`)."""


def _market_offers(
    board: PittsburghBoard,
    labels: Sequence[int],
    ladders: Sequence[Mapping[str, MarketLadder]],
    market_cubes: Sequence[Mapping[str, int]],
) -> tuple[dict[tuple[str, int], Sequence[int]], dict[str, list[int]]]:
    """Per (cube, connected group), the prices of the market cubes on sale there, cheapest
    first; per cube, the groups with some. Markets change only when cubes are bought or
    sold and groups when a train is placed: the board keeps the tables by content."""
    nodes = board.market_node
    key = (
        *(labels[node] for node in nodes),
        *(held[r] for m, held in enumerate(market_cubes) for r in ladders[m]),
    )
    found = board.market_offers.get(key)
    if found is None:
        offers: dict[tuple[str, int], Sequence[int]] = {}
        groups: dict[str, list[int]] = {}
        for m, node in enumerate(nodes):
            held = market_cubes[m]
            for res, ladder in ladders[m].items():
                prices = ladder.offers(held[res])
                if prices:
                    at = (res, labels[node])
                    known = offers.get(at)
                    offers[at] = sorted((*known, *prices)) if known else prices
                    groups.setdefault(res, []).append(at[1])
        if len(board.market_offers) >= MARKETS_KEPT:
            board.market_offers.clear()
        found = board.market_offers[key] = (offers, groups)
    return found


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
