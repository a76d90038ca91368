"""Brass: Pittsburgh in the browser: one full turn against a bot, by clicking."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from web_table import (
    events,
    play_by_board,
    play_one,
    screenshot,
    start_match,
    state,
    wait_for_my_move,
)

REPO = Path(__file__).resolve().parents[2]
BOARD = "api/static/boards/brass-pittsburgh.js"


def test_one_turn_by_clicking(server: str, open_page: Any, console: Any) -> None:
    if not (REPO / BOARD).is_file():  # until its board module lands: the generic board
        console.allow_failed("/static/boards/brass-pittsburgh.js")
    player = open_page("player")
    match_id = start_match(player, server, "brass-pittsburgh", 2)
    ways = []
    for _ in range(20):
        view = state(server, match_id)["view"]
        if view["round"] > 1 or (ways and view["turn_seat"] != 0):
            break
        ways.append(play_one(player, by_board=not ways))
    else:
        raise AssertionError("one turn took more than 20 decisions")
    assert ways and ways[0] == "board"
    ours = [e["type"] for e in events(server, match_id) if e["actor"] == 0]
    assert "action_done" in ours
    wait_for_my_move(player)  # the bot has played its turn in the meantime
    screenshot(player, "brass-pittsburgh-table")


def test_the_board_can_be_enlarged_to_read_and_is_still_played_by_clicking(
    server: str, open_page: Any
) -> None:
    player = open_page("player")
    start_match(player, server, "brass-pittsburgh", 2)
    wait_for_my_move(player)
    # The board's ground, not a space: a tile built on the space measured changes its size.
    space = "#table-grid svg.board .bd-ground"
    fitted = player.locator(space).first.bounding_box()["width"]
    player.click("button.zoom:has-text('Enlarge')")
    assert player.locator(space).first.bounding_box()["width"] > 1.8 * fitted
    # The page keeps its width: the larger drawing scrolls inside the board's frame.
    assert player.evaluate("document.documentElement.scrollWidth <= innerWidth")
    assert play_by_board(player)
    player.reload()  # the choice is kept for this game
    player.wait_for_selector(".table-page[data-version] button.zoom[aria-pressed='true']")
    player.click("button.zoom:has-text('Fit')")
    assert abs(player.locator(space).first.bounding_box()["width"] - fitted) < 1


def test_the_board_is_drawn_as_tall_as_the_window_allows_with_the_panels_beside_it_or_below(
    server: str, open_page: Any
) -> None:
    """At 1440x900 the panels beside Pittsburgh's board drew it 640 px wide where the
    window's height gives it 750: they go below it there. A wider window has room for both:
    the panels stay beside the board, as large as the height allows. At 1366x768 below them
    the board would gain only 6 %: they stay beside it, the hand on the screen."""
    player = open_page("player")
    start_match(player, server, "brass-pittsburgh", 2)
    wait_for_my_move(player)
    measure = """() => {
      const box = document.querySelector('svg.board').viewBox.baseVal;
      const ground = document.querySelector('svg.board .bp-ground').getBoundingClientRect();
      const panels = document.querySelector('.panels').getBoundingClientRect();
      const board = document.querySelector('.board-frame').getBoundingClientRect();
      return {width: ground.width, tall: (innerHeight - 170) * box.width / box.height,
              beside: panels.top < board.bottom && panels.left >= board.right,
              panelsInView: panels.top < innerHeight / 2};
    }"""
    sizes = (
        ({"width": 1440, "height": 900}, False, True),
        ({"width": 1920, "height": 1080}, True, True),
        ({"width": 1366, "height": 768}, True, False),
    )
    for size, beside, full_height in sizes:
        player.set_viewport_size(size)
        player.wait_for_function(
            "b => document.querySelector('.table-grid').classList.contains('tall-board') === b",
            arg=beside,
        )
        got = player.evaluate(measure)
        assert got["beside"] == beside, (size, got)
        assert got["panelsInView"] == beside, (size, got)
        if full_height:
            assert got["width"] >= 0.95 * got["tall"], (size, got)
    screenshot(player, "brass-pittsburgh-1366")
