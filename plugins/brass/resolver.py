"""The turn engine: one move run to its consequences, turns, rounds and the era's end.

Form of play shared by the Brass games: an action is a queue of :class:`~plugins.brass.
events.Step`. A :class:`Resolver` works through the queue on a copy of the state; a step
with one possible outcome resolves at once, a step with a real choice stops the action
with an ``Awaiting`` event, and the player's answer (a move) resumes it. When the queue
is empty the action is done; after the turn's last action the seat refills its hand, the
next seat plays, and after the last seat the round ends (turn order by spending, income).

A game subclasses :class:`Resolver` and fills in four hooks (two more are optional):

* :meth:`Resolver.start` -- emit an action's first events, return its step queue;
* :meth:`Resolver.resolve` -- resolve ``queue[0]`` of a game-defined kind, or wait;
* :meth:`Resolver.answer_step` -- apply the player's answer to ``queue[0]``;
* :meth:`Resolver.income_shortfall` -- what happens when a seat cannot pay its income;
* :meth:`Resolver.shortfall_step` (optional) -- a decision to ask that seat first;
* :meth:`Resolver.era_change` (optional) -- board changes between an era's scores and the
  next deal (:meth:`Resolver.end_era` runs the era's end).

The ``discard`` step (which card pays for an action) and the ``round_end`` step (resume
the round's end after a round-end decision) are the family's own.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from random import Random
from typing import Any

from core.errors import IllegalMove
from plugins.brass import events as ev
from plugins.brass import moves as fm
from plugins.brass.cards import distinct
from plugins.brass.income import IncomeTrack
from plugins.brass.state import PLAY, SCORING, BrassState, TurnRules
from plugins.brass.turns import next_turn_order

Refusal = tuple[str, str] | None


def turn_refusal(s: BrassState, seat: int) -> Refusal:
    """Why ``seat`` may not start an action now, or ``None``."""
    if s.phase != PLAY:
        return ("not_playing", "no player acts now: the era is being scored or the game is over")
    if seat != s.current:
        return ("not_your_turn", "it is not your turn")
    if s.pending:
        return ("decision_pending", "finish the action in progress first (see legal moves)")
    return None


def dealt_hand_sizes(cards: int, size: int, seats: int) -> list[int]:
    """How many cards each seat gets when ``cards`` are dealt ``size`` each (the last seats
    get fewer, or none, when the cards run short)."""
    return [max(0, min(size, cards - size * i)) for i in range(seats)]


def deal_refusal(cards: list[int], size: int, seats: int, deal: fm.EndEra) -> Refusal:
    """Why ``deal`` cannot be the reshuffle of ``cards`` into ``seats`` hands of ``size``,
    or ``None``: it must hold exactly those cards, and each hand its share."""
    hands = deal.hands or []
    if len(hands) != seats:
        return ("deal_hands", f"a deal gives one hand to each of the {seats} seats, "
                f"not {len(hands)} hands")  # fmt: skip
    want = dealt_hand_sizes(len(cards), size, seats)
    for seat, (hand, count) in enumerate(zip(hands, want, strict=True)):
        if len(hand) != count:
            return ("deal_hand_size", f"seat {seat}'s new hand must hold {count} cards, "
                    f"not {len(hand)}")  # fmt: skip
    given = Counter([*(deal.deck or []), *(c for hand in hands for c in hand)])
    if given != Counter(cards):
        return (
            "deal_not_the_cards",
            f"a deal is a permutation of exactly the {len(cards)} cards reshuffled (the "
            "deck, the discards, the face-down cards and the hands); this one has "
            f"{sum(given.values())}, {_card_difference(given, Counter(cards))}",
        )
    return None


def _card_difference(given: Counter[int], want: Counter[int]) -> str:
    extra, missing = sum((given - want).values()), sum((want - given).values())
    return f"{extra} more of some kinds and {missing} fewer of others"


DISCARDS: list[fm.Discard] = []
"""Each card kind's ``Discard``, made once (listed at every discard step)."""


