"""The actions of a Brass turn, one module each, and the shape they share.

An :class:`Action` is one thing a player may do with an action of the turn (build,
network, develop, sell, loan, pass; a variant adds its own: Birmingham's scout,
Lancashire's double build). It holds, side by side, the rule's legality check and its
effect:

* :meth:`Action.refusal` -- why one action-starting move is not allowed now, in the rule
  text's order (``decide`` asks it of the one move it gets: cheap);
* :meth:`Action.options` -- every allowed action-starting move, in the named form clients
  use (``legal_moves``; exactness tests prove it equal to ``refusal``);
* :meth:`Action.start` -- the effect: the first events, then the steps still to resolve
  (after the ``discard`` of :attr:`Action.cards` cards that pays for it);
* :attr:`Action.steps` -- the step kinds this action brings (:class:`StepKind`).

A :class:`StepKind` is one kind of pending step (``Step.kind``): how it resolves when it
leaves no choice, the answers it allows when it does, how an answer applies, and why a
move that is not among its answers is refused. ``decide`` accepts an answer by membership
in :meth:`StepKind.options`, so listing and deciding cannot drift. A :class:`DrawnStep`
is answered by the server's chance draw instead of a player.

The arguments are always the same few: ``v`` the :class:`~plugins.brass.variant.Variant`,
``f`` the :class:`~plugins.brass.facts.Facts` of the state (``f.s``), ``r`` the turn's
:class:`~plugins.brass.turn.TurnResolver` (``r.s`` its working copy of the state, ``r.emit``
folds an event into it), ``seat`` the acting seat and ``m`` an engine-form move.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from plugins.brass.events import Step

if TYPE_CHECKING:
    from plugins.brass.facts import Facts
    from plugins.brass.turn import TurnResolver
    from plugins.brass.variant import Variant

CANAL, RAIL = 0, 1
ERA_NAMES = ("canal", "rail")

Refusal = tuple[str, str] | None
"""``None`` when allowed, else ``(code, sentence)``: a stable code and the rule in words."""


class Action:
    """One action a player may take; a variant lists its actions in ``Variant.actions``
    in the order ``legal_moves`` lists them.

    ``move`` is the engine form that starts the action, ``named`` the form clients send
    (the variant's class: names, views and the OpenAPI document stay the game's own)."""

    tag: ClassVar[str] = ""
    """The move's tag, as clients send it (``build``)."""
    cards: ClassVar[int] = 1
    """Cards a ``discard`` step asks for before the action's own steps (0: the move names
    its card, as a build does)."""
    continuations: ClassVar[tuple[type, ...]] = ()
    """Engine moves that continue this action (``SecondLink``): sent with no action in
    progress, :meth:`stray_refusal` says why they are refused."""

    def __init__(self, move: type, named: type) -> None:
        self.move, self.named = move, named

    def refusal(self, v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
        """Why ``seat`` may not start this action with ``m`` now (the turn is its own)."""
        return None

    def options(self, v: Variant, f: Facts, seat: int) -> list[Any]:
        """Every ``m`` that :meth:`refusal` allows, named (``v.names`` holds the ids)."""
        return []

    def start(self, r: TurnResolver, m: Any) -> list[Step]:
        """Emit the action's first events and return its steps; the paying ``discard``
        step (:attr:`cards`) goes before them."""
        return []

    def stray_refusal(self, v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
        """Why continuation ``m`` is refused when no action of this kind is in progress."""
        return v.not_an_action

    def step_kinds(self) -> dict[str, StepKind]:
        """The step kinds this action brings, by ``Step.kind``."""
        return {}


class StepKind:
    """One kind of pending step. The defaults suit a step that resolves by itself."""

    reason: ClassVar[tuple[str, str]] = ("decision_pending", "answer the pending decision")
    """Why a move that does not answer this step is refused, naming the rule."""

    def resolve(self, r: TurnResolver, step: Step, queue: list[Step]) -> bool:
        """Resolve ``queue[0]`` (``step``): pop or replace it as it progresses; return
        ``True`` to stop and ask the player."""
        queue.pop(0)
        return False

    def options(self, v: Variant, s: Any, seat: int, step: Step) -> list[Any]:
        """The engine moves that answer ``step`` when the player is asked."""
        return []

    def allows(self, v: Variant, s: Any, seat: int, m: Any) -> bool:
        """Whether ``m`` answers the pending step (``s.pending[0]``): it is among
        :meth:`options` (a variant may judge it by a diagnosis that is exact both ways)."""
        return m in self.options(v, s, seat, s.pending[0])

    def answer(self, r: TurnResolver, m: Any, queue: list[Step]) -> None:
        """Apply ``m``, one of :meth:`options`, to ``queue[0]``."""
        queue.pop(0)

    def refusal(self, v: Variant, s: Any, m: Any) -> tuple[str, str]:
        """Why ``m`` (not among the options) does not answer the step: the specific rule
        when ``m`` is of the right kind, else :attr:`reason`."""
        return self.reason


class DrawnStep(StepKind):
    """A step the server answers with a chance draw (Lancashire's distant-market demand
    tile): the system move :attr:`move` carries the outcome in :attr:`field`, ``None`` until
    the game draws it, so an imported record replays the very draw.
    :class:`~plugins.brass.engine_game.EngineGame` asks the server for the move while the
    step waits, refuses it from a seat (:attr:`system_only`), when no such step waits
    (:attr:`not_waiting`) or with an outcome no longer possible (:meth:`gone`), and records
    the outcome drawn (:attr:`event`, :meth:`drawn`); the subclass says what may be drawn
    (:meth:`outcomes`, each equally likely) and what the draw does (:meth:`answer`)."""

    move: ClassVar[type]
    field: ClassVar[str]
    event: ClassVar[type]
    system_only: ClassVar[tuple[str, str]]
    not_waiting: ClassVar[tuple[str, str]]

    def resolve(self, r: TurnResolver, step: Step, queue: list[Step]) -> bool:
        return True

    def outcomes(self, s: Any) -> Sequence[Any]:
        """What the draw may give now."""
        raise NotImplementedError

    def gone(self, outcome: Any) -> tuple[str, str]:
        """Why ``outcome`` (not among :meth:`outcomes`) cannot be drawn now."""
        raise NotImplementedError

    def drawn(self, events: Sequence[Any]) -> Any:
        """The :attr:`move` with the outcome ``events`` (the draw's) show, or ``None``: the
        :attr:`field` of the :attr:`event` that records the draw."""
        got = next((getattr(e, self.field) for e in events if type(e) is self.event), None)
        return None if got is None else self.move(got)
