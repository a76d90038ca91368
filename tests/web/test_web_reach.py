"""What a person playing reaches without hunting for it: the moves in view when the page
opens on a laptop's screen, one click for a move of a kind with one option."""

from __future__ import annotations

import re
import time
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


# The page's event stream, its messages held back while `window.holdStream` is set and
# handed over in their order by `window.releaseStream()`: the test decides whether the
# events of a move reach the page before or after the view that follows it.
# `window.streamedThrough` is the version of the last event the stream brought, held or not.
HOLD_STREAM = """(() => {
  const Real = window.EventSource;
  const held = [];
  window.holdStream = false;
  window.streamedThrough = 0;
  window.releaseStream = () => { window.holdStream = false; held.splice(0).forEach((f) => f()); };
  window.EventSource = class extends Real {
    set onmessage(fn) {
      super.onmessage = (m) => {
        window.streamedThrough = Math.max(window.streamedThrough, JSON.parse(m.data).version);
        return window.holdStream ? held.push(() => fn(m)) : fn(m);
      };
    }
    get onmessage() { return super.onmessage; }
  };
})();"""

MARKED = "() => [...document.querySelectorAll('.bd-touched')].map((e) => e.dataset.target).sort()"
LOG = "() => [...document.querySelectorAll('.log li')].map((li) => li.textContent)"


def _view_after_the_bots_reply(page: Any, server: str, match_id: str) -> None:
    """Play the first listed move with the stream held, the view after it asked for only
    once the bot has answered: the view is two moves ahead of the events the page holds."""
    wait_for_my_move(page)
    mine = version(page)
    page.evaluate("window.holdStream = true")

    def after_the_bot(route: Any) -> None:
        now = state(server, match_id)
        while now["to_act"] != [0] or now["version"] == mine:
            time.sleep(0.05)
            now = state(server, match_id)
        route.continue_()

    view = re.compile(rf"/matches/{match_id}$")
    page.route(view, after_the_bot)
    play_by_list(page)
    wait_for_my_move(page)
    page.unroute(view)
    # Every event up to the version shown is on its way, held: none comes after the release.
    page.wait_for_function("v => window.streamedThrough >= v", arg=version(page))


def _as_opened_now(page: Any) -> tuple[list[str], list[str]]:
    """The mark and the log of the page's match as the same person opening it now sees them."""
    fresh = page.context.new_page()
    fresh.goto(page.url)
    wait_for_my_move(fresh)
    shown = fresh.evaluate(MARKED), fresh.evaluate(LOG)
    fresh.close()
    return shown


def test_the_last_moves_mark_is_drawn_when_the_view_comes_before_the_moves_events(
    server: str, open_page: Any
) -> None:
    page = open_page()
    page.add_init_script(HOLD_STREAM)
    match_id = start_match(page, server, "brass-birmingham", 2)
    _view_after_the_bots_reply(page, server, match_id)
    marked, log = page.evaluate(MARKED), page.evaluate(LOG)
    assert marked
    # The late events change nothing, and the page shows what it shows when opened now.
    page.evaluate("window.releaseStream()")
    assert (page.evaluate(MARKED), page.evaluate(LOG)) == (marked, log)
    assert _as_opened_now(page) == (marked, log)


def test_the_last_moves_mark_comes_with_the_late_events_when_the_log_cannot_be_read(
    server: str, open_page: Any, console: Any
) -> None:
    page = open_page()
    page.add_init_script(HOLD_STREAM)
    match_id = start_match(page, server, "brass-birmingham", 2)
    console.allow_failed("&limit=500")  # the log refused below
    log_page = re.compile(rf"/matches/{match_id}/events\?")
    page.route(log_page, lambda route: route.fulfill(status=503, json={"detail": "busy"}))
    _view_after_the_bots_reply(page, server, match_id)
    page.unroute(log_page)
    marked, log = _as_opened_now(page)
    assert marked
    page.evaluate("window.releaseStream()")
    page.wait_for_function(f"m => JSON.stringify(({MARKED})()) === JSON.stringify(m)", arg=marked)
    assert page.evaluate(LOG) == log


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
