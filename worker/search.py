"""The search bot: determinized Monte Carlo search over the seat's own legal moves.

The bot never holds the match's state. From the seat's view it draws full states with the
game's ``determinize`` hook (hidden hands, deck order, bags sampled from what the view
allows), and for each candidate move plays short futures in them with the game's fast
``playout_policy``, scoring where a playout stops with ``evaluate`` (or the real result at
the end of the game). Candidates are chosen to explore by UCB1 over all determinizations
together, so a move that only shines when the hidden cards fall one way does not win, and
the i-th future of every candidate is played in the same determinization with the same
random draws, so candidates are compared on equal luck. The game's own greedy choice is
always a candidate and is kept unless another does clearly better: search refines the
heuristic rather than replacing it with noise. A future is worth the seat's squashed margin
over its rivals (:func:`utility`): over the best other seat at two or three players, over
the others' mean from four on, where the leader of a short future is mostly luck.

Why this shape: Brass and Age of Steam decisions are sequential (an action, then its card,
then each source), most decisions have few options, and the game's own heuristic already
plays a sensible future. A flat search at the root with informed playouts is strong where a
deep tree would spend its budget re-deriving the obvious; candidates are first ranked by a
one-step look (apply the move, evaluate) and only the best few are searched.

Hooks (documented in :mod:`core.game`): ``determinize`` and ``evaluate`` are required for
search; ``playout_policy`` and ``clone`` are optional (uniform playouts, deep copies), as is
``search_keeps_anchor`` (decisions left to the greedy pick).
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
from core.playout import advance, uniform


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
        Level(name="easy", seconds=0.3, iterations=60, candidates=4, horizon=12,
              determinizations=4, description="a quick look ahead"),
        Level(name="medium", seconds=0.8, iterations=200, candidates=6, horizon=16,
              determinizations=8, description="the default: a few hundred short futures"),
        Level(name="hard", seconds=1.6, iterations=500, candidates=8, horizon=16,
              determinizations=12, description="the longest think, within 2 s a move"),
    )
}  # fmt: skip


def level_with(name: str, think_ms: int | None = None) -> Level:
    """The level ``name``, its time budget replaced by ``think_ms`` when that is given."""
    level = LEVELS[name]
    if think_ms is None:
        return level
    return msgspec.structs.replace(level, seconds=think_ms / 1000)


def utility(scores: list[float], seat: int, scale: float, field_from: int = 4) -> float:
    """How good ``scores`` are for ``seat``, in (0, 1): its margin over its rivals, squashed
    so that a few points matter near a tie and a rout is not worth more than a win.

    With fewer than ``field_from`` seats the rival is the best other seat. From
    ``field_from`` seats on it is the others' mean: which of three rivals leads a short
    future is mostly luck, so the margin over the best jumps between them, and a seat far
    behind the leader sits on the sigmoid's flat tail where its own points barely count;
    against the field's mean its own points always count, each rival's only a third."""
    if len(scores) == 1:
        return 1 / (1 + math.exp(-scores[0] / scale))
    others = [s for i, s in enumerate(scores) if i != seat]
    rival = sum(others) / len(others) if len(scores) >= field_from else max(others)
    margin = max(-50.0, min(50.0, (scores[seat] - rival) / scale))
    return 1 / (1 + math.exp(-margin))


class _Arm:
    __slots__ = ("move", "prior", "total", "values", "visits")

    def __init__(self, move: Any, prior: float) -> None:
        self.move = move
        self.prior = prior
        self.visits = 0
        self.total = 0.0
        self.values: list[float] = []
        """The value of each visit; the i-th was played in the i-th shared future."""

    def mean(self) -> float:
        return self.total / self.visits if self.visits else self.prior


class SearchBot:
    """Plays one game at one level; ``choose`` has the :class:`worker.bots.Bot` shape."""

    exploration = 0.5
    """UCB1's constant, for utilities in (0, 1) that differ by a few hundredths."""
    anchor_bonus = 0.02
    """How much better (in utility) a move must look than the game's own heuristic pick."""
    confidence = 1.0
    """Standard errors of the paired difference by which a move must lead the heuristic's
    pick to replace it (one-sided, about 84 %)."""

    field_from = 4
    """From this many seats on, a future is scored against the other seats' mean rather
    than the best of them (see :func:`utility`); 99 scores every game against the best.
    Measured against greedy at medium on the same twelve 4-player deals (Birmingham,
    Pittsburgh, Age of Steam): 9 wins of 12 against the mean, 7 of 12 against the best
    (README, Bot strength): in favour, not yet beyond the noise."""

    def __init__(self, game: Any, level: Level, clock: Callable[[], float] = time.perf_counter):
        self.game = game
        self.level = level
        self.clock = clock
        self.scale = float(getattr(game, "score_scale", 10.0))
        self.anchor_bonus = float(getattr(game, "search_anchor_bonus", self.anchor_bonus))
        self._clone = getattr(game, "clone", None) or copy.deepcopy
        self._policy = getattr(game, "playout_policy", None)
        self._choose = self._policy or uniform
        self._keeps_anchor = getattr(game, "search_keeps_anchor", None)

    def choose(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
        if len(legal) == 1:
            return legal[0]
        # A choice between two coal sources deserves less thought than the turn's action.
        share = min(1.0, max(0.3, len(legal) / 8))
        deadline = self.clock() + self.level.seconds * share
        iterations = max(1, round(self.level.iterations * share))
        seat = view["seat"]
        dets = [self.game.determinize(view, rng)]
        anchor = self._anchor(view, legal, rng)
        if anchor is not None and self._keeps_anchor is not None and self._keeps_anchor(view):
            return anchor
        arms = self._rank(dets[0], seat, legal, rng, deadline, anchor)
        if len(arms) == 1:
            return arms[0].move
        # The i-th playout of every candidate runs in the same determinization with the same
        # random draws (common random numbers), so candidates are compared on equal futures
        # and the luck of the draw mostly cancels out of their difference.
        futures: list[tuple[int, int]] = []
        for n in range(iterations):
            if self.clock() >= deadline:
                break
            arm = self._select(arms, n + 1)
            while len(futures) <= arm.visits:
                futures.append((len(futures) % self.level.determinizations, rng.getrandbits(64)))
            k, seed = futures[arm.visits]
            while len(dets) <= k:
                dets.append(self.game.determinize(view, rng))
            value = self._playout(dets[k], seat, arm.move, Random(seed))
            if value is None:  # the move is not legal in this determinization: score it low
                value = 0.0
            arm.visits += 1
            arm.total += value
            arm.values.append(value)
        return self._best(arms, anchor)

    def _anchor(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
        """The game's own heuristic choice (its greedy bot), if it has one: searched always,
        and kept unless another move does clearly better."""
        policy = getattr(self.game, "bot_policy", None)
        if policy is None:
            return None
        choice = policy(view, legal, Random(rng.getrandbits(64)))
        return choice if choice in legal else None

    def _best(self, arms: list[_Arm], anchor: Any) -> Any:
        most = max(a.visits for a in arms)
        if most == 0:
            return max(arms, key=lambda a: a.prior).move
        tried = [a for a in arms if a.visits * 4 >= most]
        best = max(tried, key=lambda a: a.mean())
        held = next((a for a in arms if a.move == anchor and a.visits), None)
        if held is None or best is held or self._clearly_better(best, held):
            return best.move
        return held.move

    def _clearly_better(self, arm: _Arm, anchor: _Arm) -> bool:
        """Whether ``arm`` beats the heuristic's pick by more than :attr:`anchor_bonus`
        and by more than the noise of their futures: the two were played in the same
        futures (common random numbers), so their paired differences show how sure the
        lead is. More players mean noisier futures, and then search leaves the heuristic
        only when it is sure."""
        n = min(arm.visits, anchor.visits)
        diffs = [a - b for a, b in zip(arm.values[:n], anchor.values[:n], strict=True)]
        lead = sum(diffs) / n
        if lead <= self.anchor_bonus:
            return False
        if n < 2:
            return arm.mean() > anchor.mean() + self.anchor_bonus
        spread = math.sqrt(sum((d - lead) ** 2 for d in diffs) / (n - 1))
        return lead > self.confidence * spread / math.sqrt(n)

    # --- the parts of one think ----------------------------------------------------------

    def _rank(
        self, det: Any, seat: int, legal: list[Any], rng: Random, deadline: float,
        anchor: Any = None,
    ) -> list[_Arm]:  # fmt: skip
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
            choice = self._policy(det, seat, legal, rng)
            pick = next(a for a in scored if a.move == choice)
            if pick.prior < 0:  # out of time before it was ranked: still the best guess
                pick.prior = 0.0
            if pick not in keep:
                keep.append(pick)
        if anchor is not None:
            arm = next(a for a in scored if a.move == anchor)
            if arm not in keep:
                keep.append(arm)
        return keep

    def _select(self, arms: list[_Arm], n: int) -> _Arm:
        for arm in arms:
            if arm.visits == 0:
                return arm
        log_n = math.log(n)
        return max(arms, key=lambda a: a.mean() + self.exploration * math.sqrt(log_n / a.visits))

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
        state, _ = advance(game, state, rng, steps, self._choose)
        result = game.result(state)
        scores = result.scores if result is not None else game.evaluate(state)
        return utility(scores, seat, self.scale, self.field_from)
