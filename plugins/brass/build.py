"""Rules every Brass game applies when choosing where a tile may be built."""

from __future__ import annotations

from collections.abc import Sequence

from plugins.brass.cards import CardDef


def build_spaces(
    slots: Sequence[int], icons: Sequence[Sequence[int]], empty: Sequence[bool], industry: int
) -> list[int]:
    """The empty spaces among ``slots`` (one location's) where ``industry`` may be built.

    A space showing only that industry's icon must be used while one is empty; only when
    none is may a shared (multi-icon) space take it."""
    single = [s for s in slots if empty[s] and len(icons[s]) == 1 and icons[s][0] == industry]
    if single:
        return single
    return [s for s in slots if empty[s] and industry in icons[s]]


def card_refusal(
    card: CardDef,
    location: int,
    industry: int,
    in_network: bool,
    has_presence: bool,
    nameable: bool,
) -> tuple[str, str] | None:
    """Why ``card`` cannot pay for building ``industry`` at ``location``, or ``None``.

    Location cards name their location and ignore the network; wild location cards name
    any location a card could name (``nameable``: not a farm brewery). Industry cards (and
    wild industry cards) need the location in the builder's network, unless the builder
    has nothing on the board at all. A game with other wilds (Pittsburgh: any card plus a
    whiskey) passes a ``CardDef`` of kind ``wild_location`` / ``wild_industry`` made for
    the occasion."""
    if card.kind == "location":
        if card.location != location:
            return ("card_wrong_location", "a location card builds only in the town it names")
        return None
    if card.kind == "wild_location":
        if not nameable:
            return ("wild_location_unnamed", "a wild location card cannot name this location")
        return None
    if card.kind == "industry" and industry not in card.industries:
        return ("card_wrong_industry", "an industry card builds only the industry it shows")
    if not in_network and has_presence:
        return (
            "not_in_network",
            "an industry card builds only in a location of your network "
            "(anywhere only while you have no tiles on the board)",
        )
    return None
