"""Lancashire's turn, round and era rules (reference ``rules.turn``, ``rules.end_of_round``,
``rules.loan``, ``scoring`` and ``setup``), one test each, named after the rule: what the
family engine does with Lancashire's numbers."""

from __future__ import annotations

from random import Random

import pytest
from bl_helpers import GAME, act, load, slot, tags, tile

from core.game import SYSTEM
from plugins.brass import events as fev
from plugins.brass.moves import ScoreEra
from plugins.brass_lancashire import moves as mv


def _pass(s, seat: int, card: str):  # type: ignore[no-untyped-def]
    """The seat passes, discarding ``card`` (asked only when the hand has a choice)."""
    s, events = act(s, seat, mv.Pass())
    if s.pending and s.pending[0].kind == "discard":
        s, more = act(s, seat, mv.Discard(card))
        events += more
    return s, events


def _started(players: int):  # type: ignore[no-untyped-def]
    s = None
    for e in GAME.setup(GAME.Options(), players, Random(players)):
        s = GAME.evolve(s, e)
    return s


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_eight_cards_and_puts_one_card_per_player_under_the_deck_tile(
    players: int,
) -> None:
    s = _started(players)
    assert [len(h) for h in s.hands] == [8] * players
    # the Deck tile's cards are the family's face-down cards: never drawn in the Canal Era
    assert sum(len(c) for c in s.facedown) == players
    assert len(s.deck) == sum(GAME.data.deck_copies[players]) - 9 * players
    assert s.income == [10] * players and s.vp == [0] * players


def test_first_round_of_the_canal_era_gives_one_action_then_two() -> None:
    s = _started(4)
    assert s.round == 1 and s.actions_left == 1
    seat = s.order[0]
    s, events = _pass(s, seat, GAME.names.card[s.hands[seat][0]])
    assert "drew" in tags(events) and s.current == s.order[1]
    assert len(s.hands[seat]) == 8  # refilled to eight after the one-action turn


def _round_end(spent: list[int], money: list[int], income: list[int], vp: int = 0, **doc):  # type: ignore[no-untyped-def]
    """Four seats in order 0-3, seat 3 (with ``vp``) about to take its round's last action."""
    last = doc.pop("last", False)
    s = load(hands={3: ["wigan"]}, money=money, income=income, turn=3, actions_left=1, **doc)
    if last:  # the game's last turn: every other card is played
        s.discards[0], s.deck = s.deck, []
    s.spent[:] = spent
    s.vp[3] = vp
    return _pass(s, 3, "location:wigan")


def test_turn_order_is_least_money_spent_first_ties_keep_their_order() -> None:
    _s, events = _round_end(spent=[9, 3, 9, 0], money=[30] * 4, income=[10] * 4)
    ended = next(e for e in events if type(e) is fev.RoundEnded)
    assert ended.order == [3, 1, 0, 2]


def test_income_is_collected_or_paid_at_each_rounds_end() -> None:
    # spaces 10, 13 and 8: levels 0, +2 and -2
    s, events = _round_end(spent=[0] * 4, money=[30] * 4, income=[10, 13, 8, 10])
    assert next(e for e in events if type(e) is fev.RoundEnded).income == [0, 2, -2, 0]
    assert s.money == [30, 32, 28, 30]


def test_income_is_collected_after_the_canal_eras_last_round() -> None:
    rounds = GAME.data.rules.rounds_per_era["4"]
    s, events = _round_end(spent=[0] * 4, money=[30] * 4, income=[10, 13, 8, 10],
                           round=rounds, last=True)  # fmt: skip
    assert next(e for e in events if type(e) is fev.RoundEnded).income == [0, 2, -2, 0]
    assert s.phase == "scoring"


def test_no_income_after_the_games_last_round() -> None:
    rounds = GAME.data.rules.rounds_per_era["4"]
    s, events = _round_end(spent=[0] * 4, money=[30] * 4, income=[10, 13, 8, 10],
                           era="rail", round=rounds, last=True)  # fmt: skip
    assert next(e for e in events if type(e) is fev.RoundEnded).income == [0] * 4
    assert s.phase == "scoring"


