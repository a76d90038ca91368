"""Hidden information: own hand only, others and the deck as counts, face-down never."""

from __future__ import annotations

from random import Random

from bb_helpers import GAME, D, act, card, load

from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham import moves as mv


def started():  # type: ignore[no-untyped-def]
    events = GAME.setup(GAME.Options(), 3, Random(5))
    state = None
    for e in events:
        state = GAME.evolve(state, e)
    return events, state


def test_view_shows_own_hand_others_as_counts_deck_as_a_count() -> None:
    _, s = started()
    view = GAME.view(s, 1)
    assert view["hand"] == [D.cards.name(c) for c in s.hands[1]]
    assert [seat["hand_count"] for seat in view["players"]] == [8, 8, 8]
    assert "deck" not in view and view["deck_count"] == len(s.deck)
    assert all("hand" not in seat and "facedown" not in seat for seat in view["players"])


def test_spectator_sees_no_hand() -> None:
    _, s = started()
    assert GAME.view(s, None)["hand"] is None


def test_no_view_reveals_a_face_down_discard() -> None:
    _, s = started()
    other = GAME.sample_hidden(s, 0, Random(9))
    assert other.facedown != s.facedown or other.deck != s.deck
    assert GAME.view(other, 0) == GAME.view(s, 0)
    assert GAME.view(other, None) == GAME.view(s, None)


def test_wild_cards_stay_with_their_holder_when_hidden_cards_are_redrawn() -> None:
    # everyone saw seat 1 scout: its wild cards are no secret, the rest of its hand is
    s = load(hands={0: ["coventry"], 1: ["wild:location", "wild:industry", "dudley", "coal"]})
    wild = sorted((D.cards.wild_location, D.cards.wild_industry))
    for seed in range(5):
        other = GAME.sample_hidden(s, 0, Random(seed))
        assert [c for c in other.hands[1] if c in wild] == wild
        assert len(other.hands[1]) == 4 and not set(wild) & set(other.deck)
        assert GAME.view(other, 0) == GAME.view(s, 0)
    assert GAME.view(s, 0)["players"][1]["wild_cards"] == {"location": 1, "industry": 1}


def test_setup_event_redacted_to_the_seats_own_hand() -> None:
    events, s = started()
    doc = GAME.redact(events[0], 2)
    assert doc["hand"] == [D.cards.name(c) for c in s.hands[2]]
    assert doc["hand_counts"] == [8, 8, 8] and "deck" not in doc and "facedown" not in doc
    assert GAME.redact(events[0], None)["hand"] is None


def test_drawn_cards_are_shown_only_to_the_drawer() -> None:
    s = load(hands={0: ["coventry"], 1: ["dudley", "dudley"]})
    s, events = act(s, 0, mv.Pass())
    drew = next(e for e in events if isinstance(e, ev.Drew))
    assert GAME.redact(drew, 0)["cards"] is not None
    assert GAME.redact(drew, 1)["cards"] is None and GAME.redact(drew, 1)["count"] == 8
    assert GAME.redact(drew, None)["cards"] is None


def test_drawn_cards_never_reveal_the_order_they_were_drawn_in() -> None:
    # the draw order is the deck's order: the drawer sees the cards, sorted
    drawn = [card("walsall"), card("birmingham"), card("iron")]
    first = GAME.redact(ev.Drew(0, drawn), 0)["cards"]
    assert first == sorted(first) == sorted(D.cards.name(c) for c in drawn)
    assert GAME.redact(ev.Drew(0, drawn[::-1]), 0)["cards"] == first
