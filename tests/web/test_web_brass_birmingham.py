"""Brass: Birmingham in the browser: a two-player match against a bot, played by clicking
board targets and list entries, watched live from a second page."""

from __future__ import annotations

import json
from typing import Any

from web_table import play_by_list, play_one, screenshot, start_match, state, wait_for_my_move

TURNS = 3
"""Full turns of ours: one action in the first canal round, two in each later one."""


def test_three_turns_by_clicking_while_a_spectator_sees_the_bot_move(
    server: str, open_page: Any
) -> None:
    player = open_page("player")
    match_id = start_match(player, server, "brass-birmingham", 2)
    spectator = open_page("spectator")
    spectator.goto(f"{server}/#/match/{match_id}")
    spectator.wait_for_selector(".table-page[data-version] .turn-card:has-text('Watching')")
    seen_by_spectator = spectator.locator(".log li").count()

    ways = []
    for _ in range(40):
        now = state(server, match_id)["view"]
        if now["round"] > TURNS:
            break
        ways.append(play_one(player, by_board=len(ways) % 2 == 0))
    else:
        raise AssertionError("three turns took more than 40 decisions")
    assert {"board", "list"} <= set(ways)

    now = state(server, match_id)
    built = [t for t in now["view"]["tiles"] if t["owner"] == 0] + [
        link for link in now["view"]["links"] if link["owner"] == 0
    ]
    assert built or any(p["seat"] == 0 and p["money"] != 17 for p in now["view"]["players"])
    # The spectator's page followed the stream: the bot's moves are in its log, unasked.
    spectator.wait_for_function(
        "v => Number(document.querySelector('.table-page').dataset.version) >= v",
        arg=now["version"],
    )
    assert spectator.locator(".log li").count() > seen_by_spectator
    assert spectator.locator(".log li.seat-1").count() > 0
    assert spectator.locator(".log li.seat-0").count() > 0
    wait_for_my_move(player)
    for page in (player, spectator):  # the newest line of the log is in view
        gap = page.evaluate(
            "() => { const l = document.querySelector('.log');"
            " return l.scrollHeight - l.scrollTop - l.clientHeight; }"
        )
        assert gap < 24
    screenshot(player, "brass-birmingham-table")
    screenshot(spectator, "brass-birmingham-spectator")


def test_a_refused_move_shows_the_servers_sentence(
    server: str, open_page: Any, console: Any
) -> None:
    console.allow_failed("/moves")
    player = open_page("player")
    start_match(player, server, "brass-birmingham", 2)
    wait_for_my_move(player)
    detail = "You cannot build there: the space is taken."

    def refuse(route: Any) -> None:
        if route.request.method != "POST":
            return route.continue_()
        assert route.request.headers["idempotency-key"]
        body = route.request.post_data_json
        assert set(body) == {"move", "expected_version"}
        return route.fulfill(
            status=422, content_type="application/problem+json",
            body=json.dumps({"type": "urn:ironworks:problem:space_taken", "title": "x",
                             "status": 422, "detail": detail, "code": "space_taken"}),
        )  # fmt: skip

    player.route("**/matches/*/moves", refuse)
    player.locator(".move-list button.move").first.click()
    player.wait_for_selector(f".turn-card .notice:has-text('{detail}')")
    player.unroute("**/matches/*/moves")
    play_by_list(player)  # the move list is still there and works
    assert not player.locator(".turn-card .notice").count()


def test_a_picked_card_reads_as_the_card_not_its_id(server: str, open_page: Any) -> None:
    player = open_page("player")
    start_match(player, server, "brass-birmingham", 2)
    wait_for_my_move(player)
    card = player.locator(".bd-hand .bd-card.bd-target").first
    name = card.locator(".bd-card-name").inner_text()
    card.click()
    chip = player.locator(".turn-card .picks .chip").first.inner_text()
    assert name in chip
    assert ":" not in chip