def test_income_shortfall_sells_own_tiles_for_half_their_cost_then_costs_vp() -> None:
    # seat 3 owes £3 (level -3) with £0: its only tile, a cotton mill II (£14), goes for £7
    mill = {"space": "bolton:0", "owner": 3, "industry": "cotton", "level": 2}
    s, events = _round_end(spent=[0] * 4, money=[30, 30, 30, 0], income=[10, 10, 10, 7],
                           tiles=[mill])  # fmt: skip
    assert fev.Liquidated(3, slot("bolton:0"), 7) in events
    assert s.money[3] == 7 - 3 and s.slot_owner[slot("bolton:0")] == -1
    # with no tile left to sell, each unpaid £1 costs 1 VP
    s, events = _round_end(spent=[0] * 4, money=[30, 30, 30, 1], income=[10, 10, 10, 7],
                           vp=5)  # fmt: skip
    ended = next(e for e in events if type(e) is fev.RoundEnded)
    assert ended.income[3] == -1 and ended.vp_lost[3] == 2
    assert s.money[3] == 0 and s.vp[3] == 3


def test_loan_may_not_take_income_below_level_minus_ten() -> None:
    s = load(hands={0: ["wigan"] * 2}, income=[2, 10, 10, 10])  # level -8
    assert {m.amount for m in GAME.legal_moves(s, 0) if type(m) is mv.Loan} == {10, 20}
    assert GAME.data.income.level(0) == -10


def test_the_canal_eras_end_reshuffles_every_card_and_deals_eight_each() -> None:
    cards = sorted(GAME.names.card[k] for k, c in enumerate(GAME.data.deck_copies[4])
                   for _ in range(c))  # fmt: skip
    seats = [{"money": 30, "income_space": 10, "discards": cards[i::4][:-1],
              "facedown": cards[i::4][-1:]} for i in range(4)]  # fmt: skip
    s = GAME.load_position({"players": 4, "order": [0, 1, 2, 3], "era": "canal",
                            "phase": "scoring", "round": 9, "seats": seats, "deck": [],
                            "markets": {"coal": 8, "iron": 8}})  # fmt: skip
    s, events = act(s, SYSTEM, ScoreEra())
    assert "era_began" in tags(events) and s.era == 1 and s.round == 1
    assert [len(h) for h in s.hands] == [8] * 4 and not any(s.facedown)
    # the Rail Era draws the whole deck, the Deck tile's cards included: 64 - 32
    assert len(s.deck) == sum(GAME.data.deck_copies[4]) - 32
    assert s.actions_left == 2  # the one-action round is the Canal Era's first only


def test_hand_refill_stops_when_the_deck_runs_out() -> None:
    s = load(hands={0: ["wigan", "bolton"]}, actions_left=1)
    # one card left to draw: every other is in seat 1's discards
    bury = GAME.names.card.index_of("location:bury")
    s.deck.remove(bury)
    s.discards[1], s.deck = s.deck, [bury]
    s, events = _pass(s, 0, "location:wigan")
    assert fev.Drew(0, [GAME.names.card.index_of("location:bury")]) in events
    assert len(s.hands[0]) == 2 and s.deck == []


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_loans_in_the_rail_eras_last_four_rounds_at_any_player_count(players: int) -> None:
    rounds = GAME.data.rules.rounds_per_era[str(players)]
    for rnd, allowed in ((rounds - 4, True), (rounds - 3, False)):
        s = load(players, hands={0: ["wigan"] * 2}, era="rail", round=rnd)
        assert any(type(m) is mv.Loan for m in GAME.legal_moves(s, 0)) is allowed


def test_income_shortfall_lets_the_seat_choose_its_tiles_and_stops_once_covered() -> None:
    mills = [tile("bolton:0", "cotton", owner=3), tile("bury:0", "cotton", owner=3, level=1)]
    s, events = _round_end(spent=[0] * 4, money=[30, 30, 30, 0], income=[10, 10, 10, 7],
                           tiles=mills)  # fmt: skip
    assert s.deciding == 3 and s.pending[0].kind == "liquidate"
    assert {m.space for m in GAME.legal_moves(s, 3)} == {"bolton:0", "bury:0"}
    s, events = act(s, 3, mv.Liquidate("bury:0"))  # Cotton Mill I: £12, half is £6
    assert fev.Liquidated(3, slot("bury:0"), 6) in events and "round_ended" in tags(events)
    assert s.slot_owner[slot("bolton:0")] == 3 and s.money[3] == 6 - 3
