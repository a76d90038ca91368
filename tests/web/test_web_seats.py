"""Seats, owners and clocks at the web table: an invite-only match with a turn clock, its
owner's invite link opened by a second person, the clock counting down and timing a turn
out, a resignation and the result; the owner's panel handing a seat to a bot and back, and
a refused owner action saying why; the log naming a seat alike whenever its line is drawn."""

from __future__ import annotations

import json
import time
from typing import Any

import httpx
from web_table import screenshot, state

TURN_SECONDS = 4
"""Short enough for a timeout within the test, long enough to read the clock twice."""


def new_match(page: Any, base: str, *, invite_only: bool, turn_seconds: int | None) -> str:
    """The lobby form: Brass: Birmingham for two, you in seat 1, seat 2 open; its id."""
    page.goto(f"{base}/")
    page.select_option("#new-game", "brass-birmingham")
    page.select_option("#new-players", "2")
    page.select_option("select[name='seat-1']", "open")
    if invite_only:
        page.check("#rule-invite-only")
    if turn_seconds is not None:
        page.select_option("#rule-clock", "turn")
        page.fill("#rule-turn", str(turn_seconds))
        page.select_option("#rule-turn-unit", "s")
        page.select_option("#rule-on-timeout", "bot")
    page.click("button:has-text('Start match')")
    page.wait_for_selector(".table-page[data-version]")
    return page.url.rsplit("/", 1)[-1]


def seat_line(page: Any, seat: int) -> Any:
    return page.locator(f".seats-card .seat-line[data-seat='{seat}']")


