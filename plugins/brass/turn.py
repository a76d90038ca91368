"""``decide`` and ``legal_moves`` over a variant's actions and step kinds.

An action-starting move is checked by its action's ``refusal`` (one move: cheap); an
answer to a pending step by membership in the step's options (:meth:`StepKind.allows`;
a variant may judge by a diagnosis its tests hold exact both ways), so listing and
deciding cannot drift where the options are the definition. The effect runs on the family turn
engine (:class:`plugins.brass.resolver.Resolver`), whose hooks :class:`TurnResolver`
hands to the actions, the step kinds and the variant's overrides.
"""

from __future__ import annotations

from random import Random
from typing import Any

from core.errors import IllegalMove
from core.game import SYSTEM
from plugins.brass import events as ev
from plugins.brass.actions import Refusal
from plugins.brass.facts import Facts
from plugins.brass.moves import EndEra, ScoreEra
from plugins.brass.resolver import Resolver, turn_refusal
from plugins.brass.state import PLAY
from plugins.brass.variant import Variant

ERA_MOVES = (ScoreEra, EndEra)
"""The system's era moves (a tuple made once: ``A | B`` would build a union every call)."""


class TurnResolver(Resolver):
    """The family turn engine driven by variant ``v``: actions start moves, step kinds
    resolve and answer steps, the variant handles income shortfalls and era changes."""

    def __init__(self, v: Variant, s: Any, seat: int) -> None:
        super().__init__(v.d.turn_rules, v.d.income, v.reduce, s, seat)
        self.v, self.d = v, v.d

    def start(self, m: Any) -> list[ev.Step]:
        action = self.v.action_of[type(m)]
        paying = [ev.Step("discard", action.cards)] if action.cards else []
        return paying + action.start(self, m)

    def resolve(self, step: ev.Step, queue: list[ev.Step]) -> bool:
        return self.v.step_kinds[step.kind].resolve(self, step, queue)

    def answer_step(self, m: Any, queue: list[ev.Step]) -> None:
        self.v.step_kinds[queue[0].kind].answer(self, m, queue)

    def shortfall_step(self, seat: int, owe: int) -> ev.Step | None:
        return self.v.shortfall_step(self, seat, owe)

    def income_shortfall(self, seat: int, owe: int) -> tuple[int, int]:
        return self.v.income_shortfall(self, seat, owe)

    def era_change(self, era: int) -> None:
        self.v.era_change(self, era)


def action_refusal(v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
    """The check for an action-starting move (the first move of an action)."""
    action = v.action_of.get(type(m))
    if action is not None:
        return action.refusal(v, f, seat, m)
    action = v.continuation_of.get(type(m))
    if action is not None:
        return action.stray_refusal(v, f, seat, m)
    return v.not_an_action


def step_options(v: Variant, s: Any, seat: int) -> list[Any]:
    """The engine moves that answer the pending step (for offers, ``Done`` comes last)."""
    step = s.pending[0]
    return v.step_kinds[step.kind].options(v, s, seat, step)


def pending_refusal(v: Variant, s: Any, m: Any) -> tuple[str, str]:
    """Why ``m`` does not answer the pending step, naming the rule."""
    kind = v.step_kinds[s.pending[0].kind]
    busy = v.action_while_pending(kind) if type(m) in v.action_of else None
    return busy or kind.refusal(v, s, m)


def legal_moves(v: Variant, s: Any, seat: int) -> list[Any]:
    """Every legal move of ``seat`` now, in the named form clients use: the pending step's
    answers, or each action's options in the variant's order."""
    if s.phase != PLAY or seat != s.current:
        return []
    if s.pending:
        return v.names.encode_all(step_options(v, s, seat), s)  # type: ignore[no-any-return]
    f = v.facts(s)
    out: list[Any] = []
    for action in v.actions:
        out += action.options(v, f, seat)
    return out


def score_era(v: Variant, s: Any, rng: Random, deal: EndEra | None = None) -> list[Any]:
    """System: the era's points (:meth:`Variant.era_points`), then the era change and the
    next era's deal (``deal``, or drawn from ``rng``)."""
    return _scored_era(v, s, rng, deal).events


def _scored_era(v: Variant, s: Any, rng: Random, deal: EndEra | None) -> TurnResolver:
    links, industries = v.era_points(s)
    r = TurnResolver(v, s, SYSTEM)
    r.end_era(rng, links, industries, deal)
    return r


def decide(v: Variant, s: Any, actor: int, m: Any, rng: Random) -> list[Any]:
    """Validate engine move ``m`` by ``actor`` and return its events."""
    return resolved(v, s, actor, m, rng).events


def resolved(v: Variant, s: Any, actor: int, m: Any, rng: Random) -> TurnResolver:
    """:func:`decide`'s resolver after the move: its ``events``, and its state ``s``, a
    copy of ``s`` with them folded on (the resolver folds each as it emits it)."""
    if isinstance(m, ERA_MOVES):
        if actor >= 0:
            raise IllegalMove("system_only", "era scoring is run by the game, not a player")
        return _scored_era(v, s, rng, m if isinstance(m, EndEra) else None)
    refusal = turn_refusal(s, actor)
    if refusal and not (refusal[0] == "decision_pending" and actor == s.current):
        raise IllegalMove(*refusal)
    r = TurnResolver(v, s, actor)
    if s.pending:
        if not v.step_kinds[s.pending[0].kind].allows(v, s, actor, m):
            raise IllegalMove(*pending_refusal(v, s, m))
        r.answer(m)
    else:
        refusal = action_refusal(v, v.facts(s), actor, m)
        if refusal:
            raise IllegalMove(*refusal)
        r.begin(m)
    return r
