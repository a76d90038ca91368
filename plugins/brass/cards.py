"""Cards and hands.

A card is identified by its *kind* (an int index into the game's :class:`CardTable`), not
by a serial number: two Birmingham location cards of the same town are interchangeable,
so hands are sorted lists of kinds, which keeps legal-move lists free of duplicates.
The deck is a list whose *last* element is the top card.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal

import msgspec

CardKind = Literal["location", "industry", "wild_location", "wild_industry"]


class CardDef(msgspec.Struct, frozen=True):
    """One kind of card. ``location`` is a location index (location cards only);
    ``industries`` the industry indices an industry card may build (a dual card has two)."""

    name: str
    kind: CardKind
    location: int = -1
    industries: tuple[int, ...] = ()

    @property
    def wild(self) -> bool:
        return self.kind in ("wild_location", "wild_industry")


class CardTable:
    """All card kinds of a game; ``index(name)`` and ``defs[i]`` translate both ways."""

    def __init__(self, defs: Sequence[CardDef]) -> None:
        self.defs = list(defs)
        self._by_name = {d.name: i for i, d in enumerate(self.defs)}
        if len(self._by_name) != len(self.defs):
            raise ValueError("card names must be unique")
        self.wild_location = self._first("wild_location")
        self.wild_industry = self._first("wild_industry")

    def _first(self, kind: str) -> int:
        return next((i for i, d in enumerate(self.defs) if d.kind == kind), -1)

    def index(self, name: str) -> int:
        """The kind index of ``name``; raises ``KeyError`` for an unknown card."""
        return self._by_name[name]

    def name(self, kind: int) -> str:
        return self.defs[kind].name

    def __len__(self) -> int:
        return len(self.defs)


def build_deck(copies: Sequence[int]) -> list[int]:
    """A deck holding ``copies[k]`` cards of each kind ``k`` (unshuffled)."""
    return [kind for kind, n in enumerate(copies) for _ in range(n)]


def without(hand: Sequence[int], cards: Iterable[int]) -> list[int] | None:
    """``hand`` minus the multiset ``cards``, or ``None`` if the hand lacks one of them."""
    rest = list(hand)
    for card in cards:
        try:
            rest.remove(card)
        except ValueError:
            return None
    return rest


def refill(hand: list[int], deck: list[int], size: int) -> list[int]:
    """Draw from the top of ``deck`` until ``hand`` holds ``size`` cards or the deck is
    empty; returns the drawn cards (both lists are changed in place)."""
    k = max(0, min(size - len(hand), len(deck)))
    drawn = deck[len(deck) - k :] if k else []
    if k:
        del deck[len(deck) - k :]
        hand.extend(drawn)
        hand.sort()
    return drawn


def distinct(hand: Sequence[int]) -> list[int]:
    """The different card kinds in ``hand``, ascending (one legal move per kind)."""
    return sorted(set(hand))
