"""The state every Brass game shares and the reducer for the shared events.

A game's state subclasses :class:`BrassState` with its board fields and calls
:func:`apply_core` from its own reducer for the events of :mod:`plugins.brass.events`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, Self

import msgspec

from plugins.brass import events as ev
from plugins.brass.income import IncomeTrack

PLAY, SCORING, OVER = "play", "scoring", "over"


class TurnRules(msgspec.Struct, frozen=True, kw_only=True):
    """The numbers of the turn structure, from the game's data."""

    hand_size: int
    actions_per_turn: int
    actions_first_round: int
    """Actions per turn in the first round of the first era."""
    eras: int = 2
    wild_cards: tuple[int, ...] = ()
    """Card kinds that return to a supply when discarded (Birmingham's wild cards);
    ``BrassState.wild_supply[i]`` counts ``wild_cards[i]``."""


class BrassState(msgspec.Struct, kw_only=True):
    """Players, money, income, VP, cards, turn order and the pending decision."""

    players: int
    era: int = 0
    round: int = 1
    phase: str = PLAY
    order: list[int]
    turn: int = 0
    """Index into ``order`` of the seat whose turn it is."""
    actions_left: int = 1
    money: list[int]
    spent: list[int]
    income: list[int]
    """Income-track space per seat (the level follows from the track)."""
    vp: list[int]
    hands: list[list[int]]
    """Sorted card kinds per seat."""
    deck: list[int]
    """Card kinds; the last is the top."""
    discards: list[list[int]]
    facedown: list[list[int]]
    wild_supply: list[int] = []
    pending: list[ev.Step] = []
    deciding: int = -1
    """A seat that must decide outside its turn (at round end), else -1."""

    @property
    def current(self) -> int:
        """The seat to act: the deciding seat if any, else the seat whose turn it is;
        -1 between rounds and after the game."""
        if self.deciding >= 0:
            return self.deciding
        return self.order[self.turn] if self.phase == PLAY and self.turn < self.players else -1

    def clone(self) -> Self:
        """A copy ``evolve`` may change without touching this state: a shallow copy with
        every list field copied, its rows too where they are lists or dicts (found from the
        fields' types, so a game's new field cannot be forgotten; ``tests/test_brass_clone.py``
        checks). Cheaper than building the state anew from keyword arguments (``clone`` is
        a move's and the search bots' hot path)."""
        return _cloner(type(self))(self)  # type: ignore[no-any-return]


_ROW_COPY = {msgspec.inspect.ListType: "list.copy", msgspec.inspect.DictType: "dict.copy"}


@functools.cache
def _cloner(cls: type) -> Callable[[Any], Any]:
    """The ``clone`` of state class ``cls``, written out once from its fields as dataclasses
    write their methods: it costs what a hand-written one does (a loop over the fields
    cost 31% more instructions a clone)."""
    lines = ["def clone(self):", "    new = self.__copy__()"]
    for f in msgspec.inspect.type_info(cls).fields:  # type: ignore[attr-defined]
        if isinstance(f.type, msgspec.inspect.ListType):
            row = _ROW_COPY.get(type(f.type.item_type))
            copy = f"list(map({row}, self.{f.name}))" if row else f"self.{f.name}[:]"
            lines.append(f"    new.{f.name} = {copy}")
    made: dict[str, Any] = {}
    exec("\n".join([*lines, "    return new"]), made)
    return made["clone"]  # type: ignore[no-any-return]


def core_fields(
    rules: TurnRules,
    players: int,
    order: Sequence[int],
    deck: Sequence[int],
    hands: Sequence[Sequence[int]],
    facedown: Sequence[Sequence[int]],
    money: int,
    income_space: int,
    wild_supply: Sequence[int] = (),
) -> dict[str, Any]:
    """Keyword arguments of a fresh :class:`BrassState` at the start of the game."""
    n = players
    return dict(
        players=n, order=list(order), actions_left=rules.actions_first_round,
        money=[money] * n, spent=[0] * n, income=[income_space] * n, vp=[0] * n,
        hands=[sorted(h) for h in hands], deck=list(deck), discards=[[] for _ in range(n)],
        facedown=[list(f) for f in facedown], wild_supply=list(wild_supply),
    )  # fmt: skip


def actions_per_turn(rules: TurnRules, s: BrassState) -> int:
    first = s.era == 0 and s.round == 1
    return rules.actions_first_round if first else rules.actions_per_turn


def apply_core(rules: TurnRules, s: BrassState, e: Any) -> bool:
    """Fold a shared event into ``s`` in place; ``False`` if ``e`` is not one of them."""
    t = type(e)
    if t is ev.Paid:
        s.money[e.seat] -= e.amount
        s.spent[e.seat] += e.amount
    elif t is ev.Discarded:
        hand = s.hands[e.seat]
        for card in e.cards:
            hand.remove(card)
            if card in rules.wild_cards:
                s.wild_supply[rules.wild_cards.index(card)] += 1
            else:
                s.discards[e.seat].append(card)
    elif t is ev.Awaiting:
        s.pending = list(e.steps)
        s.deciding = e.seat
    elif t is ev.ActionDone:
        s.pending = []
        s.actions_left -= 1
    elif t is ev.Drew:
        if e.cards:
            del s.deck[len(s.deck) - len(e.cards) :]
            s.hands[e.seat] += e.cards
            s.hands[e.seat].sort()
        s.turn += 1
        s.actions_left = actions_per_turn(rules, s)
    elif t is ev.RoundEnded:
        s.pending = []
        s.deciding = -1
        for seat in range(s.players):
            s.money[seat] += e.income[seat]
            s.vp[seat] -= e.vp_lost[seat]
            s.spent[seat] = 0
        s.order = list(e.order)
        s.turn = 0
        s.round += 1
        s.actions_left = actions_per_turn(rules, s)
        if not s.deck and not any(s.hands):
            s.phase = SCORING
    elif t is ev.EraScored:
        for seat in range(s.players):
            s.vp[seat] += e.links[seat] + e.industries[seat]
    elif t is ev.EraBegan:
        s.discards = [[] for _ in range(s.players)]
        s.facedown = [[] for _ in range(s.players)]
        s.deck = list(e.deck)
        s.hands = [sorted(h) for h in e.hands]
        s.era = e.era
        s.round = 1
        s.turn = 0
        s.phase = PLAY
        s.actions_left = actions_per_turn(rules, s)
    elif t is ev.GameEnded:
        s.phase = OVER
    else:
        return False
    return True


def income_level(track: IncomeTrack, s: BrassState, seat: int) -> int:
    return track.level(s.income[seat])
