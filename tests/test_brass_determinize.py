"""Determinization in both Brass games: ``determinize(view, rng)`` rebuilds a full state
from one seat's view, drawing what the seat cannot see from what the view leaves possible.

States come from seeded random playouts at every decision point (mid-action decisions,
round-end decisions, era scoring, the last round and the game's end among them; a test
checks the sample holds each), for every player count.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from functools import cache
from random import Random
from typing import Any

import pytest

from core.game import SYSTEM
from core.playout import playout
from plugins.brass.state import BrassState
from plugins.brass_birmingham.game import BrassBirmingham
from plugins.brass_pittsburgh.game import BrassPittsburgh

GAMES = {g.id: g for g in (BrassBirmingham(), BrassPittsburgh())}
CASES = [(gid, n) for gid in GAMES for n in (2, 3, 4)]
PROBES = 12
"""States per playout for the slower properties (spread over the whole game)."""


@cache
def sampled(game_id: str, players: int) -> list[Any]:
    """Every state of one seeded random playout, from the deal to the game's end."""
    game = GAMES[game_id]
    start = None
    for event in game.setup(game.Options(), players, Random(players)):
        start = game.evolve(start, event)
    states = [start]
    keep = lambda s: states.append(s.clone())  # noqa: E731
    playout(game, game.Options(), players, Random(players), observe=keep)
    return states


KINDS: dict[str, Callable[[Any], bool]] = {
    "mid_action": lambda s: bool(s.pending) and s.deciding < 0,
    "round_end_decision": lambda s: s.deciding >= 0,
    "era_scoring": lambda s: s.phase == "scoring",
    "second_era_start": lambda s: s.era == 1 and s.round == 1 and s.turn == 0,
    "last_round": lambda s: s.phase == "play" and not s.deck and any(s.hands),
    "game_over": lambda s: s.phase == "over",
}
"""The kinds of decision point the sample must hold."""


