"""Every installed game (and the highcard test game) through the conformance suite, plus
proof that each check catches the defect it is there for."""

from __future__ import annotations

import copy
import random
from random import Random
from typing import Any

import msgspec
import pytest
from conformance import (
    CHECKS,
    Params,
    check_decided_events_evolve,
    check_hidden_information_stays_hidden,
    check_listed_moves_accepted,
    check_log_independent_of_hash_seed,
    check_playouts_reach_the_end,
    check_positions_round_trip,
    check_redact_leaks_nothing_a_view_hides,
    check_replay_gives_the_live_state,
    check_same_seed_same_log,
    check_search_hooks_see_only_the_view,
    check_unlisted_moves_refused,
    params_for,
)
from conftest import install_highcard, installed_game_ids

from core.game import SYSTEM, Result
from core.registry import GameRegistry


@pytest.mark.parametrize("check", CHECKS, ids=lambda check: check.__name__.removeprefix("check_"))
@pytest.mark.parametrize("game_id", installed_game_ids())
def test_game_conforms(registry: GameRegistry, game_id: str, check: Any) -> None:
    game = registry.get(game_id)
    check(game, params_for(game))


def test_conformance_parameters_come_from_game_metadata(registry: GameRegistry) -> None:
    game = copy.copy(registry.get("highcard"))
    game.metadata = {"conformance": {"players": [3], "playouts": 1, "max_moves": 50}}
    assert params_for(game) == Params(players=[3], playouts=1, max_moves=50)
    game.metadata = {"conformance": {"playout": 1}}
    with pytest.raises(AssertionError, match="bad metadata"):
        params_for(game)


# --- the suite catches broken games ---------------------------------------------------------
# Each fixture game below is High Card with exactly one defect.

FAST = Params(players=[2, 3], playouts=1)


@pytest.fixture
def highcard(registry: GameRegistry) -> Any:
    return type(registry.get("highcard"))


def _broken(base: type, **methods: Any) -> Any:
    return type(f"Broken{base.__name__}", (base,), methods)()


def test_suite_reports_a_game_not_over_within_the_move_cap(highcard: type) -> None:
    game = _broken(highcard)
    with pytest.raises(AssertionError, match="no result after 3 decisions"):
        check_playouts_reach_the_end(game, Params(players=[2], playouts=1, max_moves=3))


def test_suite_catches_a_dense_ranking_after_ties(highcard: type) -> None:
    def result(self: Any, state: Any) -> Result | None:
        if self.pending_tasks(state):
            return None
        dense = [1 + len({w for w in state.wins if w > mine}) for mine in state.wins]
        return Result(scores=state.wins, ranking=dense)

    game = _broken(highcard, result=result)
    params = Params(players=[4], playouts=6, options={"rounds": 2})
    with pytest.raises(AssertionError, match="ranking"):
        check_playouts_reach_the_end(game, params)


def test_suite_catches_legal_moves_out_of_turn(highcard: type) -> None:
    def legal_moves(self: Any, state: Any, seat: int) -> list[Any]:
        from highcard.game import Play

        return [Play(c) for c in sorted(state.hands[seat])]

    game = _broken(highcard, legal_moves=legal_moves)
    with pytest.raises(AssertionError, match="legal moves but no turn task"):
        check_playouts_reach_the_end(game, FAST)


def test_suite_catches_evolve_keeping_references_into_events(highcard: type) -> None:
    def evolve(self: Any, state: Any, event: Any) -> Any:
        state = highcard.evolve(self, state, event)
        if type(event).__name__ == "Dealt":
            state.hands = event.hands  # later plays then edit the logged event
        return state

    game = _broken(highcard, evolve=evolve)
    with pytest.raises(AssertionError, match=r"another state|raised"):
        check_replay_gives_the_live_state(game, FAST)


def test_suite_catches_decide_changing_its_state(highcard: type) -> None:
    def decide(self: Any, state: Any, actor: int, move: Any, rng: Random) -> list[Any]:
        events = highcard.decide(self, state, actor, move, rng)
        state.table = list(state.table)
        state.table[0] = -7
        return events

    game = _broken(highcard, decide=decide)
    with pytest.raises(AssertionError, match="changed the state"):
        check_listed_moves_accepted(game, FAST)


