"""What a person playing reaches without hunting for it: the moves in view when the page
opens on a laptop's screen, one click for a move of a kind with one option."""

from __future__ import annotations

from typing import Any

from web_table import play_by_list, start_match, wait_for_my_move

LAPTOP = {"width": 1366, "height": 768}

IN_VIEW = """(sel) => [...document.querySelectorAll(sel)].slice(0, 2).map((e) => {
  const r = e.getBoundingClientRect();
  return r.top >= 0 && r.bottom <= window.innerHeight;
})"""


def test_the_moves_are_in_view_on_a_laptop_screen_without_scrolling(
    server: str, open_page: Any
) -> None:
    page = open_page()
    page.set_viewport_size(LAPTOP)
    start_match(page, server, "brass-birmingham", 2)
    wait_for_my_move(page)
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate(IN_VIEW, ".turn-card .move-list button.move") == [True, True]


def test_the_last_moves_mark_holds_still_so_the_board_is_not_repainted_every_frame(
    server: str, open_page: Any
) -> None:
    page = open_page()
    start_match(page, server, "brass-birmingham", 2)
    play_by_list(page)
    wait_for_my_move(page)
    assert page.locator(".bd-svg .bd-touched").count()  # the last move is marked
    running = page.evaluate(
        "() => document.getAnimations().filter((a) => a.playState === 'running').length"
    )
    assert running == 0
