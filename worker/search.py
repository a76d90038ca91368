"""The search bot: determinized Monte Carlo search over the seat's own legal moves.

The bot never holds the match's state. From the seat's view it draws full states with the
game's ``determinize`` hook (hidden hands, deck order, bags sampled from what the view
allows), and for each candidate move plays short futures in them with the game's fast
``playout_policy``, scoring where a playout stops with ``evaluate`` (or the real result at
the end of the game). Candidates are chosen to explore by UCB1 over all determinizations
together, so a move that only shines when the hidden cards fall one way does not win.

Why this shape: Brass and Age of Steam decisions are sequential (an action, then its card,
then each source), most decisions have few options, and the game's own heuristic already
plays a sensible future. A flat search at the root with informed playouts is strong where a
deep tree would spend its budget re-deriving the obvious; candidates are first ranked by a
one-step look (apply the move, evaluate) and only the best few are searched.

Hooks (documented in :mod:`core.game`): ``determinize`` and ``evaluate`` are required for
search; ``playout_policy`` and ``clone`` are optional (uniform playouts, deep copies).
"""

from __future__ import annotations

import copy
import math
import time
from collections.abc import Callable
from random import Random
from typing import Any

import msgspec

from core.errors import IllegalMove
from core.game import SYSTEM


class Level(msgspec.Struct, frozen=True, kw_only=True):
    """How hard the search bot thinks. The budget ends at whichever limit comes first."""

    name: str
    seconds: float
    """Wall-clock budget per decision with a real choice."""
    iterations: int
    """Playouts per decision at most (makes a level reproducible on a quiet machine)."""
    candidates: int
    """Moves kept for search after the one-step ranking."""
    horizon: int
    """Decisions a playout runs before it is scored with ``evaluate``."""
    determinizations: int
    """Distinct full states drawn from the view, cycled through by the playouts."""
    description: str = ""


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(name="easy", seconds=0.25, iterations=48, candidates=4, horizon=12,
              determinizations=4,
              description="a quick look ahead: a little stronger than greedy"),
        Level(name="medium", seconds=0.8, iterations=200, candidates=8, horizon=30,
              determinizations=8, description="the default: a few hundred short futures"),
        Level(name="hard", seconds=1.6, iterations=600, candidates=12, horizon=60,
              determinizations=12, description="the longest think, within 2 s a move"),
    )
}  # fmt: skip


def level_with(name: str, think_ms: int | None = None) -> Level:
    """The level ``name``, its time budget replaced by ``think_ms`` when that is given."""
    level = LEVELS[name]
    if think_ms is None:
        return level
    return msgspec.structs.replace(level, seconds=think_ms / 1000)


def utility(scores: list[float], seat: int, scale: float) -> float:
    """How good ``scores`` are for ``seat``, in (0, 1): its margin over the best other
    seat, squashed so that a few points matter near a tie and a rout is not worth more
    than a win."""
    if len(scores) == 1:
        return 1 / (1 + math.exp(-scores[0] / scale))
    best_other = max(s for i, s in enumerate(scores) if i != seat)
    margin = max(-50.0, min(50.0, (scores[seat] - best_other) / scale))
    return 1 / (1 + math.exp(-margin))


class _Arm:
    __slots__ = ("move", "prior", "total", "visits")

    def __init__(self, move: Any, prior: float) -> None:
        self.move = move
        self.prior = prior
        self.visits = 0
        self.total = 0.0

    def mean(self) -> float:
        return self.total / self.visits if self.visits else self.prior


class SearchBot:
    """Plays one game at one level; ``choose`` has the :class:`worker.bots.Bot` shape."""

    exploration = 0.5
    """UCB1's constant, for utilities in (0, 1) that differ by a few hundredths."""

    def __init__(self, game: Any, level: Level, clock: Callable[[], float] = time.perf_counter):
        self.game = game
        self.level = level
        self.clock = clock
        self.scale = float(getattr(game, "score_scale", 10.0))
        self._clone = getattr(game, "clone", None) or copy.deepcopy
        self._policy = getattr(game, "playout_policy", None)

    def choose(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        deadline = self.clock() + self.level.seconds
        seat = view["seat"]
        dets = [self.game.determinize(view, rng)]
        arms = self._rank(dets[0], seat, legal, rng, deadline)
        if len(arms) == 1:
            return arms[0].move
        for n in range(self.level.iterations):
            if self.clock() >= deadline:
                break
            k = n % self.level.determinizations
            if k == len(dets):
                dets.append(self.game.determinize(view, rng))
            arm = self._select(arms, n + 1)
            value = self._playout(dets[k], seat, arm.move, rng)
            if value is None:  # the move is not legal in this determinization: skip it
                continue
            arm.visits += 1
            arm.total += value
        return max(arms, key=lambda a: (a.visits, a.mean())).move

    # --- the parts of one think ----------------------------------------------------------

    def _rank(
        self, det: Any, seat: int, legal: list[Any], rng: Random, deadline: float
    ) -> list[_Arm]:
        """Every legal move scored by one step (apply it, evaluate); the best few kept, and
        the playout policy's own pick always among them. Moves not reached by the deadline
        score as refused ones do: last."""
        scored = []
        for move in legal:
            value = None
            if self.clock() < deadline:
                value = self._playout(det, seat, move, rng, horizon=0)
            scored.append(_Arm(move, -1.0 if value is None else value))
        scored.sort(key=lambda a: a.prior, reverse=True)
        keep = scored[: self.level.candidates]
        if self._policy is not None:
            pick = next(a for a in scored if a.move == self._policy(det, seat, legal, rng))
            if pick.prior < 0:  # out of time before it was ranked: still the best guess
                pick.prior = 0.0
            if pick not in keep:
                keep.append(pick)
        return keep

    def _select(self, arms: list[_Arm], n: int) -> _Arm:
        for arm in arms:
            if arm.visits == 0:
                return arm
        log_n = math.log(n)
        return max(
            arms, key=lambda a: a.mean() + self.exploration * math.sqrt(log_n / a.visits)
        )

    def _playout(
        self, det: Any, seat: int, move: Any, rng: Random, horizon: int | None = None
    ) -> float | None:
        """Play ``move`` in a copy of ``det``, then ``horizon`` more decisions by the
        playout policy; the value for ``seat``. ``None`` if ``move`` is refused there."""
        game = self.game
        state = self._clone(det)
        try:
            events = game.decide(state, seat, move, rng)
        except IllegalMove:
            return None
        for event in events:
            state = game.evolve(state, event)
        steps = self.level.horizon if horizon is None else horizon
        for _ in range(steps):
            tasks = game.pending_tasks(state)
            if not tasks:
                break
            task = tasks[0]
            if task.kind == "system":
                events = game.decide(state, SYSTEM, task.move, rng)
            else:
                options = game.legal_moves(state, task.seat)
                if self._policy is not None:
                    choice = self._policy(state, task.seat, options, rng)
                else:
                    choice = options[rng.randrange(len(options))]
                events = game.decide(state, task.seat, choice, rng)
            for event in events:
                state = game.evolve(state, event)
        result = game.result(state)
        scores = result.scores if result is not None else game.evaluate(state)
        return utility(scores, seat, self.scale)
