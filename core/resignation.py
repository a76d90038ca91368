"""The result of a match that seats resigned from: every resigned seat ranks below every seat
still in, the later to resign ahead of the earlier.

Games take part through the optional hook ``result_with_resignations(state, resigned)``
(see :mod:`core.game`); a game without it gets :func:`fallback_result`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core.game import Result


def rank_resigned_last(places: Sequence[int], resigned: Sequence[int]) -> list[int]:
    """``places`` (1 = best, ties shared) with the ``resigned`` seats (first to resign first)
    moved below all the others, the later to resign ahead; the others keep their order and
    their ties."""
    out = set(resigned)
    live = [s for s in range(len(places)) if s not in out]
    ranked = [0] * len(places)
    for s in live:
        ranked[s] = 1 + sum(places[t] < places[s] for t in live)
    for order, s in enumerate(resigned):
        ranked[s] = len(live) + len(resigned) - order
    return ranked


def with_resignations(result: Result, resigned: Sequence[int]) -> Result:
    """``result`` re-ranked by :func:`rank_resigned_last`, saying who resigned in
    ``details["resigned"]``: what a game's hook returns once it has its own scores."""
    return Result(
        scores=list(result.scores),
        ranking=rank_resigned_last(result.ranking, resigned),
        details={**result.details, "resigned": list(resigned)},
    )


def fallback_result(game: Any, state: Any, resigned: Sequence[int], players: int) -> Result:
    """For a game without the hook: its own result re-ranked, or, when the resignations
    ended the match before the game did, no scores and every seat still in sharing first
    place."""
    own = game.result(state)
    if own is None:
        own = Result(scores=[0] * players, ranking=[1] * players)
    return with_resignations(own, resigned)


def match_result(game: Any, state: Any, resigned: Sequence[int], players: int) -> Result:
    """The result of a match with resignations, from the game's hook or the fallback."""
    hook = getattr(game, "result_with_resignations", None)
    if hook is None:
        return fallback_result(game, state, resigned, players)
    return hook(state, list(resigned))  # type: ignore[no-any-return]
