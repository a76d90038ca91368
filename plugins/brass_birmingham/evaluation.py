"""Brass: Birmingham positions as each seat's expected final VP (the search hooks'
``evaluate``): the family's :class:`~plugins.brass.evaluation.BoardEvaluation`, with a
brewery flipping when its beer is gone."""

from __future__ import annotations

from plugins.brass.evaluation import BoardEvaluation
from plugins.brass_birmingham.data import BREWERY, INDUSTRIES, SELLABLE, Birmingham
from plugins.brass_birmingham.variant import birmingham_variant


def evaluation(d: Birmingham) -> BoardEvaluation:
    """``evaluate`` for data ``d``. An era lasts as many rounds as the deck deals hands of
    its player count (two cards a turn); unpaid negative income is not counted."""
    flips = ["sell" if k in SELLABLE else "beer" if k == BREWERY else "deplete"
             for k in range(len(INDUSTRIES))]  # fmt: skip
    rounds = {p: sum(copies) // (2 * p) for p, copies in d.deck_copies.items()}
    return BoardEvaluation(d, birmingham_variant(d).era_points, flips, rounds)