def discard_options(s: BrassState, seat: int, made: list[Any] | None = None) -> list[Any]:
    """Answers to a ``discard`` step: one per distinct card kind in hand, from ``made`` (a
    game's table of them by card kind, in its own form) or :data:`DISCARDS`."""
    kinds = distinct(s.hands[seat])
    if made is None:
        made = DISCARDS
        if kinds and kinds[-1] >= len(DISCARDS):
            DISCARDS.extend(fm.Discard(c) for c in range(len(DISCARDS), kinds[-1] + 1))
    return [made[c] for c in kinds]


class Resolver:
    """Runs one move of ``seat`` on a copy of ``state``; ``events`` collects what happens.

    ``apply`` is the game's reducer (``apply(state, event)`` in place), so the copy moves
    exactly as the real state will when the events are folded."""

    def __init__(
        self,
        rules: TurnRules,
        track: IncomeTrack,
        apply: Callable[[Any, Any], Any],
        state: BrassState,
        seat: int,
    ) -> None:
        self.rules, self.track, self._apply = rules, track, apply
        self.s: Any = state.clone()  # type: ignore[attr-defined]
        self.seat = seat
        self.events: list[Any] = []

    def emit(self, e: Any) -> None:
        self.events.append(e)
        self._apply(self.s, e)

    def emit_all(self, events: Iterable[Any]) -> None:
        for e in events:
            self.emit(e)

    # --- hooks ------------------------------------------------------------------------

    def start(self, move: Any) -> list[ev.Step]:
        """Begin the action ``move`` (already checked): emit its first events and return
        the steps that follow (a ``discard`` step usually comes first)."""
        raise NotImplementedError

    def resolve(self, step: ev.Step, queue: list[ev.Step]) -> bool:
        """Resolve ``queue[0]`` (``step``, a game-defined kind): pop or replace it as it
        progresses, and return ``True`` to stop and ask the player."""
        raise NotImplementedError

    def answer_step(self, move: Any, queue: list[ev.Step]) -> None:
        """Apply ``move``, a listed answer to ``queue[0]`` (a game-defined kind)."""
        raise NotImplementedError

    def shortfall_step(self, seat: int, owe: int) -> ev.Step | None:
        """A decision ``seat`` must take at round end before paying ``owe`` it cannot
        pay (Birmingham: which industries to sell), or ``None`` (the default) to go
        straight to :meth:`income_shortfall`. The step is resolved with :meth:`resolve`
        and :meth:`answer_step` like any other; the round's end resumes after it."""
        return None

    def income_shortfall(self, seat: int, owe: int) -> tuple[int, int]:
        """The seat owes ``owe`` and has less: emit the game's remedy events and return
        ``(paid, vp_lost)``. The default pays what it can and loses 1 VP per £1 short
        (never below zero VP)."""
        paid = min(owe, self.s.money[seat])
        return paid, min(owe - paid, max(0, self.s.vp[seat]))

    def era_change(self, era: int) -> None:
        """Emit what changes on the board once ``era`` is scored, before the next deal (or
        the game's end): Pittsburgh clears trains and level I tiles here. The default emits
        nothing, for a game that folds those changes into ``EraBegan`` (Birmingham)."""

    # --- the engine -------------------------------------------------------------------

    def end_era(
        self, rng: Random, links: list[int], industries: list[int], deal: fm.EndEra | None = None
    ) -> list[Any]:
        """The era's end, in order: the scores, :meth:`era_change`, then either the next
        era (every card reshuffled, face-down ones included, ``hand_size`` dealt to each
        seat) or the game's end. Returns the events (a system move: no seat acts).

        ``deal`` is the reshuffle's outcome when a record supplies it (checked by
        :func:`deal_refusal`); without it the cards are shuffled with ``rng``."""
        s, rules = self.s, self.rules
        if s.phase != SCORING:
            raise IllegalMove("not_era_end", "the era is not over: cards remain to be played")
        era = s.era
        last = era + 1 >= rules.eras
        if deal is not None and deal.hands is not None and last:
            raise IllegalMove(
                "no_deal_at_game_end",
                "the last era's end deals no cards: send score_era without a deal",
            )
        cards = list(s.deck)
        for seat in range(s.players):
            cards += s.discards[seat] + s.facedown[seat] + s.hands[seat]
        size, n = rules.hand_size, s.players
        if deal is not None and deal.hands is not None:
            refusal = deal_refusal(cards, size, n, deal)
            if refusal:
                raise IllegalMove(*refusal)
        self.emit(ev.EraScored(era, links, industries))
        self.era_change(era)
        if last:
            self.emit(ev.GameEnded())
            return self.events
        if deal is not None and deal.hands is not None:
            self.emit(ev.EraBegan(era + 1, list(deal.deck or []), [sorted(h) for h in deal.hands]))
            return self.events
        rng.shuffle(cards)
        hands = [
            sorted(cards[len(cards) - size * (i + 1) : len(cards) - size * i]) for i in range(n)
        ]
        self.emit(ev.EraBegan(era + 1, cards[: max(0, len(cards) - size * n)], hands))
        return self.events

    def begin(self, move: Any) -> None:
        self.run(self.start(move))

    def answer(self, move: Any) -> None:
        """Resolve ``move``, already known to answer the pending step."""
        queue = list(self.s.pending)
        if queue[0].kind == "discard":
            self.discard(queue, move.card)
        else:
            self.answer_step(move, queue)
        self.run(queue)

    def discard(self, queue: list[ev.Step], card: int) -> None:
        step = queue[0]
        queue[0] = ev.Step(step.kind, step.n - 1, step.a, step.b)
        self.emit(ev.Discarded(self.seat, [card]))

    def run(self, queue: list[ev.Step]) -> None:
        """Resolve steps until one needs the player's choice or the action is over."""
        s = self.s
        while queue:
            step = queue[0]
            if step.kind == "round_end":
                self.next_seat()
                return
            if step.kind == "discard":
                if step.n <= 0:
                    queue.pop(0)
                    continue
                options = distinct(s.hands[self.seat])
                if len(options) > 1:
                    self.emit(ev.Awaiting(queue))
                    return
                self.discard(queue, options[0])
            elif self.resolve(step, queue):
                # a round-end decision keeps asking the same seat
                self.emit(ev.Awaiting(queue, s.deciding))
                return
        self.emit(ev.ActionDone(self.seat))
        if s.actions_left <= 0 or not s.hands[self.seat]:
            self.end_turn()

    def end_turn(self) -> None:
        """Refill the seat's hand, pass the turn on, and end the round after the last seat
        (seats with no cards left have no turn)."""
        s = self.s
        seat = s.current
        k = max(0, min(self.rules.hand_size - len(s.hands[seat]), len(s.deck)))
        self.emit(ev.Drew(seat, s.deck[len(s.deck) - k :] if k else []))
        self.next_seat()

    def next_seat(self) -> None:
        """Move on to the next seat with cards, ending the round after the last seat."""
        s = self.s
        while True:
            if s.turn >= s.players and (not self.end_round() or s.phase != PLAY):
                return
            if s.hands[s.current]:
                return
            self.emit(ev.Drew(s.current, []))

    def end_round(self) -> bool:
        """Next round's order by least spent (ties keep their order), then income,
        except after the last round of the game. Returns ``False`` when it stopped for a
        seat's round-end decision instead (it resumes through the ``round_end`` step)."""
        s = self.s
        n = s.players
        final = s.era + 1 >= self.rules.eras and not s.deck and not any(s.hands)
        order = next_turn_order(s.order, s.spent)
        income, lost = [0] * n, [0] * n
        for seat in range(n) if not final else ():
            level = self.track.level(s.income[seat])
            if level >= 0 or s.money[seat] >= -level:
                income[seat] = level
                continue
            step = self.shortfall_step(seat, -level)
            if step is not None:
                self.emit(ev.Awaiting([step, ev.Step("round_end")], seat))
                return False
            paid, lost[seat] = self.income_shortfall(seat, -level)
            income[seat] = -paid
        self.emit(ev.RoundEnded(order, income, lost))
        return True
