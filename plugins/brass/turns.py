"""Turn order: the least spender goes first next round; equal spenders keep their order."""

from __future__ import annotations

from collections.abc import Sequence


def next_turn_order(order: Sequence[int], spent: Sequence[int]) -> list[int]:
    """Seats of ``order`` re-sorted by ``spent[seat]`` ascending; the sort is stable, so
    ties keep their relative order from this round."""
    return sorted(order, key=lambda seat: spent[seat])
