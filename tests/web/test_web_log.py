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
