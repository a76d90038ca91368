"""What every Brass game shows its clients, and the names clients send back.

The engine keeps indices; clients read and write names. A game's ``names`` module builds
one :class:`Ids` per kind of id (cards with :func:`card_ids`), so looking a name up and
refusing an unknown one work the same in every game. A game's ``view`` module builds its
documents on :class:`Doc`, its pending decisions on :class:`Decision`, its players on
:class:`PlayerCore` (filled with :func:`player_fields`) and its view header with
:func:`turn_fields`; :func:`current_decision` says who must choose what now.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal, TypeVar

import msgspec

from core.errors import IllegalMove
from plugins.brass.events import Step
from plugins.brass.income import IncomeTrack
from plugins.brass.moves import Deal, EndEra, ScoreEra
from plugins.brass.state import OVER, PLAY, SCORING, BrassState

D = TypeVar("D", bound="Decision")


class Ids(tuple[str, ...]):
    """The client ids of one kind, by engine index (a tuple of names), and the way back:
    :meth:`index_of` refuses an unknown name with ``code`` and ``refusal``, a sentence in
    which ``{name}`` stands for the name sent and which says what a valid name looks like."""

    code: str
    refusal: str
    _index: dict[str, int]

    def __new__(cls, names: Iterable[str], code: str, refusal: str) -> Ids:
        ids = super().__new__(cls, names)
        ids.code, ids.refusal = code, refusal
        ids._index = {name: i for i, name in enumerate(ids)}
        return ids

    def __contains__(self, name: object) -> bool:
        return name in self._index

    def index_of(self, name: str) -> int:
        """The engine index of ``name``; ``IllegalMove`` for a name of no such thing."""
        i = self._index.get(name)
        if i is None:
            raise IllegalMove(self.code, self.refusal.replace("{name}", repr(name)))
        return i


def numbered(locations: Iterable[str]) -> list[str]:
    """The ids of places listed by their ``locations``: each location's id, ``:`` and the
    place's index among that location's, from 0 (``oxford:0``, ``oxford:1``)."""
    listed = list(locations)
    return [f"{loc}:{listed[:i].count(loc)}" for i, loc in enumerate(listed)]


def card_ids(names: Iterable[str], examples: Sequence[str]) -> Ids:
    """Card names as hands show them (``examples``: a few, for the refusal)."""
    shown = ", ".join(repr(e) for e in examples)
    return Ids(
        names,
        "unknown_card",
        f"there is no card named {{name}}; cards are named as your hand shows them ({shown})",
    )


def end_era_of(cards: Ids, m: ScoreEra) -> EndEra:
    """The engine form of a named era end: its deal (if any) by card kinds."""
    if m.deal is None:
        return EndEra()
    return EndEra(
        [cards.index_of(c) for c in m.deal.deck],
        [[cards.index_of(c) for c in hand] for hand in m.deal.hands],
    )


def score_era_of(cards: Ids, deck: Sequence[int], hands: Sequence[Sequence[int]]) -> ScoreEra:
    """The named era end that deals ``hands`` (each in name order: a hand has no order)
    and leaves ``deck`` (card kinds)."""
    return ScoreEra(Deal([cards[c] for c in deck], [sorted(cards[c] for c in h) for h in hands]))


class Doc(msgspec.Struct, kw_only=True, omit_defaults=True):
    """A document clients read (views, decisions): absent optional fields are left out."""


class Decision(Doc, kw_only=True):
    """Who must choose now and how: ``moves`` are the move types that answer, ``prompt``
    says it in words; ``count`` is how many units are still needed. A game adds the ids
    saying what the decision is for. ``seat`` is who answers: the view always names it
    (``None`` during era scoring and after the game), while a decision described apart from
    a state (the log's ``awaiting``) leaves it out, as it is not known there."""

    seat: int | msgspec.UnsetType | None = msgspec.UNSET
    kind: str
    moves: list[str]
    prompt: str
    count: int | None = None


# The decision of a game on a board of locations and industry spaces: the ids of the place it
# is for. No docstring: the OpenAPI document shows each game's decision with its own words.
class PlaceDecision(Decision, kw_only=True):
    location: str | None = None
    space: str | None = None


class StepView(msgspec.Struct, kw_only=True):
    """One step of the action in progress as the engine keeps it (the position document's
    ``pending`` form): ``kind`` and the game's arguments ``n``, ``a``, ``b`` (indices)."""

    kind: str
    n: int
    a: int
    b: int


def current_decision(
    s: BrassState, describe: Callable[[Step, int], D], make: Callable[..., D]
) -> D:
    """The decision of the moment: era scoring, the game's end, or the pending step (or the
    choice of an action) as ``describe`` words it, for the seat to act. ``make`` is the
    game's :class:`Decision` class."""
    if s.phase == SCORING:
        return make(
            seat=None,
            kind="era_scoring",
            moves=[],
            prompt="the era is over: the server is scoring it",
        )
    if s.phase == OVER:
        return make(seat=None, kind="game_over", moves=[], prompt="the game is over")
    step = s.pending[0] if s.pending else Step("action")
    return msgspec.structs.replace(describe(step, s.actions_left), seat=s.current)


class PlayerCore(Doc, kw_only=True):
    """What every Brass view shows of each player first (:func:`player_fields` fills it);
    a game's player view adds its own fields after these."""

    seat: int
    money: int
    spent: int
    """Spent this round (the next round's order: least spent first)."""
    income_space: int
    income_level: int
    vp: int
    hand_count: int
    discards: list[str]
    """Face-up discards, by card name."""
    facedown_count: int


def player_fields(
    track: IncomeTrack, s: BrassState, seat: int, card: Sequence[str]
) -> dict[str, Any]:
    """The shared fields of ``seat``'s player view (:class:`PlayerCore`'s)."""
    return dict(
        seat=seat, money=s.money[seat], spent=s.spent[seat], income_space=s.income[seat],
        income_level=track.level(s.income[seat]), vp=s.vp[seat],
        hand_count=len(s.hands[seat]), discards=[card[c] for c in s.discards[seat]],
        facedown_count=len(s.facedown[seat]),
    )  # fmt: skip


class TurnView(Doc, kw_only=True):
    """A Brass view's opening fields, where play stands (:func:`turn_fields` fills all but
    ``seat``, ``era``, ``decision`` and ``players``). A game's view subclasses it,
    redeclaring ``decision`` and ``players`` with its own classes (they keep their place),
    and adds its own fields after ``deck_count``."""

    seat: int | None
    """The viewer (``None``: a spectator)."""
    era: Literal["canal", "rail"]
    round: int
    phase: Literal["play", "scoring", "over"]
    order: list[int]
    turn_seat: int | None
    """The seat whose turn it is (``None`` between eras and after the game)."""
    actions_left: int
    decision: Decision
    pending: list[StepView]
    """Every step of the action in progress, ``decision`` describing the first (empty
    between actions); the position document's ``pending``."""
    players: list[PlayerCore]
    hand: list[str] | None
    """The viewer's own cards (``None`` for a spectator)."""
    deck_count: int


def turn_fields(s: BrassState, seat: int | None, card: Sequence[str]) -> dict[str, Any]:
    """The view fields of where play stands: round, phase, turn order, whose turn, actions
    left, the steps of the action in progress (all of them, public: the rules and the moves
    made fix them), the viewer's own hand by name (``None`` for a spectator) and the deck's
    size."""
    return dict(
        round=s.round, phase=s.phase, order=list(s.order),
        turn_seat=s.order[s.turn] if s.phase == PLAY and s.turn < s.players else None,
        actions_left=s.actions_left,
        pending=[StepView(kind=p.kind, n=p.n, a=p.a, b=p.b) for p in s.pending],
        hand=None if seat is None else [card[c] for c in s.hands[seat]],
        deck_count=len(s.deck),
    )  # fmt: skip
