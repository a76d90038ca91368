"""The decider of a Brass game on the family engine (:mod:`plugins.brass.turn`), wired once.

A variant's game class sets, in its ``__init__``, ``data`` (its loaded data), ``names``
(its client ids, with ``decode`` of a named move), ``variant`` (its
:class:`~plugins.brass.variant.Variant`), ``bot`` (its
:class:`~plugins.brass.board_bot.BoardBot`) and ``evaluation`` (``evaluate``'s function), and
as class attributes ``docs`` (its module with ``view(d, names, s, seat)`` and
``redact(d, names, e, seat)``), ``positions`` (with ``export(d, s)``,
``load(d, doc, step_kinds)`` and ``from_view(d, names, view, rng)``) and ``SetupOutcome``;
it writes only its setup (on :meth:`EngineGame.first_deal`) and bots. A step the
server answers by a chance draw (:class:`~plugins.brass.actions.DrawnStep`) is asked of
the server, checked and recorded here.
:class:`DocsGame` is the part a game with its own turn engine (Pittsburgh) uses: the view,
the evaluation, the position export and ``determinize``.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from types import ModuleType
from typing import Any

import msgspec

from core.errors import IllegalMove
from core.game import SYSTEM, Task
from plugins.brass import turn
from plugins.brass.actions import DrawnStep
from plugins.brass.board_bot import BoardBot
from plugins.brass.first_deal import FirstDeal, deal_first, first_deal_fields
from plugins.brass.game import BrassGame
from plugins.brass.hidden import resample_cards
from plugins.brass.market_buys import market_buys
from plugins.brass.scoring import TieBreak, board_tie_breaks
from plugins.brass.variant import Variant


class DocsGame(BrassGame):
    """``view``, ``evaluate``, ``export_position`` and ``determinize`` from ``data``,
    ``names``, ``docs``, ``positions`` and ``evaluation`` (and the game's
    ``load_position``)."""

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

    def determinize(self, view: dict[str, Any], rng: Random) -> Any:
        """A state ``view`` (a seat's) cannot tell from the real one, built from the view
        alone with what it hides (the cards, a variant's face-down tiles) drawn from
        ``rng``."""
        return self.load_position(self.positions.from_view(self.data, self.names, view, rng))


class EngineGame(DocsGame):
    variant: Variant
    bot: BoardBot
    SetupOutcome: type[FirstDeal]
    market_industries: Sequence[str] | None = None
    """The industries by index that a view's ``market_buys`` names (the seat to act's coal
    and iron bought from the markets, :mod:`plugins.brass.market_buys`: Birmingham's and
    Lancashire's); ``None``: the game's views publish none."""

    def view(self, state: Any, seat: int | None, buys: bool = True) -> dict[str, Any]:
        """``seat``'s view, with its moves' prices (:meth:`prices`) unless ``buys`` is false
        (the search's playouts and bots: none reads them, and they are the dearest part of
        a view)."""
        doc = super().view(state, seat)
        if buys:
            doc.update(self.prices(state, seat))
        return doc

    def prices(self, state: Any, seat: int | None) -> dict[str, Any]:
        """The view fields that price the seat to act's moves beyond their printed money:
        the coal and iron they would buy from the markets (``market_buys``) for a game
        naming :attr:`market_industries`; a variant paying otherwise overrides it
        (Pittsburgh's ``cube_costs``). None for other viewers."""
        if self.market_industries is None:
            return {}
        n = self.names
        found = market_buys(self.variant, state, seat, n.location, self.market_industries, n.link)
        return {} if found is None else {"market_buys": msgspec.to_builtins(found)}

    def playout_view(self, state: Any, seat: int) -> dict[str, Any]:
        return self.view(state, seat, buys=False)

    def view_for_bots(self, state: Any, seat: int) -> dict[str, Any]:
        """The seat's view without its move prices, which no bot reads (the decider hook)."""
        return self.view(state, seat, buys=False)

    def first_deal(
        self, players: int, facedown: int, rng: Random, outcome: FirstDeal | None
    ) -> tuple[list[int], list[int], list[list[int]], list[list[int]]]:
        """``(order, deck, hands, facedown)`` of the first deal of the data's deck and hand
        size, ``facedown`` cards a seat set face down (:func:`first_deal.deal_first`):
        ``outcome``'s when a record gives it, else drawn from ``rng``."""
        d = self.data
        return deal_first(self.names.card, d.deck_copies[players], players, d.rules.hand_size,
                          facedown, rng, outcome)  # fmt: skip

    def setup_outcome(self, events: Sequence[Any]) -> Any:
        """The chance hook of ``setup``: the first deal its ``Started`` event shows (a game
        with more drawn at setup adds it)."""
        return self.SetupOutcome(**first_deal_fields(self.names.card, events[0]))

    def tie_breaks(self, state: Any) -> list[TieBreak]:
        """The tie-breaks the board's ``rules.json`` names (:func:`board_tie_breaks`)."""
        return board_tie_breaks(self.data.rules.tie_breaks, state, self.data.income)

    def bot_policy(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
        """The greedy bot's choice among ``legal``, from the seat's view alone."""
        return self.bot.choose(view, legal, rng)

    def evolve(self, state: Any, event: Any) -> Any:
        return self.variant.reduce(state, event)

    def decide(self, state: Any, actor: int, move: Any, rng: Random) -> list[Any]:
        return self._resolved(state, actor, move, rng).events

    def decide_evolved(
        self, state: Any, actor: int, move: Any, rng: Random
    ) -> tuple[list[Any], Any]:
        """``decide``'s events and the state after them: the turn engine folds each event
        onto its own copy of ``state`` as it emits it, so the service need not again."""
        r = self._resolved(state, actor, move, rng)
        return r.events, r.s

    def _resolved(self, state: Any, actor: int, move: Any, rng: Random) -> turn.TurnResolver:
        drawn = self.variant.drawn_steps.get(type(move))
        if drawn is not None:
            return self._draw(drawn, state, actor, move, rng)
        self.check_move(move)
        return turn.resolved(self.variant, state, actor, self.names.decode(move, state), rng)

    def pending_tasks(self, state: Any) -> list[Task]:
        """As the family's, but a step the server draws waits for its system move."""
        drawn = self._waiting_draw(state)
        if drawn is not None:
            return [Task(kind="system", move=drawn.move())]
        return super().pending_tasks(state)

    def chance_outcome(self, state: Any, move: Any, events: Sequence[Any]) -> Any:
        """As the family's; a drawn step's move with the outcome its events show."""
        drawn = self.variant.drawn_steps.get(type(move))
        shown = drawn.drawn(events) if drawn is not None else None
        return shown if shown is not None else super().chance_outcome(state, move, events)

    def _waiting_draw(self, s: Any) -> DrawnStep | None:
        kind = self.variant.step_kinds.get(s.pending[0].kind) if s.pending else None
        return kind if isinstance(kind, DrawnStep) else None

    def _draw(self, kind: DrawnStep, s: Any, actor: int, m: Any, rng: Random) -> turn.TurnResolver:
        """The server's draw for the waiting step ``kind`` (:class:`DrawnStep`): the
        outcome ``m`` carries (a record's), else one drawn from ``rng``."""
        if actor != SYSTEM:
            raise IllegalMove(*kind.system_only)
        if self._waiting_draw(s) is not kind:
            raise IllegalMove(*kind.not_waiting)
        outcome = getattr(m, kind.field)
        if outcome is None:
            m = kind.move(rng.choice(kind.outcomes(s)))
        elif outcome not in kind.outcomes(s):
            raise IllegalMove(*kind.gone(outcome))
        r = turn.TurnResolver(self.variant, s, s.current)
        r.answer(m)
        return r

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
