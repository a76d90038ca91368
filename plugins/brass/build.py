"""Rules every Brass game applies when choosing where a tile may be built."""

from __future__ import annotations

from collections.abc import Sequence

from plugins.brass.cards import CardDef


def build_spaces(
    slots: Sequence[int], icons: Sequence[Sequence[int]], owner: Sequence[int], industry: int
) -> list[int]:
    """The empty spaces (``owner`` ``-1``) among ``slots`` (one location's) where ``industry``
    may be built.

    A space showing only that industry's icon must be used while one is empty; only when
    none is may a shared (multi-icon) space take it."""
    single: list[int] = []
    shared: list[int] = []
    for s in slots:  # one plain loop: listings ask this for many (location, industry) pairs
        if owner[s] < 0 and industry in icons[s]:
            (single if len(icons[s]) == 1 else shared).append(s)
    return single or shared


EVERY_LOCATION, NETWORK_LOCATIONS, NO_LOCATION = -1, -2, -3
"""Where a card builds, besides one location: anywhere, the builder's network, nowhere."""


def card_reach(card: CardDef | None, has_presence: bool, wild: bool = False) -> int:
    """Where ``card`` may build: a location index, or one of :data:`EVERY_LOCATION`,
    :data:`NETWORK_LOCATIONS` (industry cards of a builder with tiles on the board) and
    :data:`NO_LOCATION` (a location card naming no buildable place). ``wild`` treats the
    card as wild (Pittsburgh: any card plus a whiskey; ``card`` may then be ``None``).
    Which industries it builds and which locations a wild location card may name are the
    game's (see :func:`card_refusal`)."""
    if wild or card is None or card.kind == "wild_location":
        return EVERY_LOCATION
    if card.kind == "location":
        return card.location if card.location >= 0 else NO_LOCATION
    return NETWORK_LOCATIONS if has_presence else EVERY_LOCATION


def card_refusal(
    card: CardDef | None,
    location: int,
    industry: int,
    in_network: bool,
    has_presence: bool,
    nameable: bool,
    wild: bool = False,
) -> tuple[str, str] | None:
    """Why ``card`` cannot pay for building ``industry`` at ``location``, or ``None``
    (the same rule as :func:`card_reach`, one build at a time).

    Location cards name their location and ignore the network; wild location cards name
    any location a card could name (``nameable``: Birmingham's farm breweries are not).
    Industry cards (and wild industry cards) need the location in the builder's network,
    unless the builder has nothing on the board at all. ``wild`` (Pittsburgh: the card
    comes with a whiskey; ``card`` may then be ``None``) builds anything anywhere."""
    if wild or card is None:
        return None
    if card.kind == "location":
        if card.location != location:
            return ("card_wrong_location", "a location card builds only in the place it names")
        return None
    if card.kind == "wild_location":
        if not nameable:
            return ("wild_location_unnamed", "a wild location card cannot name this location")
        return None
    if card.kind == "industry" and industry not in card.industries:
        return ("card_wrong_industry", "an industry card builds only the industries it shows")
    if not in_network and has_presence:
        return (
            "not_in_network",
            "an industry card builds only in a location of your network "
            "(anywhere only while you have no tiles on the board)",
        )
    return None