def test_invite_link_clock_timeout_and_resignation(
    server: str, open_page: Any, console: Any
) -> None:
    console.allow_failed("/claim")  # the wrong code the guest tries first is refused
    owner = open_page("owner")
    match_id = new_match(owner, server, invite_only=True, turn_seconds=TURN_SECONDS)
    rules = state(server, match_id)["rules"]
    assert rules["invite_only"] is True
    assert rules["clock"]["turn_seconds"] == TURN_SECONDS
    assert rules["clock"]["on_timeout"] == "bot"
    # The owner's token stays in this browser only; the owner sat down with an invite.
    stored = json.loads(owner.evaluate("localStorage.getItem('ironworks.owners')"))
    assert match_id in stored
    assert seat_line(owner, 0).locator(".occupant").inner_text() == "you"
    # The clock waits until every seat is taken.
    assert seat_line(owner, 0).locator(".clock").inner_text() == f"0:0{TURN_SECONDS}"
    assert seat_line(owner, 0).locator(".clock.running").count() == 0

    seat_line(owner, 1).locator("button:has-text('Invite')").click()
    link = seat_line(owner, 1).locator(".join-link").input_value()
    code = seat_line(owner, 1).locator(".invite-code").inner_text()
    assert link.endswith(f"#/match/{match_id}?seat=1&invite={code}")
    assert seat_line(owner, 1).locator(".occupant").inner_text() == "invited, not yet joined"

    guest = open_page("guest")
    # The guest's computer is an hour fast: the clocks must follow the server's time.
    guest.clock.install(time=time.time() + 3600)
    # A stranger without the code is offered no seat, and a wrong code is refused in words.
    guest.goto(f"{server}/#/match/{match_id}")
    guest.wait_for_selector(".turn-card:has-text('Watching')")
    assert guest.locator(".turn-card button:has-text('Take Seat')").count() == 0
    guest.goto(link.replace(code, "not-the-code"))
    guest.wait_for_selector(".turn-card:has-text('You are invited')")
    guest.click(".join-form button[type=submit]")
    guest.wait_for_selector('.join-form .notice:has-text("this is not seat 1\'s invite code")')

    guest.goto(link)
    guest.wait_for_selector(".turn-card:has-text('You are invited')")
    assert guest.locator(".join-form .invite-input").input_value() == code
    guest.click(".join-form button:has-text('Join as Seat 2')")
    guest.wait_for_selector(".seats-card .seat-line[data-seat='1'] .occupant:text-is('you')")
    assert "invite=" not in guest.url  # the code leaves the address once used

    # Every seat is taken: seat 1's clock runs, on both pages, counting down each second.
    owner.wait_for_selector(".seats-card .seat-line[data-seat='0'] .clock.running")
    clock = seat_line(owner, 0).locator(".clock")
    first = int(clock.get_attribute("data-left"))
    assert 0 < first <= TURN_SECONDS
    owner.wait_for_function(
        "left => Number(document.querySelector("
        "\".seats-card .seat-line[data-seat='0'] .clock\").dataset.left) < left",
        arg=first,
    )
    assert owner.locator(".bd-player[data-seat='0'] .clock.running").count() == 1
    guest.wait_for_selector(".seats-card .seat-line[data-seat='0'] .clock.running")
    left = int(seat_line(guest, 0).locator(".clock").get_attribute("data-left"))
    assert 0 < left <= TURN_SECONDS

    # Nobody moves: the turn times out, the stand-in bot plays it, and the log says so.
    owner.wait_for_selector(".log li:has-text('ran out of time: a bot plays the turn')")
    guest.wait_for_selector(".log li:has-text('ran out of time')")

    # Resigning asks once more, then ends this two-seat match.
    owner.click(".turn-card .resign button:has-text('Resign')")
    owner.wait_for_selector(".turn-card .confirm-step:has-text('cannot be undone')")
    owner.click(".turn-card .confirm-step button:has-text('Cancel')")
    assert owner.locator(".turn-card .confirm-step").count() == 0
    owner.click(".turn-card .resign button:has-text('Resign')")
    owner.click(".turn-card .confirm-step button[data-yes]")
    owner.wait_for_selector(".turn-card table.result")
    result = state(server, match_id)
    assert result["finished"] and result["result"]["details"]["resigned"] == [0]
    for page in (owner, guest):
        page.wait_for_selector(".turn-card table.result tr.resigned[data-seat='0']")
        tag = page.locator("table.result tr[data-seat='0'] .resigned-tag")
        assert tag.inner_text() == "resigned"
        assert page.locator("table.result tbody tr").first.get_attribute("data-seat") == "1"
        assert page.locator(".seats-card .clock.running").count() == 0
        # The game's state still names a seat to play; the panels must not say so.
        assert page.locator(".bd-player .bd-turnmark").count() == 0
    owner.wait_for_selector(".log li:has-text('resigned')")
    screenshot(guest, "seats-resigned-result")


