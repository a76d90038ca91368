"""Era scoring and the final ranking shared by the Brass games."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from core.game import Result


def link_icons(printed: Sequence[int], flipped: Iterable[tuple[int, int]]) -> list[int]:
    """Link icons per location: the ``printed`` ones plus ``(location, icons)`` of every
    flipped industry tile (Birmingham and Pittsburgh count flipped tiles of anyone)."""
    icons = list(printed)
    for location, n in flipped:
        icons[location] += n
    return icons


def link_points(nodes: Sequence[int], icons: Sequence[int]) -> int:
    """VP of one link: the link icons counted at every location it touches."""
    return sum(icons[n] for n in nodes)


def ranking(keys: Sequence[Sequence[int]]) -> list[int]:
    """Places (1 = best) from comparison keys, higher is better, compared in order (VP,
    then each tie-break); seats whose whole keys are equal share a place."""
    return [1 + sum(tuple(other) > tuple(mine) for other in keys) for mine in keys]


class TieBreak(NamedTuple):
    """A figure breaking VP ties, higher first: ``field`` names it in the result's details,
    ``label`` in its list of tie-breaks; ``values`` per seat."""

    field: str
    label: str
    values: list[int]


BOARD_TIE_BREAKS = ("income_space", "income_level", "money")
"""The tie-breaks a board's rules may name, for :func:`board_tie_breaks`."""


def board_tie_breaks(names: Sequence[str], s: Any, income: Any) -> list[TieBreak]:
    """The tie-breaks ``names`` (of :data:`BOARD_TIE_BREAKS`) of state ``s``, in order: the
    income track's space, the income level on ``income`` (the track), money."""
    figures = {
        "income_space": lambda: TieBreak("income_space", "income", s.income),
        "income_level": lambda: TieBreak(
            "income_level", "income level", [income.level(space) for space in s.income]
        ),
        "money": lambda: TieBreak("money", "money", s.money),
    }
    return [figures[name]() for name in names]


def final_result(vp: Sequence[int], tie_breaks: Sequence[TieBreak]) -> Result:
    """The game's result: places by VP, then each tie-break in order; the details give
    every tie-break's figures and their names in order."""
    keys = [(vp[seat], *(tb.values[seat] for tb in tie_breaks)) for seat in range(len(vp))]
    details: dict[str, Any] = {tb.field: list(tb.values) for tb in tie_breaks}
    details["tie_breaks"] = [tb.label for tb in tie_breaks]
    return Result(scores=list(vp), ranking=ranking(keys), details=details)
