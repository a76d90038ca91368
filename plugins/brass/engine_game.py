"""The decider of a Brass game on the family engine (:mod:`plugins.brass.turn`), wired once.

A variant's game class sets, in its ``__init__``, ``data`` (its loaded data), ``names``
(its client ids, with ``decode`` of a named move), ``variant`` (its
:class:`~plugins.brass.variant.Variant`) and ``evaluation`` (``evaluate``'s function), and
as class attributes ``docs`` (its module with ``view(d, names, s, seat)`` and
``redact(d, names, e, seat)``) and ``positions`` (with ``export(d, s)`` and
``load(d, doc, step_kinds)``); it writes only setup, tie-breaks and its bots.
:class:`DocsGame` is the part a game with its own turn engine (Pittsburgh) uses: the view,
the evaluation and the position export.
"""

from __future__ import annotations

from random import Random
from types import ModuleType
from typing import Any

from plugins.brass import turn
from plugins.brass.game import BrassGame
from plugins.brass.hidden import resample_cards
from plugins.brass.variant import Variant


class DocsGame(BrassGame):
    """``view``, ``evaluate`` and ``export_position`` from ``data``, ``names``, ``docs``,
    ``positions`` and ``evaluation``."""

    data: Any
    names: Any
    evaluation: Any
    docs: ModuleType
    positions: ModuleType

    def view(self, state: Any, seat: int | None) -> dict[str, Any]:
        return self.docs.view(self.data, self.names, state, seat)  # type: ignore[no-any-return]

    def evaluate(self, state: Any) -> list[float]:
        """Each seat's expected final VP (the search hook), by the game's evaluation."""
        return self.evaluation(state)  # type: ignore[no-any-return]

    def export_position(self, state: Any) -> dict[str, Any]:
        return self.positions.export(self.data, state)  # type: ignore[no-any-return]


class EngineGame(DocsGame):
    variant: Variant

    def evolve(self, state: Any, event: Any) -> Any:
        return self.variant.reduce(state, event)

    def decide(self, state: Any, actor: int, move: Any, rng: Random) -> list[Any]:
        self.check_move(move)
        return turn.decide(self.variant, state, actor, self.names.decode(move, state), rng)

    def legal_moves(self, state: Any, seat: int) -> list[Any]:
        return turn.legal_moves(self.variant, state, seat)

    def redact(self, event: Any, seat: int | None) -> dict[str, Any]:
        return self.docs.redact(self.data, self.names, event, seat)  # type: ignore[no-any-return]

    def load_position(self, doc: dict[str, Any]) -> Any:
        return self.positions.load(self.data, doc, self.variant.step_kinds)

    def sample_hidden(self, state: Any, seat: int, rng: Random) -> Any:
        """Redraw what ``seat`` cannot see (the deck, other hands, face-down discards); wild
        cards stay with their holders, as everyone saw them taken."""
        new = state.clone()
        resample_cards(new, seat, rng, public=self.data.turn_rules.wild_cards)
        return new
