"""The table at a laptop's size (1366x768, the most common laptop screen): the board, the
move card with several moves and the log's newest lines in view without scrolling the page;
the side column's parts scroll inside themselves."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_age_of_steam import SENSIBLE
from web_table import play_by_list, screenshot, start_match, state, wait_for_my_move

LAPTOP = {"width": 1366, "height": 768}
DESKTOP = {"width": 1440, "height": 900}

# Where each part is on the screen, with the page scrolled to its top.
GEOMETRY = """() => {
  window.scrollTo(0, 0);
  const box = (e) => { const r = e.getBoundingClientRect(); return [r.top, r.bottom]; };
  const log = document.querySelector('.log');
  const moves = [...document.querySelectorAll('.turn-card .move-list button.move')];
  const card = document.querySelector('.turn-card').getBoundingClientRect();
  return {
    height: window.innerHeight,
    pageScrolls: document.documentElement.scrollHeight > window.innerHeight + 1
      ? document.documentElement.scrollHeight : 0,
    side: box(document.querySelector('.side')),
    log: box(log),
    lastLine: box(log.lastElementChild),
    board: box(document.querySelector('svg.board')),
    moves: moves.length,
    movesInCard: moves.filter((m) => {
      const r = m.getBoundingClientRect();
      return r.top >= card.top && r.bottom <= card.bottom && r.bottom <= window.innerHeight;
    }).length,
  };
}"""


@pytest.mark.parametrize(
    ("game", "players", "viewport", "several"),
    [
        # at least two: some Brass states open the card with a heading and a hint above the list
        ("brass-birmingham", 2, LAPTOP, 2),
        ("brass-birmingham", 2, DESKTOP, 2),
        # Age of Steam's build list has kind chips, a filter and moves of two lines each
        ("age-of-steam", 3, LAPTOP, 2),
    ],
    ids=["brass-1366x768", "brass-1440x900", "aos-1366x768"],
)
def test_the_move_card_and_the_logs_newest_line_are_in_view_without_scrolling_the_page(
    server: str, open_page: Any, game: str, players: int, viewport: dict[str, int], several: int
) -> None:
    page = open_page()
    page.set_viewport_size(viewport)
    start_match(page, server, game, players)
    for _ in range(3):  # a log of a few turns, longer than its card
        play_by_list(page)
    wait_for_my_move(page)
    page.wait_for_timeout(300)  # the log scrolls to its newest line
    g = page.evaluate(GEOMETRY)
    screenshot(page, f"table-{game}-{viewport['width']}")
    assert g["side"][1] <= g["height"], g  # the side column ends within the window
    assert g["log"][0] >= 0 and g["log"][1] <= g["height"], g
    assert g["log"][0] <= g["lastLine"][0] and g["lastLine"][1] <= g["log"][1] + 1, g
    assert g["movesInCard"] >= min(several, g["moves"]), {**g, "movesInCard": g["movesInCard"]}
    assert g["board"][0] < g["height"] * 0.3 and g["board"][1] <= g["height"], g


def test_age_of_steams_build_list_shows_several_builds_in_the_card_at_a_laptops_size(
    server: str, open_page: Any
) -> None:
    """The build decision lists hundreds of placements: the card showed two (chips, hint,
    filter and headings above entries two lines long). The side column takes what the
    board, drawn as tall as the window allows, leaves of its width, and the kinds share a
    row with the filter: four moves or more in view."""
    page = open_page()
    page.set_viewport_size(LAPTOP)
    match_id = start_match(page, server, "age-of-steam", 3)
    for _ in range(30):
        wait_for_my_move(page)
        if state(server, match_id)["view"]["decision"]["kind"] == "build":
            break
        play_by_list(page, SENSIBLE)
    else:
        raise AssertionError("no build decision in 30 decisions")
    page.wait_for_timeout(300)
    g = page.evaluate(GEOMETRY)
    screenshot(page, "table-age-of-steam-build-1366")
    assert g["moves"] > 8, g
    assert g["movesInCard"] >= 4, g
    assert g["side"][1] <= g["height"] and g["board"][1] <= g["height"], g
