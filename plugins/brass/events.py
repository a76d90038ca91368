"""Events every Brass game shares: cards, spending, the pending decision, turns, rounds
and eras. A game's ``Event`` union lists these next to its own events.

Card lists in :class:`Drew` and :class:`EraBegan` are secret (see :mod:`plugins.brass.hidden`).
"""

from __future__ import annotations

import msgspec


class Step(msgspec.Struct, frozen=True, array_like=True):
    """One piece of an action still to resolve: a pending decision and what follows it.

    ``kind`` is ``discard`` (``n`` cards to pay for the action; resolved by the family) or
    a kind the game defines; ``n``, ``a`` and ``b`` are the game's arguments (counts,
    locations, tiles...)."""

    kind: str
    n: int = 0
    a: int = -1
    b: int = -1


class Discarded(msgspec.Struct, tag="discarded", frozen=True):
    """Cards leave the seat's hand: wild cards to their supply, others to its discards."""

    seat: int
    cards: list[int]


class Paid(msgspec.Struct, tag="paid", frozen=True):
    """Money spent to the bank; counts toward the round's spending (turn order)."""

    seat: int
    amount: int


class Awaiting(msgspec.Struct, tag="awaiting", frozen=True):
    """Play waits for a decision on ``steps[0]``: by the seat whose turn it is, or, when
    ``seat`` is given, by that seat outside its turn (a round-end decision)."""

    steps: list[Step]
    seat: int = -1


class ActionDone(msgspec.Struct, tag="action_done", frozen=True):
    seat: int


class Drew(msgspec.Struct, tag="drew", frozen=True):
    """The seat's turn ends; it refills its hand with ``cards`` from the deck's top."""

    seat: int
    cards: list[int]


class RoundEnded(msgspec.Struct, tag="round_ended", frozen=True):
    """Next round's ``order``; ``income`` is the money each seat gets (negative: pays),
    zero after the game's last round; ``vp_lost`` what an unpaid debt cost."""

    order: list[int]
    income: list[int]
    vp_lost: list[int]


class EraScored(msgspec.Struct, tag="era_scored", frozen=True):
    """VP per seat from links and from flipped industries at the end of ``era``."""

    era: int
    links: list[int]
    industries: list[int]


class EraBegan(msgspec.Struct, tag="era_began", frozen=True):
    """The next era: the reshuffled ``deck`` and the new ``hands``. Games add their own
    era-change effects (removing level I tiles...) when they apply it."""

    era: int
    deck: list[int]
    hands: list[list[int]]


class GameEnded(msgspec.Struct, tag="game_ended", frozen=True):
    pass


CoreEvent = (
    Discarded | Paid | Awaiting | ActionDone | Drew | RoundEnded | EraScored | EraBegan | GameEnded
)
