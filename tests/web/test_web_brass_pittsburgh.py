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
    space = "#table-grid svg [data-target*=':']"
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
