"""The parts of a Brass decider (:class:`core.game.Game`) every Brass game does alike.

A game's class subclasses :class:`BrassGame` and supplies the rest: ``setup``, ``evolve``,
``decide`` (after :meth:`BrassGame.check_move`), ``legal_moves``, ``view``, ``redact``,
positions, and its tie-breaks (:meth:`BrassGame.tie_breaks`); for bots, ``bot_policy`` and
the search hook ``evaluate`` (``clone`` and ``playout_policy`` are here).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from core.errors import IllegalMove
from core.game import Result, Task
from core.resignation import with_resignations
from plugins.brass import bot
from plugins.brass.client import score_era_of
from plugins.brass.events import EraBegan
from plugins.brass.hidden import resample_cards
from plugins.brass.moves import ScoreEra
from plugins.brass.scoring import TieBreak, final_result
from plugins.brass.state import OVER, PLAY, SCORING, BrassState

PLAYOUT_EPSILON = 0.1
"""Share of playout decisions taken at random."""
PLAYOUT_CANDIDATES = 10
"""Legal moves beyond which a playout decision weighs only a shortlist."""
PLAYOUT_QUOTA = {"build": 5, "network": 3, "develop": 1}
"""Moves of each main kind a shortlist keeps, drawn at random; every other move (a sale,
a loan, a pass) is kept. Builds carry a game, and there are fewer of them than links:
against greedy, whole games of this policy scored 14 and 38 VP below it (Birmingham,
Pittsburgh 2p, bench/bench_brass_playout_strength.py), ten moves drawn at random 16 and
50, four builds, three links and two developments 13 and 51."""


class BrassGame:
    """Whose turn it is, era scoring as a system task, the result, resampling cards."""

    title: str
    min_players = 2
    max_players = 4
    """Every Brass game is for 2 to 4 (the data's player range is checked to lie within)."""
    Move: Any
    """The game's union of named moves."""

    def check_move(self, move: Any) -> None:
        """Refuse a move that is none of this game's named moves."""
        if not isinstance(move, self.Move.__args__):
            raise IllegalMove("unknown_move", f"{self.title} has no such move")

    def pending_tasks(self, state: BrassState) -> list[Task]:
        """The seat to act (a turn or a decision), or the era's scoring once the cards run
        out; nothing after the game."""
        if state.phase == PLAY:
            return [Task(kind="turn", seat=state.current)]
        if state.phase == SCORING:
            return [Task(kind="system", move=ScoreEra())]
        return []

    def chance_outcome(self, state: BrassState, move: Any, events: Sequence[Any]) -> Any:
        """The chance hook: the era's end ``move`` with the deal its ``events`` show (an
        ``EraBegan``), so a record replays that very deal; unchanged at the game's end."""
        began = next((e for e in events if isinstance(e, EraBegan)), None)
        if not isinstance(move, ScoreEra) or began is None:
            return move
        return score_era_of(self.names.card, began.deck, began.hands)  # type: ignore[attr-defined]

    def tie_breaks(self, state: BrassState) -> list[TieBreak]:
        """The figures breaking VP ties, in order (highest first)."""
        raise NotImplementedError

    def result(self, state: BrassState) -> Result | None:
        if state.phase != OVER:
            return None
        return final_result(state.vp, self.tie_breaks(state))

    def result_with_resignations(self, state: BrassState, resigned: list[int]) -> Result:
        """The optional hook (:mod:`core.game`): VP and tie-breaks as they stand (final once
        the game is over), every resigned seat ranked below the others."""
        return with_resignations(final_result(state.vp, self.tie_breaks(state)), resigned)

    def clone(self, state: BrassState) -> BrassState:
        """A copy ``evolve`` may change without touching ``state`` (the search hook): every
        list the reducers change is copied."""
        return state.clone()  # type: ignore[attr-defined, no-any-return]

    def playout_policy(self, state: BrassState, seat: int, legal: list[Any], rng: Random) -> Any:
        """The search hook's quick choice, read straight from ``state``: now and then a
        random move (:data:`PLAYOUT_EPSILON`), so that playouts differ; a card to discard
        or a source to take from by the greedy bot's rules (:func:`bot.quick_follow_up`);
        else the greedy bot's choice among the legal moves, or a shortlist of them
        (:data:`PLAYOUT_QUOTA`) when there are more than :data:`PLAYOUT_CANDIDATES`,
        weighed on the part of the seat's view it reads (:meth:`playout_view`)."""
        if len(legal) == 1:
            return legal[0]
        if rng.random() < PLAYOUT_EPSILON:
            return legal[rng.randrange(len(legal))]
        if legal[0].__struct_config__.tag in bot.QUICK_FOLLOW_UPS:
            move = self.quick_follow_up(state, seat, legal, rng)
            if move is not None:
                return move
        if len(legal) > PLAYOUT_CANDIDATES:
            legal = _shortlist(legal, rng)
        return self.bot_policy(self.playout_view(state, seat), legal, rng)  # type: ignore[attr-defined]

    def quick_follow_up(self, state: BrassState, seat: int, legal: list[Any], rng: Random) -> Any:
        """:func:`bot.quick_follow_up` on the game's facts of ``state``; ``None`` (the
        greedy bot decides) when the game builds none."""
        return None

    def playout_view(self, state: BrassState, seat: int) -> dict[str, Any]:
        """What :meth:`playout_policy` hands the greedy bot: the seat's view, or the part
        of it the bot reads when the game builds that more cheaply."""
        return self.view(state, seat)  # type: ignore[attr-defined, no-any-return]

    def sample_hidden(self, state: Any, seat: int, rng: Random) -> Any:
        """A copy of ``state`` with every card ``seat`` cannot see redrawn; a game with
        other hidden parts redraws them too (after calling this)."""
        new = state.clone()
        resample_cards(new, seat, rng)
        return new


def _shortlist(legal: list[Any], rng: Random) -> list[Any]:
    """:data:`PLAYOUT_QUOTA` moves of each main kind, drawn at random, and every other."""
    kept: list[Any] = []
    kinds: dict[str, list[Any]] = {}
    for move in legal:
        tag = move.__struct_config__.tag
        if tag in PLAYOUT_QUOTA:
            kinds.setdefault(tag, []).append(move)
        else:
            kept.append(move)
    for tag, moves in kinds.items():
        quota = PLAYOUT_QUOTA[tag]
        kept += moves if len(moves) <= quota else rng.sample(moves, quota)
    return kept
