"""The match log's sentences (api/static/log.js) in the browser, on the games' own metadata."""

from __future__ import annotations

from typing import Any

_SAY = """async (event) => {
  const log = await import('/static/log.js');
  const game = await (await fetch('/games/brass-pittsburgh')).json();
  const ctx = { names: log.nameIndex(game), seatName: (i) => `Seat ${i + 1}`, board: null };
  return log.describeEvent(event, ctx).text;
}"""


def test_a_pittsburgh_market_is_named_after_its_city_in_the_log(
    server: str, open_page: Any
) -> None:
    page = open_page()
    page.goto(f"{server}/")
    event = {"type": "market_bought", "actor": 2,
             "payload": {"market": "ci_greensburg", "resource": "coal"}}  # fmt: skip
    assert page.evaluate(_SAY, event) == "Seat 3 bought 1 coal from the Greensburg market"


_SAY_IN = """async ([id, event]) => {
  const log = await import('/static/log.js');
  const game = await (await fetch(`/games/${id}`)).json();
  const board = await import(`/static/boards/${id}.js`);
  const ctx = { game, names: log.nameIndex(game), seatName: (i) => `Seat ${i + 1}`, board };
  return log.describeEvent(event, ctx).text;
}"""


def test_money_in_the_log_is_in_the_games_currency(server: str, open_page: Any) -> None:
    page = open_page()
    page.goto(f"{server}/")
    paid = {"type": "paid", "actor": 0, "payload": {"seat": 0, "amount": 4}}
    assert page.evaluate(_SAY_IN, ["brass-pittsburgh", paid]) == "Seat 1 paid $4"
    assert page.evaluate(_SAY_IN, ["brass-birmingham", paid]) == "Seat 1 paid £4"
    assert page.evaluate(_SAY_IN, ["brass-pittsburgh", paid]) == "Seat 1 paid $4"
    moved = {"type": "income_set", "actor": 0, "payload": {"seat": 0, "income_space": 4}}
    assert page.evaluate(_SAY_IN, ["brass-pittsburgh", moved]) == "Seat 1 moved to income space 4"


def test_pittsburgh_and_lancashire_events_read_as_sentences(server: str, open_page: Any) -> None:
    """Events that had no sentence read as their type and payload ("Seat 1: Whiskey spent"),
    and Pittsburgh's mat tiles as their ids ("built K2")."""
    page = open_page()
    page.goto(f"{server}/")
    cases = [
        ("brass-pittsburgh", {"type": "whiskey_spent", "actor": 0,
                              "payload": {"seat": 0, "count": 1}}, "Seat 1 spent 1 whiskey"),
        ("brass-pittsburgh", {"type": "oil_taken", "actor": 1,
                              "payload": {"oilfield": "venango"}}, "Seat 2 took oil from Venango"),
        ("brass-pittsburgh", {"type": "board_cleared", "actor": -1,
                              "payload": {"lines": ["buffalo~erie", "erie~franklin"],
                                          "spaces": []}},
         "The era's end cleared 2 lines from the board"),
        ("brass-lancashire", {"type": "demand_tile_drawn", "actor": -1,
                              "payload": {"seat": 1, "space": "rochdale:0", "tile": 2}},
         "Seat 2 drew a demand tile for Rochdale 1: the marker moves 2 spaces down"),
        ("brass-lancashire", {"type": "money_scored", "actor": -1, "payload": {"vp": [6, 5]}},
         "Money scored: Seat 1 +6 VP, Seat 2 +5 VP"),
        # the round's end: the income each seat got or paid, and the next order
        ("brass-birmingham", {"type": "round_ended", "actor": 1,
                              "payload": {"order": [1, 0], "income": [14, -3],
                                          "vp_lost": [0, 2]}},
         "Round over · income Seat 1 +£14, Seat 2 \u2212£3 · unpaid income Seat 2 \u22122 VP"
         " · next order Seat 2, Seat 1"),
        ("brass-pittsburgh", {"type": "round_ended", "actor": 0,
                              "payload": {"order": [0, 1], "income": [0, 0], "vp_lost": [0, 0]}},
         "Round over · next order Seat 1, Seat 2"),
        # an era by its name, and its deal
        ("brass-birmingham", {"type": "era_began", "actor": -1,
                              "payload": {"era": 1, "deck_count": 24, "hand_counts": [8, 8],
                                          "hand": None}},
         "The rail era begins: 8 cards in each hand, 24 in the deck"),
        ("brass-lancashire", {"type": "era_scored", "actor": -1,
                              "payload": {"era": 0, "links": [25, 20], "industries": [24, 26]}},
         "Canal era scored: Seat 1 +49 VP, Seat 2 +46 VP"),
        ("brass-pittsburgh", {"type": "era_began", "actor": -1,
                              "payload": {"era": 2, "deck_count": 16, "hand_counts": [8, 8],
                                          "hand": None}},
         "Era 2 begins: 8 cards in each hand, 16 in the deck"),
        # a mat tile by its industry and level, not its id on the mat
        ("brass-pittsburgh", {"type": "tile_taken", "actor": 0,
                              "payload": {"seat": 0, "tile": "K2"}},
         "Seat 1 took kerosene refinery II from the mat"),
        ("brass-pittsburgh", {"type": "tile_placed", "actor": 0,
                              "payload": {"seat": 0, "tile": "K2", "space": "erie:0",
                                          "cubes": 0, "flipped": False}},
         "Seat 1 built kerosene refinery II at Erie 1"),
    ]  # fmt: skip
    for game, event, sentence in cases:
        assert page.evaluate(_SAY_IN, [game, event]) == sentence


def test_a_sum_below_zero_reads_with_its_sign_before_the_currency(
    server: str, open_page: Any
) -> None:
    page = open_page()
    page.goto(f"{server}/")
    income = {"type": "income_collected", "actor": -1, "payload": {"income": [-2, 14]}}
    assert page.evaluate(_SAY_IN, ["age-of-steam", income]) == "Income: Seat 1 \u2212$2, Seat 2 $14"


def test_drawing_nothing_from_an_empty_deck_leaves_no_line(server: str, open_page: Any) -> None:
    page = open_page()
    page.goto(f"{server}/")
    drew = {"type": "drew", "actor": 1, "payload": {"seat": 1, "count": 2, "cards": None}}
    assert page.evaluate(_SAY_IN, ["brass-birmingham", drew]) == "Seat 2 drew 2 cards"
    drew["payload"]["count"] = 0
    line = page.evaluate(_SAY_IN.replace(".text;", ";"), ["brass-birmingham", drew])
    assert line is None
