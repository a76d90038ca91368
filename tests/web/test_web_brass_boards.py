"""The Brass boards as a person sees them at the table: a finished match's board as it was
last seen (the final era's scoring clears the links from the game's view, as the canal
era's end does, and the table draws them from the view just before that scoring, live and in
the replay), the replay marking the move that led to the version shown, the rail era's
double-rail guide, and Lancashire's distant market."""

from __future__ import annotations

import time
from typing import Any

import httpx
import pytest
from web_table import screenshot, start_match, state, wait_for_my_move

LINKS = {"brass-birmingham": "links", "brass-lancashire": "links", "brass-pittsburgh": "lines"}
"""The view's field of each game that the final scoring empties."""


@pytest.fixture(scope="module")
def finished(server: str) -> Any:
    """``finished(game)``: a two-player match of greedy bots played to its end, one per game
    for the module's tests (each a second or two)."""
    made: dict[str, str] = {}

    def get(game: str) -> str:
        if game not in made:
            made[game] = bot_match_to_its_end(server, game)
        return made[game]

    return get


def bot_match_to_its_end(base: str, game: str) -> str:
    """A two-player match of greedy bots, played to its end (a second or two); its id."""
    created = httpx.post(f"{base}/matches", json={"game": game, "players": 2}, timeout=10)
    created.raise_for_status()
    match_id = created.json()["id"]
    for seat in (0, 1):
        httpx.post(
            f"{base}/matches/{match_id}/seats/{seat}/bot", json={"bot": "greedy"}, timeout=10
        ).raise_for_status()
    deadline = time.monotonic() + 60
    while not state(base, match_id)["finished"]:
        assert time.monotonic() < deadline, "the bots did not finish within a minute"
        time.sleep(0.2)
    return match_id


def built_before_final_scoring(base: str, match_id: str, field: str) -> tuple[int, list]:
    """The last era_scored event's version, and the pieces the view held just before it."""
    end = state(base, match_id)["version"]
    tail = httpx.get(
        f"{base}/matches/{match_id}/events", params={"after": end - 20}, timeout=10
    ).json()["events"]
    scored = [e for e in tail if e["type"] == "era_scored"][-1]
    before = httpx.get(
        f"{base}/matches/{match_id}", params={"at": scored["version"] - 1}, timeout=10
    ).json()
    return scored["version"], before["view"][field]


def link_tiles(page: Any) -> int:
    return page.locator("svg.board .bd-linktile").count()


@pytest.mark.parametrize("game", sorted(LINKS))
def test_the_final_board_keeps_the_links_the_last_scoring_cleared(
    server: str, open_page: Any, finished: Any, game: str
) -> None:
    match_id = finished(game)
    field = LINKS[game]
    assert state(server, match_id)["view"][field] == []  # what the view says at the end
    scored_at, built = built_before_final_scoring(server, match_id, field)
    assert built
    pipelines = len(state(server, match_id)["view"].get("pipelines") or [])

    page = open_page("spectator")
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector(".status-line:has-text('Game over')")
    drawn = "n => document.querySelectorAll('svg.board .bd-linktile').length == n"
    page.wait_for_function(drawn, arg=len(built) + pipelines)
    title = page.locator("svg.board [data-target] > title", has_text=" link of Seat").count()
    if game != "brass-pittsburgh":
        assert title == len(built)  # each line says whose link it is
        # The panels count the link tiles that were on the board, not the 14 handed back.
        left = page.locator(".panels").inner_text()
        assert "Links left\n14" not in left and "Links left 14" not in left
    screenshot(page, f"{game}-final-board")

    # The replay at the end draws them too; one version before the final scoring, the
    # view itself has them.
    page.click(".replay-bar button[aria-label='One version back']")
    page.wait_for_selector(
        f".status-line:has-text('Version {state(server, match_id)['version'] - 1}:')"
    )
    assert link_tiles(page) == len(built) + pipelines
    page.click(".replay-bar button[aria-label='First version']")
    page.wait_for_selector(".status-line:has-text('Version 2:')")
    page.wait_for_function(drawn, arg=0)
    assert scored_at > 2