def test_owner_hands_a_seat_to_a_bot_takes_it_back_and_sees_refusals(
    server: str, open_page: Any, console: Any
) -> None:
    console.allow_failed("/bot")  # the refused owner action below
    owner = open_page("owner")
    match_id = new_match(owner, server, invite_only=False, turn_seconds=None)
    assert owner.locator(".seats-card .clock").count() == 0

    seat_line(owner, 1).locator("select").select_option(label="Random bot")
    owner.wait_for_selector(".seats-card .seat-line[data-seat='1'] .occupant:text-is('random bot')")
    assert state(server, match_id)["seats"][1]["bot"] == "random"
    seat_line(owner, 1).locator("button:has-text('Take back from bot')").click()
    owner.wait_for_selector(".seats-card .seat-line[data-seat='1'] .occupant:text-is('free')")
    assert state(server, match_id)["seats"][1]["bot"] is None

    # My own seat to a bot and back.
    owner.click(".seat-menu summary")
    owner.click(".seat-menu button:has-text('Random bot')")
    owner.wait_for_selector(".turn-card:has-text('A bot plays your seat')")
    owner.click(".turn-card button:has-text('Take my seat back')")
    owner.wait_for_selector(".seats-card .seat-line[data-seat='0'] .occupant:text-is('you')")

    # Someone takes seat 2 and loses its token: the owner's new token comes as a rejoin link.
    claimed = httpx.post(f"{server}/matches/{match_id}/seats/1/claim", timeout=10)
    assert claimed.status_code == 201, claimed.text
    owner.wait_for_selector(".seats-card .seat-line[data-seat='1'] .occupant:text-is('a player')")
    seat_line(owner, 1).locator("button:has-text('New token')").click()
    rejoin = seat_line(owner, 1).locator(".join-link").input_value()
    token = seat_line(owner, 1).locator(".seat-token").inner_text()
    assert rejoin.endswith(f"#/match/{match_id}?seat=1&token={token}")
    player = open_page("player")
    player.goto(rejoin)
    player.wait_for_selector(".seats-card .seat-line[data-seat='1'] .occupant:text-is('you')")
    assert player.locator("select[aria-label='Play as']").input_value() == "1"
    assert "token=" not in player.url  # the token leaves the address at once
    old = {"authorization": f"Bearer {claimed.json()['token']}"}
    stale = httpx.get(f"{server}/matches/{match_id}/moves", headers=old, timeout=10)
    assert stale.status_code in (401, 403)

    # The owner removes that player again, after a second click: the stand-in bot takes over.
    player.goto("about:blank")  # its token is about to stop working
    seat_line(owner, 1).locator("button:has-text('Remove player')").click()
    seat_line(owner, 1).locator(".confirm-step button[data-yes]").click()
    owner.wait_for_selector(".seats-card .seat-line[data-seat='1'] .occupant:text-is('greedy bot')")
    removed = state(server, match_id)["seats"][1]
    assert (removed["claimed"], removed["bot"]) == (False, "greedy")
    # The seats card follows the action's answer, the log the event stream: wait for both.
    removal = '.log li:has-text("Seat 2\'s player was removed")'
    owner.wait_for_selector(removal, state="attached")
    assert owner.locator(removal).count() == 1

    # An owner token this browser no longer holds rightly: the server's sentence, by the seat.
    owner.evaluate(
        "id => localStorage.setItem('ironworks.owners', JSON.stringify({[id]: 'stale'}))",
        match_id,
    )
    owner.reload()
    owner.wait_for_selector(".table-page[data-version]")
    seat_line(owner, 1).locator("button:has-text('Take back from bot')").click()
    owner.wait_for_selector(
        ".seat-line[data-seat='1'] .notice:has-text(\"only the match's owner may take a seat back "
        'from its bot")'
    )
    assert state(server, match_id)["seats"][1]["bot"] == "greedy"


def test_a_log_line_names_its_seat_alike_live_and_redrawn_whoever_plays_it_now(
    server: str, open_page: Any
) -> None:
    """A seat's log line names it by its number, not by who plays it when the line is drawn:
    the page's newest answer can be ahead of the event stream, and the same event must not
    read differently by which arrived first. Redrawing the log (a seat switch does) while a
    bot plays the seat shows it every time."""
    owner = open_page("owner")
    match_id = new_match(owner, server, invite_only=False, turn_seconds=None)
    seat_line(owner, 1).locator("select").select_option(label="Random bot")
    owner.wait_for_selector(".seats-card .seat-line[data-seat='1'] .occupant:text-is('random bot')")
    assert state(server, match_id)["seats"][1]["bot"] == "random"
    handed = ".log li:has-text('is played by the random bot')"
    owner.wait_for_selector(handed, state="attached")
    assert owner.locator(handed).inner_text() == "Seat 2 is played by the random bot"

    owner.select_option("select[aria-label='Play as']", label="Watching")
    # The log is drawn anew: the line naming this page's seat as "you" goes.
    owner.wait_for_function(
        "() => [...document.querySelectorAll('.log li')].length > 0 && "
        "![...document.querySelectorAll('.log li')].some((li) => li.textContent.includes('(you)'))"
    )
    assert owner.locator(handed).inner_text() == "Seat 2 is played by the random bot"
