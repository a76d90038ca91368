"""Events every Brass game shares: cards, spending, the pending decision, turns, rounds
and eras. A game's ``Event`` union lists these next to its own events.

The board events (tiles, links, cubes, markets, loans, liquidation) are Birmingham's forms,
taken over unchanged by the family (tags and fields as stored); a variant whose board
events differ keeps its own (Pittsburgh).

Card lists in :class:`Started`, :class:`Drew` and :class:`EraBegan` are secret (see
:mod:`plugins.brass.hidden`).
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


class Started(msgspec.Struct, tag="started", frozen=True):
    """Setup's first deal; a game's ``Started`` adds what else its setup drew or chose.
    ``order``: seats in first-round turn order; ``deck``: card kinds, top card last;
    ``facedown``: per seat, the cards dealt face down onto its discard pile."""

    players: int
    order: list[int]
    deck: list[int]
    hands: list[list[int]]
    facedown: list[list[int]]


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


# --- the board: tiles, links, cubes, markets, loans (Birmingham's forms, shared) ----


class TilePlaced(msgspec.Struct, tag="tile_placed", frozen=True):
    """The seat's lowest ``industry`` tile goes on ``slot`` (replacing what was there)."""

    seat: int
    slot: int
    industry: int
    level: int


class LinkPlaced(msgspec.Struct, tag="link_placed", frozen=True):
    seat: int
    link: int


class TileDeveloped(msgspec.Struct, tag="tile_developed", frozen=True):
    seat: int
    industry: int
    level: int


class CubeTaken(msgspec.Struct, tag="cube_taken", frozen=True):
    """One resource cube taken from the tile on ``slot`` (coal, iron, a variant's own)."""

    slot: int


class MarketBought(msgspec.Struct, tag="market_bought", frozen=True):
    resource: str
    count: int


class Produced(msgspec.Struct, tag="produced", frozen=True):
    """A new tile's cubes: ``cubes`` placed, ``sold`` of them sold to the market for
    ``money`` paid to the owner."""

    slot: int
    cubes: int
    sold: int
    money: int


class Flipped(msgspec.Struct, tag="flipped", frozen=True):
    """The tile on ``slot`` flips; its owner advances income by the tile's spaces."""

    slot: int


class LoanTaken(msgspec.Struct, tag="loan_taken", frozen=True):
    seat: int
    amount: int
    space: int


class Liquidated(msgspec.Struct, tag="liquidated", frozen=True):
    """Unpaid negative income: the tile on ``slot`` leaves the board for ``refund``."""

    seat: int
    slot: int
    refund: int


CoreEvent = (
    Discarded | Paid | Awaiting | ActionDone | Drew | RoundEnded | EraScored | EraBegan | GameEnded
)