def test_the_replay_marks_the_move_that_led_to_the_version_shown(
    server: str, open_page: Any, finished: Any
) -> None:
    match_id = finished("brass-birmingham")
    end = state(server, match_id)["version"]
    tail = httpx.get(
        f"{server}/matches/{match_id}/events", params={"after": end - 60}, timeout=10
    ).json()["events"]
    built = [e for e in tail if e["type"] in ("tile_placed", "link_placed")][-1]
    place = built["payload"].get("space") or built["payload"]["link"]

    page = open_page("spectator")
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector(".status-line:has-text('Game over')")
    page.click(f".log li[data-version='{built['version']}']")  # a log line steps there
    page.wait_for_selector(f".status-line:has-text('Version {built['version']}:')")
    marked = page.locator("svg.board .bd-touched").evaluate_all(
        "els => els.map(e => e.dataset.target)"
    )
    assert place in marked
    # One version earlier the place is not yet built, and that move marks other places.
    page.click(".replay-bar button[aria-label='One version back']")
    page.wait_for_selector(f".status-line:has-text('Version {built['version'] - 1}:')")
    page.wait_for_function(
        "p => !document.querySelector(`svg.board .bd-touched[data-target='${p}']`)", arg=place
    )


def test_the_rail_era_turn_says_whether_a_double_rail_is_possible(
    server: str, open_page: Any, finished: Any
) -> None:
    match_id = finished("brass-birmingham")
    end = state(server, match_id)["version"]
    for at in range(end - 150, end, 3):
        then = httpx.get(f"{server}/matches/{match_id}", params={"at": at}, timeout=10).json()
        view = then["view"]
        if (
            view["era"] == "rail"
            and view["decision"]["kind"] == "action"
            and view.get("double_rail")
        ):
            break
    else:
        raise AssertionError("no rail-era action decision among the last 150 versions")
    guide = view["double_rail"]
    page = open_page("spectator")
    page.goto(f"{server}/#/match/{match_id}")
    page.wait_for_selector(".status-line:has-text('Game over')")
    assert page.locator(".bd-double-rail").count() == 0  # not once the game is over
    # Drag the replay slider there, as a person does.
    page.eval_on_selector(
        ".replay-bar input.slider",
        "(el, v) => { el.value = String(v); el.dispatchEvent(new Event('input')); }",
        at,
    )
    page.wait_for_selector(f".status-line:has-text('Version {at}:')")
    said = page.locator(".bd-turn .bd-double-rail").inner_text()
    if guide["possible"]:
        assert said == "A double rail is possible now."
    else:
        assert said == f"No double rail now: {guide['reason']}."


def test_the_distant_market_is_drawn_with_its_marker_and_is_a_sales_target(
    server: str, open_page: Any
) -> None:
    player = open_page("player")
    match_id = start_match(player, server, "brass-lancashire", 2)
    wait_for_my_move(player)
    dm = state(server, match_id)["view"]["distant_market"]
    market = player.locator("svg.board [data-target='market:distant_market']")
    assert market.count() == 1
    said = market.locator(":scope > title").text_content()
    assert f"pays +{dm['income']} income" in said
    assert f"{len(dm['tiles_left'])} demand tiles" in said
    # The marker's space is the one drawn dark, on the track of income spaces and X.
    cells = market.locator(".bd-demand-text").all_text_contents()
    assert cells == [*map(str, dm["income_spaces"]), "X"]
    marked = market.locator(".bd-demand-marker + .bd-demand-text").all_text_contents()
    assert marked == [cells[dm["marker"]]]
    supply = player.locator(".panels .bd-supply").first.inner_text()
    assert "?" not in supply and "wild" not in supply
    assert "Distant market:" in player.locator(".panels").inner_text()
    # A sale to it names that element, so clicking it narrows the list to such sales.
    targets = player.evaluate(
        """async () => (await import('/static/boards/brass-lancashire.js')).targetsOf(
             {type: 'sell', space: 'colne:0', to: 'distant_market'})"""
    )
    assert targets == ["colne:0", "market:distant_market"]
    screenshot(player, "brass-lancashire-table")