def test_suite_catches_an_unlisted_move_accepted(highcard: type) -> None:
    def decide(self: Any, state: Any, actor: int, move: Any, rng: Random) -> list[Any]:
        if getattr(move, "card", None) is not None and actor == state.to_act:
            state = copy.deepcopy(state)
            state.hands[actor].append(move.card)  # "any card will do"
        return highcard.decide(self, state, actor, move, rng)

    game = _broken(highcard, decide=decide)
    with pytest.raises(AssertionError, match="accepted unlisted move"):
        check_unlisted_moves_refused(game, FAST)


def test_suite_catches_an_accepted_move_without_events(highcard: type) -> None:
    def decide(self: Any, state: Any, actor: int, move: Any, rng: Random) -> list[Any]:
        if actor >= 0 and move.card != max(state.hands[actor]):
            return []  # "nothing happens" for any card but the highest
        return highcard.decide(self, state, actor, move, rng)

    game = _broken(highcard, decide=decide)
    with pytest.raises(AssertionError, match="returned no events"):
        check_decided_events_evolve(game, FAST)


def test_suite_catches_a_decide_evolved_state_that_is_not_its_events_fold(
    highcard: type,
) -> None:
    def decide_evolved(
        self: Any, state: Any, actor: int, move: Any, rng: Random
    ) -> tuple[list[Any], Any]:
        events = highcard.decide(self, state, actor, move, rng)
        after = copy.deepcopy(state)
        for event in events:
            after = self.evolve(after, event)
        after.wins = [0] * len(after.wins)  # "the rounds won are counted later"
        return events, after

    game = _broken(highcard, decide_evolved=decide_evolved)
    with pytest.raises(AssertionError, match="decide_evolved's state differs"):
        check_decided_events_evolve(game, FAST)


def test_suite_catches_a_decide_evolved_that_changes_the_state_given(highcard: type) -> None:
    def decide_evolved(
        self: Any, state: Any, actor: int, move: Any, rng: Random
    ) -> tuple[list[Any], Any]:
        events = highcard.decide(self, state, actor, move, rng)
        for event in events:
            state = self.evolve(state, event)  # "no need for a copy"
        return events, copy.deepcopy(state)

    game = _broken(highcard, decide_evolved=decide_evolved)
    with pytest.raises(AssertionError, match="decide_evolved changed the state given"):
        check_decided_events_evolve(game, FAST)


def test_suite_catches_an_event_of_a_foreign_type(highcard: type) -> None:
    def decide(self: Any, state: Any, actor: int, move: Any, rng: Random) -> list[Any]:
        return [*highcard.decide(self, state, actor, move, rng), {"note": "not an Event"}]

    game = _broken(highcard, decide=decide)
    with pytest.raises(AssertionError, match="not one of the game's Event types"):
        check_decided_events_evolve(game, FAST)


def test_suite_catches_a_second_deal_from_a_late_system_job(highcard: type) -> None:
    def decide(self: Any, state: Any, actor: int, move: Any, rng: Random) -> list[Any]:
        if actor == SYSTEM and state.round < state.rounds:
            state = copy.deepcopy(state)
            state.to_act, state.hands = None, [[]]  # "dealing is always fine"
        return highcard.decide(self, state, actor, move, rng)

    game = _broken(highcard, decide=decide)
    with pytest.raises(AssertionError, match="actor -1: decide accepted unlisted move Deal"):
        check_unlisted_moves_refused(game, FAST)


def test_suite_catches_a_crash_instead_of_illegal_move(highcard: type) -> None:
    def decide(self: Any, state: Any, actor: int, move: Any, rng: Random) -> list[Any]:
        if actor >= 0 and actor != state.to_act:
            raise KeyError(actor)
        return highcard.decide(self, state, actor, move, rng)

    game = _broken(highcard, decide=decide)
    with pytest.raises(AssertionError, match="raised KeyError"):
        check_unlisted_moves_refused(game, FAST)


def test_suite_catches_a_view_showing_other_hands(highcard: type) -> None:
    def view(self: Any, state: Any, seat: int | None) -> dict[str, Any]:
        return {**highcard.view(self, state, seat), "hands": state.hands}

    game = _broken(highcard, view=view)
    with pytest.raises(AssertionError, match="may not see"):
        check_hidden_information_stays_hidden(game, FAST)


def test_suite_catches_a_resample_that_redraws_nothing(highcard: type) -> None:
    game = _broken(highcard, sample_hidden=lambda self, state, seat, rng: copy.deepcopy(state))
    with pytest.raises(AssertionError, match="never redrew"):
        check_hidden_information_stays_hidden(game, FAST)


