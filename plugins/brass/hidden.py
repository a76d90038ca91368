"""Hidden cards: dealing, what a seat may see of hands and the deck, resampling.

Rule shared by the Brass games: a seat sees its own hand; other hands and the deck only as
counts; the face-down discards never (not even their owner); spectators see no hand. A
search bot's determinization deals what a seat cannot see from what it can
(:func:`unseen_cards`, :func:`deal_unseen`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
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


def unseen_cards(copies: Sequence[int], seen: Iterable[int]) -> list[int]:
    """The cards of a deck holding ``copies[k]`` of each kind ``k`` that are not among
    ``seen`` (a multiset), in kind order. ``ValueError`` if ``seen`` holds a card the deck
    has too few of: what a seat sees cannot come from that deck."""
    left = list(copies)
    for card in seen:
        left[card] -= 1
        if left[card] < 0:
            raise ValueError(f"card kind {card} is seen more often than the deck holds it")
    return [kind for kind, n in enumerate(left) for _ in range(n)]


def deal_unseen(
    unseen: list[int],
    seat: int,
    hand_counts: Sequence[int],
    facedown_counts: Sequence[int],
    deck_count: int,
    rng: Random,
) -> tuple[list[list[int]], list[list[int]], list[int]]:
    """Shuffle ``unseen`` (in place) and deal it as a seat that cannot see it: each seat's
    face-down discards, every other seat's hand and the deck, of the counts given.
    Returns ``(hands, facedown, deck)``; ``hands[seat]`` is empty (the seat's own hand is
    known). ``ValueError`` if the counts do not add up to ``len(unseen)``."""
    wanted = deck_count + sum(facedown_counts)
    wanted += sum(k for i, k in enumerate(hand_counts) if i != seat)
    if wanted != len(unseen):
        raise ValueError(f"{wanted} hidden cards to deal but {len(unseen)} unseen")
    rng.shuffle(unseen)
    hands: list[list[int]] = []
    down: list[list[int]] = []
    top = 0
    for i, k in enumerate(facedown_counts):
        down.append(unseen[top : top + k])
        top += k
        k = hand_counts[i] if i != seat else 0
        hands.append(sorted(unseen[top : top + k]))
        top += k
    return hands, down, unseen[top:]


def deal_from_view(
    view: dict[str, Any], copies: Sequence[int], index: Callable[[str], int], rng: Random,
    public: Sequence[list[int]] = (),
) -> tuple[list[list[int]], list[list[int]], list[int]]:  # fmt: skip
    """What a seat's ``view`` cannot see, dealt with ``rng`` (:func:`deal_unseen`) from the
    cards of the deck (``copies`` per kind) it does not account for: ``(hands, facedown,
    deck)``, the seat's own hand as the view shows it. ``public`` gives per seat the cards
    of its hand everyone knows and that are no deck cards (Birmingham's wild cards): they
    stay in that hand. ``ValueError`` for a spectator's view."""
    if view["seat"] is None:
        raise ValueError("determinize needs a seat's view, not a spectator's")
    seat, players = view["seat"], view["players"]
    public = public or [[] for _ in players]
    own = [index(c) for c in view["hand"]]
    seen = [c for c in own if c not in public[seat]]
    seen += [index(c) for p in players for c in p["discards"]]
    hands, facedown, deck = deal_unseen(
        unseen_cards(copies, seen), seat,
        [p["hand_count"] - len(w) for p, w in zip(players, public, strict=True)],
        [p["facedown_count"] for p in players], view["deck_count"], rng)  # fmt: skip
    hands = [h + w for h, w in zip(hands, public, strict=True)]
    hands[seat] = own
    return hands, facedown, deck


def turn_from_view(view: dict[str, Any]) -> tuple[int, int]:
    """A position's ``turn`` and ``deciding`` seat as ``view`` shows them: no seat's turn in
    play is a round's end waiting for a seat's decision."""
    turn_seat, order, playing = view["turn_seat"], view["order"], view["phase"] == "play"
    turn = order.index(turn_seat) if turn_seat is not None else len(order) * playing
    return turn, view["decision"]["seat"] if playing and turn_seat is None else -1


def resample_cards(s: BrassState, seat: int, rng: Random, public: Sequence[int] = ()) -> None:
    """Redraw, in place, every card ``seat`` cannot see: the deck, other hands and all
    face-down discards, keeping every count. Cards of the ``public`` kinds stay in the hand
    that holds them (Birmingham's wild cards: everyone sees them taken and given back)."""
    unseen = list(s.deck)
    kept: list[list[int]] = []
    for i in range(s.players):
        unseen += s.facedown[i]
        kept.append([c for c in s.hands[i] if c in public])
        if i != seat:
            unseen += [c for c in s.hands[i] if c not in public]
    counts = [len(h) - len(k) for h, k in zip(s.hands, kept, strict=True)]
    hands, s.facedown, s.deck = deal_unseen(
        unseen, seat, counts, [len(f) for f in s.facedown], len(s.deck), rng
    )
    for i in range(s.players):
        if i != seat:
            s.hands[i] = sorted(hands[i] + kept[i])
