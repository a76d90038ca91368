"""What a person playing reaches without hunting for it: the moves in view when the page
opens on a laptop's screen, one click for a move of a kind with one option."""

from __future__ import annotations

import re
from typing import Any

from web_table import (
    play_by_list,
    start_match,
    state,
    version,
    wait_for_my_move,
    wait_for_new_version,
)

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


# Counts the board's redrawings: each clears the SVG and draws it again, many nodes at once.
COUNT_DRAWINGS = """() => {
  window.drawings = 0;
  const svg = document.querySelector('svg.board');
  new MutationObserver((records) => {
    if (records.reduce((n, r) => n + r.removedNodes.length, 0) > 3) window.drawings += 1;
  }).observe(svg, { childList: true });
}"""


def test_a_move_draws_the_board_once(server: str, open_page: Any) -> None:
    page = open_page()
    match_id = start_match(page, server, "brass-birmingham", 2)
    for _ in range(12):  # to a turn of two actions, so that no bot moves after the first
        wait_for_my_move(page)
        if state(server, match_id)["view"]["actions_left"] == 2:
            break
        play_by_list(page, prefer=(r"^Build a canal",))
    else:
        raise AssertionError("no turn of two actions in 12 decisions")
    build = page.locator(".move-list button.move", has_text=re.compile(r"^Build (?!a )")).first
    build.focus()  # the board previews the focused move: a drawing of its own
    page.evaluate(COUNT_DRAWINGS)
    before = version(page)
    page.keyboard.press("Enter")
    wait_for_new_version(page, before)
    wait_for_my_move(page)
    page.wait_for_timeout(400)  # the move's events and the refresh they ask for
    assert page.evaluate("window.drawings") == 1


EMPTY_HEADS = """() => [...document.querySelectorAll('.move-list .group-head')]
  .filter((head) => !(head.nextElementSibling && head.nextElementSibling.matches('button.move')))
  .map((head) => head.textContent)"""


def test_a_kind_of_one_move_is_one_click_in_a_long_list(server: str, open_page: Any) -> None:
    page = open_page()
    match_id = start_match(page, server, "brass-birmingham", 2)
    wait_for_my_move(page)
    texts = page.locator(".move-list button.move").all_inner_texts()
    # Build and Network fill the list; Loan, Scout and Pass are in it all the same.
    assert [t for t in texts if t.startswith("Take a loan")]
    assert [t for t in texts if t.startswith("Pass")]
    assert page.evaluate(EMPTY_HEADS) == []
    money = state(server, match_id)["view"]["players"][0]["money"]
    before = version(page)
    page.locator(".move-list button.move", has_text=re.compile(r"^Take a loan")).click()
    wait_for_new_version(page, before)
    assert state(server, match_id)["view"]["players"][0]["money"] == money + 30