def probes(game_id: str, players: int) -> list[Any]:
    """A spread of states plus the first of each kind of :data:`KINDS`."""
    states = sampled(game_id, players)
    spread = states[:: max(1, len(states) // PROBES)]
    firsts = [next((s for s in states if pred(s)), None) for pred in KINDS.values()]
    return spread + [s for s in firsts if s is not None]


def seats_views(game: Any, state: Any) -> list[tuple[int, dict[str, Any]]]:
    return [(seat, game.view(state, seat)) for seat in range(state.players)]


def unseen(game: Any, s: BrassState, seat: int) -> Counter[int]:
    """The cards ``seat`` cannot see: the deck, every face-down discard, other hands (but
    Birmingham's wild cards, which everyone sees taken)."""
    public = game.data.turn_rules.wild_cards if isinstance(game, BrassBirmingham) else ()
    out = Counter(s.deck)
    for i in range(s.players):
        out.update(s.facedown[i])
        if i != seat:
            out.update(c for c in s.hands[i] if c not in public)
    return out


def public_part(game_id: str, doc: dict[str, Any], seat: int, real: Any) -> dict[str, Any]:
    """A position document without what ``seat`` cannot see (kept: its hand, wild cards)."""
    game = GAMES[game_id]
    if game_id == "brass-birmingham":
        wild = {game.data.cards.name(k) for k in game.data.turn_rules.wild_cards}
        for i, entry in enumerate(doc["seats"]):
            entry["facedown"] = len(entry["facedown"])
            if i != seat:
                entry["hand"] = sorted(c for c in entry["hand"] if c in wild)
    else:
        st = doc["state"]
        st["hands"] = [h if i == seat else len(h) for i, h in enumerate(st["hands"])]
        st["facedown"] = [len(f) for f in st["facedown"]]
        # a supply has no order; the view lists it sorted
        st["link_supply"] = [sorted(x) for x in st["link_supply"]]
        st["oilfield_tile"] = [
            t if revealed or not t else "?"
            for t, revealed in zip(st["oilfield_tile"], real.oilfield_revealed, strict=True)
        ]
        doc = st
    doc["deck"] = len(doc["deck"])
    return doc


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_sample_holds_every_kind_of_decision_point(game_id: str, players: int) -> None:
    states = sampled(game_id, players)
    missing = {name for name, pred in KINDS.items() if not any(map(pred, states))}
    # Pittsburgh's round end never stops for a decision (no shortfall choice)
    assert missing <= ({"round_end_decision"} if game_id == "brass-pittsburgh" else set())


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_seat_sees_exactly_its_view_in_the_determinization(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    for k, state in enumerate(sampled(game_id, players)):
        for seat, view in seats_views(game, state):
            assert game.view(game.determinize(view, Random(k)), seat) == view, (k, seat)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_the_seat_has_the_real_legal_moves_in_the_determinization(
    game_id: str, players: int
) -> None:
    game = GAMES[game_id]
    for k, state in enumerate(sampled(game_id, players)):
        for seat, view in seats_views(game, state):
            det = game.determinize(view, Random(k))
            assert game.legal_moves(det, seat) == game.legal_moves(state, seat), (k, seat)
            assert game.pending_tasks(det) == game.pending_tasks(state), (k, seat)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_everything_public_is_the_real_states(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    for k, state in enumerate(probes(game_id, players)):
        for seat, view in seats_views(game, state):
            det = game.export_position(game.determinize(view, Random(k)))
            real = game.export_position(state)
            assert public_part(game_id, det, seat, state) == public_part(
                game_id, real, seat, state
            ), (k, seat)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_a_determinization_reads_nothing_but_the_view(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    for k, state in enumerate(probes(game_id, players)):
        for seat, view in seats_views(game, state):
            twin = game.sample_hidden(state, seat, Random(100 + k))
            assert game.view(twin, seat) == view
            one = game.export_position(game.determinize(view, Random(k)))
            other = game.export_position(game.determinize(game.view(twin, seat), Random(k)))
            assert one == other, (k, seat)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_hidden_cards_are_dealt_from_exactly_the_unseen_cards(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    for k, state in enumerate(probes(game_id, players)):
        for seat, view in seats_views(game, state):
            det = game.determinize(view, Random(k))
            assert unseen(game, det, seat) == unseen(game, state, seat), (k, seat)


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_other_hands_differ_from_one_draw_to_the_next(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    states = sampled(game_id, players)
    state = states[len(states) // 4]  # mid-era: full hands, a deck of many kinds
    assert len(set(unseen(game, state, 0))) > 3
    view = game.view(state, 0)
    dealt = {
        tuple(tuple(h) for h in game.determinize(view, Random(seed)).hands[1:]) for seed in range(5)
    }
    assert len(dealt) > 1


def test_face_down_oilfield_tiles_are_drawn_from_the_unrevealed_tiles() -> None:
    game = GAMES["brass-pittsburgh"]
    state = sampled("brass-pittsburgh", 4)[0]
    hidden = [f for f, t in enumerate(state.oilfield_tile) if t and not state.oilfield_revealed[f]]
    assert len(hidden) > 1
    pool = sorted(state.oilfield_tile[f] for f in hidden)  # every tile is placed at 4 players
    placements = set()
    for seed in range(8):
        det = game.determinize(game.view(state, 0), Random(seed))
        tiles = [det.oilfield_tile[f] for f in hidden]
        assert sorted(tiles) == pool
        placements.add(tuple(tiles))
    assert len(placements) > 1


def play_to_end(game: Any, state: Any, rng: Random, limit: int = 5000) -> Any:
    """Random moves (system tasks as SYSTEM) from ``state`` until no task is left."""
    for _ in range(limit):
        tasks = game.pending_tasks(state)
        if not tasks:
            return state
        task = tasks[0]
        if task.kind == "system":
            events = game.decide(state, SYSTEM, task.move, rng)
        else:
            legal = game.legal_moves(state, task.seat)
            events = game.decide(state, task.seat, legal[rng.randrange(len(legal))], rng)
        for event in events:
            state = game.evolve(state, event)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_a_determinization_plays_on_to_the_end(game_id: str, players: int) -> None:
    game = GAMES[game_id]
    states = probes(game_id, players)
    for k, state in enumerate(states[:: max(1, len(states) // 4)]):
        det = game.determinize(game.view(state, k % players), Random(k))
        assert game.result(play_to_end(game, det, Random(k))) is not None


@pytest.mark.parametrize("game_id", GAMES)
def test_a_spectators_view_is_refused(game_id: str) -> None:
    game = GAMES[game_id]
    with pytest.raises(ValueError, match="spectator"):
        game.determinize(game.view(sampled(game_id, 2)[0], None), Random(0))
