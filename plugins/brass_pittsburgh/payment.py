"""The cheapest way to pay for cubes, so legal moves can tell what a seat can afford.

The player chooses each cube's source (:func:`.sourcing.cube_sources`); the cheapest plan
is: every free cube first (own resource trains, connected tiles), then the cheapest
connected market cubes one by one (a ladder gets dearer as it empties), Vanderbilt for
the rest or wherever he is cheaper. Vanderbilt never runs out, so every need has a price.

:class:`PaymentTable` sums the sources up once per connected group of locations, so that
listing many builds and links on one state asks each question in a few steps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from plugins.brass_pittsburgh.board import PittsburghBoard
from plugins.brass_pittsburgh.markets import MarketLadder


class PaymentTable:
    """Free cubes and market offers of one state, per (cube, connected group)."""

    def __init__(
        self,
        board: PittsburghBoard,
        labels: Sequence[int],
        *,
        slot_resource: Sequence[str],
        slot_cubes: Sequence[int],
        own_trains: Mapping[int, tuple[str, int]],
        ladders: Sequence[Mapping[str, MarketLadder]],
        market_cubes: Sequence[Mapping[str, int]],
    ) -> None:
        self.board, self.labels = board, labels
        self.free: dict[tuple[str, int], int] = {}
        for slot, res in enumerate(slot_resource):
            if res and slot_cubes[slot]:
                key = (res, labels[board.slot_node[slot]])
                self.free[key] = self.free.get(key, 0) + slot_cubes[slot]
        self.trains = {
            line: (res, n, labels[board.line_nodes[line][0]])
            for line, (res, n) in own_trains.items()
        }
        for res, n, label in self.trains.values():
            self.free[(res, label)] = self.free.get((res, label), 0) + n
        self.offers: dict[tuple[str, int], list[int]] = {}
        for m, node in enumerate(board.market_node):
            for res, ladder in ladders[m].items():
                held = market_cubes[m][res]
                prices = [ladder.buy_price(held - k) or 0 for k in range(held)]
                self.offers.setdefault((res, labels[node]), []).extend(prices)

    def cheapest(
        self, consumers: Iterable[int], cube: str, count: int, exclude_line: int = -1
    ) -> int:
        """Least money that delivers ``count`` cubes of ``cube`` to ``consumers``."""
        if count <= 0:
            return 0
        reach = {self.labels[c] for c in consumers}
        free = sum(self.free.get((cube, label), 0) for label in reach)
        if exclude_line in self.trains:
            res, n, label = self.trains[exclude_line]
            if res == cube and label in reach:
                free -= n
        short = count - free
        if short <= 0:
            return 0
        vanderbilt = self.board.vanderbilt_price(cube)
        offers = sorted(p for label in reach for p in self.offers.get((cube, label), ()))
        prices = [min(p, vanderbilt) for p in offers[:short]]
        return sum(prices) + vanderbilt * (short - len(prices))


def cheapest_cubes(
    board: PittsburghBoard,
    labels: Sequence[int],
    consumers: Iterable[int],
    cube: str,
    count: int,
    *,
    slot_resource: Sequence[str],
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
