"""The first deal of a Brass game as a chance outcome that a record may fix.

``setup`` shuffles the deck, deals the hands and face-down discards and draws the turn
order; a record may give that outcome instead (the game's ``SetupOutcome``, which
subclasses :class:`FirstDeal` with the game's tiles). :func:`first_deal` checks it is a deal
the game could have drawn and turns it into engine indices; :func:`first_deal_fields` reads
it back from the ``Started`` event (the ``setup_outcome`` hook).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from random import Random
from typing import Any

import msgspec

from core.errors import IllegalMove
from plugins.brass.cards import build_deck
from plugins.brass.client import Ids
from plugins.brass.hidden import deal


class FirstDeal(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The setup's deal, by card names: a permutation of exactly the game's deck."""

    order: list[int]
    """Seats in first-round turn order: each seat once."""
    hands: list[list[str]]
    """Each seat's first hand (by seat)."""
    facedown: list[list[str]]
    """Each seat's face-down discards (by seat; empty lists when the game deals none)."""
    deck: list[str]
    """The cards left to draw, top card *last*."""


def first_deal(
    cards: Ids, copies: Sequence[int], outcome: FirstDeal, players: int, size: int,
    facedown: int,
) -> tuple[list[int], list[int], list[list[int]], list[list[int]]]:  # fmt: skip
    """``(order, deck, hands, facedown)`` by card kinds, as ``Started`` holds them, of a
    first deal of the deck holding ``copies[k]`` cards of kind ``k``: ``size`` cards to
    each of ``players`` hands, ``facedown`` face-down discards each. Raises
    ``IllegalMove`` for a deal the shuffle cannot give."""
    if sorted(outcome.order) != list(range(players)):
        raise IllegalMove(
            "order_not_the_seats",
            f"the turn order lists each of the {players} seats once, not {outcome.order}",
        )
    for what, lists, count, code in (
        ("hand", outcome.hands, size, "deal_hand_size"),
        ("face-down discards", outcome.facedown, facedown, "deal_facedown"),
    ):
        if len(lists) != players:
            raise IllegalMove(
                "deal_hands",
                f"the first deal gives a {what} to each of the {players} seats, not {len(lists)}",
            )
        for seat, held in enumerate(lists):
            if len(held) != count:
                raise IllegalMove(
                    code, f"seat {seat}'s first {what} holds {count} cards, not {len(held)}"
                )
    hands = [sorted(cards.index_of(c) for c in hand) for hand in outcome.hands]
    down = [[cards.index_of(c) for c in held] for held in outcome.facedown]
    deck = [cards.index_of(c) for c in outcome.deck]
    given = Counter([*deck, *(c for h in hands for c in h), *(c for d in down for c in d)])
    want = Counter(build_deck(copies))
    if given != want:
        missing = sorted(cards[c] for c in (want - given).elements())
        extra = sorted(cards[c] for c in (given - want).elements())
        raise IllegalMove(
            "deal_not_the_cards",
            f"the first deal is a permutation of exactly the {sum(want.values())} cards of "
            f"the deck; this one has {sum(given.values())}"
            + (f", lacking {', '.join(missing[:5])}" if missing else "")
            + (f", with more {', '.join(extra[:5])}" if extra else ""),
        )
    return list(outcome.order), deck, hands, down


def deal_first(
    cards: Ids, copies: Sequence[int], players: int, size: int, facedown: int, rng: Random,
    outcome: FirstDeal | None = None,
) -> tuple[list[int], list[int], list[list[int]], list[list[int]]]:  # fmt: skip
    """``(order, deck, hands, facedown)`` of a game's first deal (as :func:`first_deal`):
    ``outcome``'s when a record gives it, else shuffled and dealt from ``rng`` (the deck,
    then the turn order)."""
    if outcome is not None:
        return first_deal(cards, copies, outcome, players, size, facedown)
    deck = build_deck(copies)
    rng.shuffle(deck)
    hands, down = deal(deck, players, size, facedown)
    order = list(range(players))
    rng.shuffle(order)
    return order, deck, hands, down


def first_deal_fields(cards: Ids, started: Any) -> dict[str, Any]:
    """The :class:`FirstDeal` fields that ``started`` (a game's ``Started``) dealt; each
    hand in name order (a hand has no order)."""
    return {
        "order": list(started.order),
        "hands": [sorted(cards[c] for c in hand) for hand in started.hands],
        "facedown": [[cards[c] for c in held] for held in started.facedown],
        "deck": [cards[c] for c in started.deck],
    }


def tiles_on_spaces(
    given: Sequence[str | None], used: Sequence[bool], available: Sequence[str], what: str,
    code: str,
) -> list[str | None]:  # fmt: skip
    """``given``, one tile id per space (null on a space not ``used``), checked: a space in
    play holds one of the ``available`` tiles, none twice. Raises ``IllegalMove`` with
    ``code`` otherwise."""
    if len(given) != len(used):
        raise IllegalMove(
            code, f"a setup names a {what} or null for each of the {len(used)} spaces, "
            f"not {len(given)}",
        )  # fmt: skip
    seen: set[str] = set()
    for space, (tile, in_play) in enumerate(zip(given, used, strict=True)):
        if (tile is not None) != in_play:
            state = "needs a tile" if in_play else "stays empty with this player count"
            raise IllegalMove(code, f"{what} space {space} {state}")
        if tile is None:
            continue
        if tile not in available or tile in seen:
            raise IllegalMove(
                code, f"{tile!r} is no {what} of this game, or comes twice; the tiles: "
                f"{', '.join(sorted(available))}",
            )  # fmt: skip
        seen.add(tile)
    return list(given)