def test_suite_catches_a_determinization_that_loses_the_seats_view(highcard: type) -> None:
    def determinize(self: Any, view: dict[str, Any], rng: Random) -> Any:
        state = highcard.determinize(self, view, rng)
        state.wins = [0] * state.players
        return state

    game = _broken(highcard, determinize=determinize)
    with pytest.raises(AssertionError, match="view of its determinization differs"):
        check_search_hooks_see_only_the_view(game, FAST)


def test_suite_catches_a_determinization_that_peeks_at_the_real_state(highcard: type) -> None:
    peeked: dict[str, Any] = {}

    def view(self: Any, state: Any, seat: int | None) -> dict[str, Any]:
        peeked["state"] = state  # a back channel: the last state any view was made of
        return highcard.view(self, state, seat)

    def determinize(self: Any, view: dict[str, Any], rng: Random) -> Any:
        return copy.deepcopy(peeked["state"])

    game = _broken(highcard, view=view, determinize=determinize)
    with pytest.raises(AssertionError, match="depends on hidden parts"):
        check_search_hooks_see_only_the_view(game, FAST)


def test_suite_catches_a_clone_that_shares_the_state(highcard: type) -> None:
    game = _broken(highcard, clone=lambda self, state: copy.copy(state))
    with pytest.raises(AssertionError, match="playing a clone changed it"):
        check_search_hooks_see_only_the_view(game, FAST)


def test_suite_catches_a_redaction_showing_other_hands(highcard: type) -> None:
    def redact(self: Any, event: Any, seat: int | None) -> dict[str, Any]:
        if type(event).__name__ == "Dealt":
            return msgspec.to_builtins(event)
        return highcard.redact(self, event, seat)

    game = _broken(highcard, redact=redact)
    with pytest.raises(AssertionError, match="redacted"):
        check_redact_leaks_nothing_a_view_hides(game, FAST)


def test_suite_catches_a_redaction_showing_the_deck(highcard: type) -> None:
    def redact(self: Any, event: Any, seat: int | None) -> dict[str, Any]:
        if type(event).__name__ == "Started":
            return msgspec.to_builtins(event)
        return highcard.redact(self, event, seat)

    game = _broken(highcard, redact=redact)
    with pytest.raises(AssertionError, match="twin"):
        check_redact_leaks_nothing_a_view_hides(game, FAST)


def test_suite_catches_load_position_crashing_on_bad_documents(highcard: type) -> None:
    def load_position(self: Any, doc: dict[str, Any]) -> Any:
        state = copy.deepcopy(highcard.load_position(self, {**doc, "deck": []}))
        state.deck = list(doc["deck"])
        return state

    game = _broken(highcard, load_position=load_position)
    with pytest.raises(AssertionError, match=r"instead of InvalidPosition|accepted it"):
        check_positions_round_trip(game, FAST)


def test_suite_catches_a_position_that_loads_differently(highcard: type) -> None:
    def load_position(self: Any, doc: dict[str, Any]) -> Any:
        state = highcard.load_position(self, doc)
        state.leader = (state.leader + 1) % state.players
        return state

    game = _broken(highcard, load_position=load_position)
    with pytest.raises(AssertionError, match="differs from doc"):
        check_positions_round_trip(game, FAST)


def test_suite_catches_setup_using_the_global_random(highcard: type) -> None:
    def setup(self: Any, options: Any, players: int, rng: Random) -> list[Any]:
        return highcard.setup(self, options, players, random.Random())

    game = _broken(highcard, setup=setup)
    with pytest.raises(AssertionError, match="another event log"):
        check_same_seed_same_log(game, FAST)


class HashOrderedHighCard:
    """High Card dealing in an order that depends on ``PYTHONHASHSEED``; importable by the
    hash-seed check's subprocess (see the test below)."""

    def __new__(cls) -> Any:
        from highcard.game import HighCard

        def setup(self: Any, options: Any, players: int, rng: Random) -> list[Any]:
            events = HighCard.setup(self, options, players, rng)
            events[0].deck.sort(key=lambda card: hash(str(card)))
            return events

        return _broken(HighCard, setup=setup)


def test_suite_catches_a_log_depending_on_the_hash_seed() -> None:
    install_highcard()
    game = HashOrderedHighCard()
    type(game).__module__, type(game).__qualname__ = __name__, "HashOrderedHighCard"
    with pytest.raises(AssertionError, match="PYTHONHASHSEED"):
        check_log_independent_of_hash_seed(game, Params(players=[2], playouts=1))
