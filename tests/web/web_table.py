"""Driving the web table as a person does: the lobby form, board clicks, the move list.

The tests read the server's state over the public API only to decide when to stop (whose
turn, which round); every move is made by clicking in the page.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import httpx

POSITIONS = Path(__file__).parent / "positions"
"""Position documents (the games' ``export_position`` format) that tests start matches from."""

ARTIFACTS = Path(os.environ.get("IRONWORKS_ARTIFACTS", "/tmp/ironworks-artifacts"))
"""Where screenshots go: outside the repository."""

LIT = "[data-target].bd-target, [data-target].target"
"""Board or panel elements the board module lit as narrowing the legal moves."""


def start_match(page: Any, base: str, game: str, players: int, bot: str = "Greedy bot") -> str:
    """Start a match from the lobby form: you in seat 1, ``bot`` in the others; its id."""
    page.goto(f"{base}/")
    page.select_option("#new-game", game)
    page.select_option("#new-players", str(players))
    for seat in range(1, players):
        page.select_option(f"select[name='seat-{seat}']", label=bot)
    page.click("button:has-text('Start match')")
    page.wait_for_selector(".table-page[data-version]")
    return page.url.rsplit("/", 1)[-1]


def start_from_position(base: str, game: str, position: str) -> tuple[str, int, str]:
    """A match of ``game`` from ``positions/<position>.json`` over the API, with the seat to
    act claimed (the others free): its id, that seat and its token."""
    doc = json.loads((POSITIONS / f"{position}.json").read_text())
    body = {"game": game, "players": doc["players"], "position": doc}
    created = httpx.post(f"{base}/matches", json=body, timeout=30)
    created.raise_for_status()
    match_id = created.json()["id"]
    seat = doc["queue"][0]
    claimed = httpx.post(f"{base}/matches/{match_id}/seats/{seat}/claim", timeout=10)
    claimed.raise_for_status()
    return match_id, seat, claimed.json()["token"]


def state(base: str, match_id: str) -> dict[str, Any]:
    """The match as a spectator sees it (GET /matches/{id})."""
    response = httpx.get(f"{base}/matches/{match_id}", timeout=10)
    response.raise_for_status()
    return response.json()


def events(base: str, match_id: str) -> list[dict[str, Any]]:
    """The match's log as a spectator reads it (GET /matches/{id}/events)."""
    response = httpx.get(f"{base}/matches/{match_id}/events", params={"limit": 500}, timeout=10)
    response.raise_for_status()
    return response.json()["events"]


def wait_for_my_move(page: Any) -> None:
    page.wait_for_selector(".table-page[data-mine='true'] .turn-card :is(.move-list, .confirm)")


def version(page: Any) -> int:
    return int(page.get_attribute(".table-page", "data-version"))


def play_by_board(page: Any) -> bool:
    """Narrow the legal moves by clicking lit targets until one move is left and confirm
    it, or until the board narrows no further and take the narrowed list's first entry.
    False when the board offers nothing to click (the caller uses the list instead)."""
    before = version(page)
    if not page.locator(LIT).count():
        return False
    for _ in range(8):
        if page.locator("[data-confirm]").count():
            page.click("[data-confirm]")
            break
        lit = page.locator(LIT)
        if not lit.count():
            page.locator(".move-list button.move").first.click()
            break
        _activate(page, lit.first)
    else:
        raise AssertionError("eight board clicks did not narrow the choice to one move")
    wait_for_new_version(page, before)
    return True


def _activate(page: Any, element: Any) -> None:
    """Click the element; where a neighbour covers its middle, focus it and press Enter
    (targets are keyboard operable)."""
    try:
        element.click(trial=True, timeout=500)
    except Exception:  # covered: use the keyboard, as a keyboard user would
        element.focus()
        page.keyboard.press("Enter")
        return
    element.click()


def play_by_list(page: Any, prefer: tuple[str, ...] = ()) -> None:
    """Pick a move from the keyboard-operable list: focus it and press Enter. The first
    entry whose text matches the first pattern of ``prefer`` that any entry matches, else
    the first entry."""
    before = version(page)
    if page.locator(".picks").count():
        page.click(".picks button:has-text('Clear')")
    entries = page.locator(".move-list button.move")
    chosen = entries.first
    for pattern in prefer:
        matching = entries.filter(has_text=re.compile(pattern))
        if matching.count():
            chosen = matching.first
            break
    chosen.focus()
    page.keyboard.press("Enter")
    wait_for_new_version(page, before)


def wait_for_new_version(page: Any, before: int) -> None:
    page.wait_for_function(
        "v => Number(document.querySelector('.table-page').dataset.version) > v", arg=before
    )


def play_one(page: Any, by_board: bool, prefer: tuple[str, ...] = ()) -> str:
    """One decision of the seat: by board targets when asked and possible, else the list
    (see :func:`play_by_list` for ``prefer``). Says which way was used."""
    wait_for_my_move(page)
    refusal = page.locator(".turn-card .notice")
    if refusal.count():
        raise AssertionError(f"refused: {refusal.first.inner_text()}")
    if by_board and play_by_board(page):
        return "board"
    play_by_list(page, prefer)
    return "list"


def screenshot(page: Any, name: str) -> Path:
    """A screenshot of the page's top among the artifacts."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(path))
    return path


def seat_view(page: Any, match_id: str, seat: int = 0) -> dict[str, Any]:
    """The match as the page's seat sees it, with the token the page keeps (a spectator's
    view leaves out what only the seat to act is shown, e.g. Brass's ``market_buys``)."""
    return page.evaluate(
        """async ([id, seat]) => {
          const { api, tokens } = await import('/static/api.js');
          return (await api.match(id, tokens.forMatch(id)[seat])).view;
        }""",
        [match_id, seat],
    )