def test_no_merchants_beer_bonus_lies_under_a_link_tiles_spot(
    server: str, open_page: Any, finished: Any
) -> None:
    """Gloucester's "beer: free develop" was drawn where the Redditch-Gloucester tile goes."""
    page = open_page("spectator")
    page.goto(f"{server}/#/match/{finished('brass-birmingham')}")
    page.wait_for_selector("svg.board .bd-bonus")
    overlaps = page.evaluate(
        """async () => {
          const game = await (await fetch('/games/brass-birmingham')).json();
          const layout = game.metadata.board.layout;
          const W = 1000, H = 1000 / layout.aspect;
          const [tw, th] = layout.sizes.link_tile;
          const out = [];
          for (const text of document.querySelectorAll('svg.board .bd-bonus')) {
            const b = text.getBBox();
            for (const [id, link] of Object.entries(layout.links)) {
              if (!link.tile) continue;
              const [x, y] = [link.tile[0] * W, link.tile[1] * H];
              const a = (link.angle || 0) * Math.PI / 180, w = tw * W, h = Math.max(th * H, 16);
              const hw = (Math.abs(Math.cos(a)) * w + Math.abs(Math.sin(a)) * h) / 2;
              const hh = (Math.abs(Math.sin(a)) * w + Math.abs(Math.cos(a)) * h) / 2;
              if (x + hw > b.x && x - hw < b.x + b.width && y + hh > b.y && y - hh < b.y + b.height)
                out.push(`${text.textContent} / ${id}`);
            }
          }
          return out;
        }"""
    )
    assert overlaps == []
    assert page.locator("svg.board .bd-bonus").count() == 5  # one per merchant location


@pytest.mark.parametrize("game", sorted(LINKS))
def test_every_name_lies_inside_the_frame_and_clear_of_other_places(
    server: str, open_page: Any, finished: Any, game: str
) -> None:
    """Pittsburgh's PHILADELPHIA ran off the board's right edge; Lancashire's WARRINGTON &
    RUNCORN into MANCHESTER."""
    page = open_page("spectator")
    page.goto(f"{server}/#/match/{finished(game)}")
    page.wait_for_selector("svg.board text")
    outside, crossing = page.evaluate(
        """() => {
          const svg = document.querySelector('svg.board');
          const W = svg.viewBox.baseVal.width;
          const outside = [...svg.querySelectorAll('text')].map((t) => [t.textContent, t.getBBox()])
            .filter(([, b]) => b.width && (b.x < 4 || b.x + b.width > W - 4))
            .map(([name]) => name);
          const hit = (a, b) => Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 1
            && Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 1;
          const heads = [...svg.querySelectorAll('.bd-lochead')];
          const spaces = [...svg.querySelectorAll('[data-target]')]
            .filter((e) => /:\\d+$/.test(e.dataset.target));
          const crossing = [];
          for (const head of heads) {
            const text = head.querySelector('text');
            const box = text.getBBox();
            for (const sp of spaces) {
              if (sp.dataset.target.split(':')[0] !== head.dataset.target && hit(box, sp.getBBox()))
                crossing.push(`${text.textContent} / ${sp.dataset.target}`);
            }
            for (const other of heads) {
              const t2 = other.querySelector('text');
              if (other !== head && hit(box, t2.getBBox()))
                crossing.push(`${text.textContent} / ${t2.textContent}`);
            }
          }
          return [outside, crossing];
        }"""
    )
    assert outside == []
    assert crossing == []
