"""Hidden cards: dealing, what a seat may see of hands and the deck, resampling.

Rule shared by the Brass games: a seat sees its own hand; other hands and the deck only as
counts; the face-down discards never (not even their owner); spectators see no hand.
"""

from __future__ import annotations

from collections.abc import Callable
from random import Random
from typing import Any

from plugins.brass import events as ev
from plugins.brass.state import BrassState


def deal(deck: list[int], players: int, size: int, facedown: int) -> tuple[list, list]:
    """Deal ``size`` cards to each seat, then ``facedown`` face-down discards each, from
    the top of ``deck`` (changed in place). Returns ``(hands, facedown)``."""
    hands, down = [], []
    for _ in range(players):
        hands.append(sorted(deck[len(deck) - size :]))
        del deck[len(deck) - size :]
    for _ in range(players):
        down.append(deck[len(deck) - facedown :] if facedown else [])
        if facedown:
            del deck[len(deck) - facedown :]
    return hands, down


def own_cards(
    cards: list[int], owner: int, seat: int | None, name: Callable[[int], str]
) -> list[str] | None:
    """``cards`` by name when ``seat`` owns them, else ``None``."""
    return [name(c) for c in cards] if seat == owner else None


def dealt(
    deck: list[int],
    hands: list[list[int]],
    facedown: list[list[int]] | None,
    seat: int | None,
    name: Callable[[int], str],
) -> dict[str, Any]:
    """A deal as ``seat`` may read it: the deck and hands (and face-down discards, when
    given) as counts, and the seat's own hand by name (``None`` for a spectator)."""
    out: dict[str, Any] = {"deck_count": len(deck), "hand_counts": [len(h) for h in hands]}
    if facedown is not None:
        out["facedown_counts"] = [len(f) for f in facedown]
    out["hand"] = None if seat is None else own_cards(hands[seat], seat, seat, name)
    return out


def redact_core(event: Any, seat: int | None, name: Callable[[int], str]) -> dict | None:
    """The redacted form of a shared event carrying secret cards, or ``None``.

    Drawn cards are shown sorted by name: they come in deck order, which no seat may
    learn."""
    if isinstance(event, ev.Drew):
        cards = own_cards(event.cards, event.seat, seat, name)
        return {"seat": event.seat, "count": len(event.cards),
                "cards": sorted(cards) if cards else cards}  # fmt: skip
    if isinstance(event, ev.EraBegan):
        return {"era": event.era, **dealt(event.deck, event.hands, None, seat, name)}
    return None


def resample_cards(s: BrassState, seat: int, rng: Random) -> None:
    """Redraw, in place, every card ``seat`` cannot see: the deck, other hands and all
    face-down discards, keeping every count."""
    unseen = list(s.deck)
    for i in range(s.players):
        unseen += s.facedown[i]
        if i != seat:
            unseen += s.hands[i]
    rng.shuffle(unseen)
    for i in range(s.players):
        k = len(s.facedown[i])
        s.facedown[i], unseen = unseen[:k], unseen[k:]
        if i != seat:
            k = len(s.hands[i])
            s.hands[i], unseen = sorted(unseen[:k]), unseen[k:]
    s.deck = unseen
