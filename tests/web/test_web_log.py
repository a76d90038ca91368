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
