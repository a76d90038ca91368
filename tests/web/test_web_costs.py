"""What a move costs, shown before it is confirmed where the game publishes the price: an
Age of Steam tile laid on an empty hex (the price table and the hex's terrain), a Brass:
Pittsburgh build (the mat tile's cost). The browser runs no rules: each figure is checked
against what the server then charges, or against the published table."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from web_table import play_one, start_match, state, wait_for_my_move, wait_for_new_version

SENSIBLE = (r"^Issue 2 shares", r"^Drop out", r"^Take Locomotive", r"^Take")
PRICED_LAY = re.compile(r"^Lay .* for \$(\d+)$")


def test_age_of_steam_tiles_show_the_price_the_server_charges(server: str, open_page: Any) -> None:
    player = open_page("player")
    match_id = start_match(player, server, "age-of-steam", 3)
    for _ in range(12):
        wait_for_my_move(player)
        if state(server, match_id)["view"]["decision"]["kind"] == "build":
            break
        play_one(player, by_board=False, prefer=SENSIBLE)
    else:
        raise AssertionError("no build decision of ours in 12 decisions")

    laid = 0
    while laid < 2:
        entries = player.locator(".move-list button.move", has_text=re.compile(r"^Lay "))
        texts = entries.all_inner_texts()
        priced = [t for t in texts if PRICED_LAY.match(t)]
        assert priced, texts[:5]
        # The cheapest, so that the seat can afford a second one.
        text = min(priced, key=lambda t: int(PRICED_LAY.match(t).group(1)))
        before = int(player.get_attribute(".table-page", "data-version"))
        player.locator(".move-list button.move", has_text=text).first.click()
        wait_for_new_version(player, before)
        built = [
            e
            for e in httpx.get(
                f"{server}/matches/{match_id}/events", params={"after": before}, timeout=10
            ).json()["events"]
            if e["type"] == "track_built" and e["actor"] == 0
        ]
        assert built and built[0]["payload"]["cost"] == int(PRICED_LAY.match(text).group(1))
        laid += 1
        wait_for_my_move(player)
        if state(server, match_id)["view"]["decision"]["kind"] != "build":
            break


def test_pittsburgh_builds_show_the_mat_tiles_published_cost(server: str, open_page: Any) -> None:
    player = open_page("player")
    start_match(player, server, "brass-pittsburgh", 2)
    wait_for_my_move(player)
    tiles = httpx.get(f"{server}/games/brass-pittsburgh", timeout=10).json()["metadata"]
    by_name = {}
    for tile in tiles["board"]["mat"]["tiles"]:
        cost = tile["cost"]
        parts = [f"${cost['money']}"] if cost["money"] else []
        parts += [f"{cost[r]} {r}" for r in ("coal", "iron", "steel", "coke", "oil") if cost[r]]
        by_name[tile["id"]] = " + ".join(parts)
    builds = player.locator(".move-list button.move", has_text=re.compile(r"^Build "))
    assert builds.count()
    for i in range(builds.count()):
        entry = builds.nth(i)
        move = json.loads(entry.get_attribute("data-key"))  # the listed move, as posted
        assert entry.inner_text().endswith(f" (costs {by_name[move['tile']]})")
