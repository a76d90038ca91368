"""The table's words for what a person decides: a prompt with places by their printed names
and the moves that answer it by their buttons' labels; options of one decision that read
apart (what is sold, to which merchant, from whose tile); and what a move costs, shown
before it is confirmed where the game publishes the price (an Age of Steam tile on an empty
hex or bare town, a Brass build or link, a cube at a market). The browser runs no
rules: a price is checked against what the server then charges, or the published table;
the modules' words are run in the page as the table runs them."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
from web_table import (
    events,
    play_by_list,
    play_one,
    seat_view,
    start_from_position,
    start_match,
    state,
    wait_for_my_move,
    wait_for_new_version,
)

SENSIBLE = (r"^Issue 2 shares", r"^Drop out", r"^Take Locomotive", r"^Take")
PRICED_LAY = re.compile(r"^Lay .* for \$(\d+)$")
DESCRIBE = """async ([module, game, view, moves]) => {
  const board = await import(`/static/boards/${module}.js`);
  const meta = await (await fetch(`/games/${game}`)).json();
  return moves.map((m) => board.describeMove(m, { game: meta, view, seat: 0 }));
}"""


def test_age_of_steam_build_prompt_names_its_button_and_tiles_the_price_charged(
    server: str, open_page: Any
) -> None:
    player = open_page("player")
    match_id = start_match(player, server, "age-of-steam", 3)
    for _ in range(12):
        wait_for_my_move(player)
        if state(server, match_id)["view"]["decision"]["kind"] == "build":
            break
        play_one(player, by_board=False, prefer=SENSIBLE)
    else:
        raise AssertionError("no build decision of ours in 12 decisions")
    # The prompt names the button that ends the building, not the move's type.
    raw = state(server, match_id)["view"]["decision"]["prompt"]
    assert "done_building" in raw  # what the view says
    for where in (".status-line", ".panels"):
        text = player.locator(where).first.inner_text()
        assert "“Done building”" in text, text
        assert "done_building" not in text
    assert player.locator(".move-list button.move", has_text="Done building").count() == 1

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
    """The printed cost, and where the seat's cubes cost money (the view's ``cube_costs``)
    the whole price first and the cubes' share after it."""
    player = open_page("player")
    match_id = start_match(player, server, "brass-pittsburgh", 2)
    wait_for_my_move(player)
    tiles = httpx.get(f"{server}/games/brass-pittsburgh", timeout=10).json()["metadata"]
    costs = seat_view(player, match_id)["cube_costs"]["build"]
    by_name = {}
    for tile in tiles["board"]["mat"]["tiles"]:
        cost = tile["cost"]
        parts = [f"${cost['money']}"] if cost["money"] else []
        parts += [f"{cost[r]} {r}" for r in ("coal", "iron", "steel", "coke", "oil") if cost[r]]
        by_name[tile["id"]] = (cost["money"], " + ".join(parts))
    builds = player.locator(".move-list button.move", has_text=re.compile(r"^Build "))
    assert builds.count()
    for i in range(builds.count()):
        entry = builds.nth(i)
        move = json.loads(entry.get_attribute("data-key"))  # the listed move, as posted
        money, printed = by_name[move["tile"]]
        place = move.get("oilfield") or move["space"].split(":")[0]
        cubes = costs.get(move["tile"], {}).get(place)
        if cubes:
            printed = f"${money + cubes}: {printed}, the cubes ${cubes} at the cheapest"
        assert entry.inner_text().endswith(f" (costs {printed})"), entry.inner_text()


BIRMINGHAM_PRICED = re.compile(r" \(costs £(\d+)\)$")


def test_birmingham_builds_show_the_next_tiles_printed_price_and_are_charged_it(
    server: str, open_page: Any
) -> None:
    player = open_page("player")
    match_id = start_match(player, server, "brass-birmingham", 2)
    wait_for_my_move(player)
    tables = httpx.get(f"{server}/games/brass-birmingham", timeout=10).json()["metadata"]
    tables = tables["board"]["tiles"]
    view = seat_view(player, match_id)
    before = view["players"][0]
    buys = view["market_buys"]["build"]  # what a build's cubes would cost at the market
    builds = player.locator(".move-list button.move", has_text=re.compile(r"^Build "))
    assert builds.count()
    money_only = None
    for i in range(builds.count()):
        entry = builds.nth(i)
        move = json.loads(entry.get_attribute("data-key"))  # the listed move, as posted
        if move["type"] != "build":  # "Build a canal link …"
            continue
        level = before["next_tiles"][move["industry"]]
        row = next(r for r in tables[move["industry"]] if r["level"] == level)
        parts = [f"£{row['money']}"] + [f"{row[r]} {r}" for r in ("coal", "iron") if row[r]]
        printed = " + ".join(parts)
        bought = buys.get(move["space"].split(":")[0], {}).get(move["industry"])
        if bought:
            cubes = " and ".join(f"{bought[r]} {r}" for r in ("coal", "iron") if bought.get(r))
            printed = (
                f"£{row['money'] + bought['money']}: {printed}, {cubes} bought from the "
                f"market{'s' if ' and ' in cubes else ''} for £{bought['money']}"
            )
        assert entry.inner_text().endswith(f" (costs {printed})"), entry.inner_text()
        if money_only is None and BIRMINGHAM_PRICED.search(entry.inner_text()):
            money_only = entry
    # A build needing no cubes costs exactly its printed money.
    assert money_only is not None
    price = int(BIRMINGHAM_PRICED.search(money_only.inner_text()).group(1))
    version = int(player.get_attribute(".table-page", "data-version"))
    money_only.click()
    wait_for_new_version(player, version)
    after = state(server, match_id)["view"]["players"][0]
    assert before["money"] - after["money"] == price


def test_a_birmingham_development_whose_iron_is_bought_shows_the_markets_price_and_is_charged_it(
    server: str, open_page: Any
) -> None:
    """No iron works stands on the board at the start: a development's iron comes from the
    iron market, and its price is the market's, in the entry and in the money paid (the
    entry said "(costs 1 iron)" and the player learnt the price only once charged)."""
    player = open_page("player")
    match_id = start_match(player, server, "brass-birmingham", 2)
    wait_for_my_move(player)
    view = seat_view(player, match_id)
    price = view["markets"]["iron"]["buy_price"]
    assert view["market_buys"]["develop"] == {"iron": 1, "money": price}
    entry = player.locator(".move-list button.move", has_text=re.compile(r"^Develop")).first
    assert entry.inner_text().endswith(
        f" (costs £{price}: 1 iron, 1 iron bought from the market for £{price})"
    ), entry.inner_text()
    version = int(player.get_attribute(".table-page", "data-version"))
    entry.click()
    wait_for_new_version(player, version)
    for _ in range(3):  # the card that pays for it, then "done" to a second development
        decision = state(server, match_id)["view"]["decision"]
        if decision["seat"] != 0 or decision["kind"] not in ("discard", "develop_also"):
            break
        wait_for_my_move(player)
        play_by_list(player, prefer=(r"^Done",))
    assert paid_in_action(server, match_id, version) == price


def test_brass_links_and_developments_show_their_printed_price_beer_only_in_birmingham(
    server: str, open_page: Any
) -> None:
    page = open_page()
    page.goto(f"{server}/")
    links = [
        {"type": "network", "link": "birmingham~dudley"},
        {"type": "second_link", "link": "birmingham~dudley"},
    ]
    canal = page.evaluate(DESCRIBE, ["brass-birmingham", "brass-birmingham", {"era": "canal"},
                                     links[:1]])  # fmt: skip
    rail = page.evaluate(DESCRIBE, ["brass-birmingham", "brass-birmingham", {"era": "rail"},
                                    links])  # fmt: skip
    assert canal == ["Build a canal link Birmingham\u2013Dudley (costs £3)"]
    assert rail == [
        "Build a rail link Birmingham\u2013Dudley (costs £5 + 1 coal)",
        "Build a second rail Birmingham\u2013Dudley (costs £10 + 1 coal + 1 beer)",
    ]
    develop = [
        {"type": "develop", "industry": "cotton"},
        {"type": "free_develop", "industry": "cotton"},
    ]
    view = {"era": "canal", "players": [{"seat": 0, "next_tiles": {"cotton": 1}}]}
    said = page.evaluate(DESCRIBE, ["brass-birmingham", "brass-birmingham", view, develop])
    assert said[0].endswith(" tile (costs 1 iron)"), said
    assert "costs" not in said[1], said  # a merchant's free development
    moves = [
        {"type": "second_link", "link": "bolton~manchester"},
        {"type": "double_build", "industry": "cotton", "space": "manchester:0"},
    ]
    view = {"era": "rail", "players": [{"seat": 0, "next_tiles": {"cotton": 2}}]}
    said = page.evaluate(DESCRIBE, ["brass-lancashire", "brass-lancashire", view, moves])
    meta = httpx.get(f"{server}/games/brass-lancashire", timeout=10).json()["metadata"]
    row = next(r for r in meta["board"]["tiles"]["cotton"] if r["level"] == 2)
    cost = " + ".join([f"£{row['money']}"] + [f"{row[r]} {r}" for r in ("coal", "iron") if row[r]])
    assert said == [
        "Build a second rail Bolton\u2013Manchester (costs £10 + 1 coal)",
        f"Double action build: cotton mill at Manchester (space 1), discarding any 2 cards "
        f"(costs {cost})",
    ]


def test_brass_prompts_name_places_and_answers_in_words(server: str, open_page: Any) -> None:
    page = open_page()
    page.goto(f"{server}/")
    said = page.evaluate(
        """async () => {
          const { promptInWords } = await import('/static/log.js');
          const names = { birmingham: 'Birmingham', walsall: 'Walsall', oxford: 'Oxford',
                          erie: 'Erie' };
          return [
            promptInWords('1 beer still needed to sell birmingham:0 to oxford:0: choose a brewery',
                          ['pick_beer'], names),
            promptInWords('1 coal still needed for birmingham~walsall: several mines are tied',
                          ['pick_coal'], names),
            promptInWords('add a second rail (£10 more) or finish with done',
                          ['second_link', 'done'], names),
            promptInWords('split the cubes of the new tile on erie:1 among the markets',
                          ['sell_produced'], names),
            promptInWords('choose an action (1 left this turn): build, sell or pass',
                          ['build', 'sell', 'pass'], names),
            promptInWords('the server runs this step: 2:30 unknown_place:3', [], names),
            promptInWords('choose a brewery (by its space) or the barrel (by the merchant space)',
                          ['pick_beer'], names),
            promptInWords('remove one of your industries (by space) for half its cost',
                          ['liquidate'], names),
            promptInWords('1 coal still needed for erie: choose where the next one comes from',
                          ['pay'], names),
            promptInWords('place a second link ($10 more) or finish: done',
                          ['second_link', 'done'], names),
          ];
        }"""
    )
    assert said == [
        "1 beer still needed to sell Birmingham 1 to Oxford 1: choose a brewery",
        "1 coal still needed for Birmingham\u2013Walsall: several mines are tied",
        "add a second rail (£10 more) or finish with “Done”",
        "split the cubes of the new tile on Erie 2 among the markets",
        # ordinary words that are also move types stay words
        "choose an action (1 left this turn): build, sell or pass",
        # an id the board does not name stays as it is
        "the server runs this step: 2:30 unknown_place:3",
        # the hints for programs of which field names the choice are left out
        "choose a brewery or the barrel",
        "remove one of your industries for half its cost",
        # a place named alone, by its id
        "1 coal still needed for Erie: choose where the next one comes from",
        "place a second link ($10 more) or finish: “Done”",
    ]


def test_birmingham_sales_and_sources_name_the_tile_and_the_merchant(
    server: str, open_page: Any
) -> None:
    page = open_page()
    page.goto(f"{server}/")
    view = {
        "era": "canal",
        "players": [{"seat": 0, "next_tiles": {}}, {"seat": 1, "next_tiles": {}}],
        "tiles": [
            {"space": "birmingham:0", "owner": 0, "industry": "cotton", "level": 2,
             "flipped": False, "resources": 0},
            {"space": "dudley:0", "owner": 1, "industry": "coal", "level": 1,
             "flipped": False, "resources": 2},
            {"space": "stafford:0", "owner": 0, "industry": "brewery", "level": 1,
             "flipped": False, "resources": 1},
        ],
        "merchants": [
            {"merchant": "oxford:0", "location": "oxford", "buys": ["cotton"], "beer": True},
            {"merchant": "oxford:1", "location": "oxford", "buys": ["manufacturer"],
             "beer": False},
        ],
    }  # fmt: skip
    moves = [
        {"type": "sell", "space": "birmingham:0", "merchant": "oxford:0"},
        {"type": "sell", "space": "birmingham:0", "merchant": "oxford:1"},
        {"type": "pick_coal", "space": "dudley:0"},
        {"type": "pick_beer", "source": "stafford:0"},
        {"type": "pick_beer", "source": "oxford:0"},
        {"type": "liquidate", "space": "birmingham:0"},
    ]
    said = page.evaluate(DESCRIBE, ["brass-birmingham", "brass-birmingham", view, moves])
    assert said == [
        "Sell your cotton mill II at Birmingham (space 1)"
        " to Oxford's merchant buying cotton (beer there)",
        "Sell your cotton mill II at Birmingham (space 1)"
        " to Oxford's merchant buying manufactured goods",
        "Take coal from Seat 2's coal mine I at Dudley (space 1), 2 coal left",
        "Take beer from your brewery I at Stafford (space 1), 1 beer left",
        "Take beer from the barrel of Oxford's merchant buying cotton (beer there)",
        "Sell off your cotton mill II at Birmingham (space 1) (half its cost)",
    ]
    assert len(set(said)) == len(said)


def test_lancashire_sales_name_the_mill_and_the_port(server: str, open_page: Any) -> None:
    page = open_page()
    page.goto(f"{server}/")
    view = {
        "tiles": [
            {"space": "colne:0", "owner": 0, "industry": "cotton", "level": 1},
            {"space": "preston:2", "owner": 1, "industry": "port", "level": 2},
        ],
    }
    moves = [
        {"type": "sell", "space": "colne:0", "to": "preston:2"},
        {"type": "sell", "space": "colne:0", "to": "distant_market"},
    ]
    said = page.evaluate(DESCRIBE, ["brass-lancashire", "brass-lancashire", view, moves])
    assert said == [
        "Sell your cotton mill I at Colne (space 1)"
        " to the port: Seat 2's port II at Preston (space 3)",
        "Sell your cotton mill I at Colne (space 1) to the distant market",
    ]


def test_pittsburgh_sales_name_the_industry_and_the_merchants_tile(
    server: str, open_page: Any
) -> None:
    page = open_page()
    page.goto(f"{server}/")
    view = {
        "side": "main",
        "tiles": [{"space": "erie:0", "owner": 0, "industry": "kerosene", "level": 1,
                   "tile": "K1"}],
        "merchants": [
            {"merchant": "chicago:0", "location": "chicago", "tile": "MT_VP", "face_up": True,
             "accepts": ["kerosene", "manufactured_goods"],
             "reward": [{"type": "vp", "amount": 5}]},
            {"merchant": "chicago:1", "location": "chicago", "tile": "MT_15", "face_up": True,
             "accepts": ["kerosene"], "reward": [{"type": "money", "amount": 15}]},
        ],
    }  # fmt: skip
    moves = [
        {"type": "sell", "space": "erie:0", "merchant": "chicago:0"},
        {"type": "sell", "space": "erie:0", "merchant": "chicago:1"},
    ]
    said = page.evaluate(DESCRIBE, ["brass-pittsburgh", "brass-pittsburgh", view, moves])
    assert said == [
        "Sell your kerosene refinery I at Erie (space 1)"
        " to Chicago's merchant buying kerosene or manufactured goods (5 VP)",
        "Sell your kerosene refinery I at Erie (space 1)"
        " to Chicago's merchant buying kerosene ($15)",
    ]


def test_age_of_steam_names_a_bare_hex_by_the_nearest_city_in_list_and_log(
    server: str, open_page: Any
) -> None:
    page = open_page()
    page.goto(f"{server}/")
    # Rust Belt: 7,6 is the clear hex south of Chicago (7,5); every other place is 2 away.
    view = {"map": "rust_belt", "track": [], "cities": []}
    build = {"type": "build", "col": 7, "row": 6, "tile": "straight", "rotation": 0}
    said = page.evaluate(DESCRIBE, ["age-of-steam", "age-of-steam", view, [build]])
    assert said == ["Lay straight on hex 7,6 by Chicago (N\u2013S) for $2"]
    line = page.evaluate(
        """async (view) => {
          const board = await import('/static/boards/age-of-steam.js');
          const game = await (await fetch('/games/age-of-steam')).json();
          const ctx = { game, view, seatName: (i) => `Seat ${i + 1}` };
          return board.describeEvent({ type: 'track_built', actor: 1, payload: {
            seat: 1, hex: '7,6', tile: 'straight', rotation: 0, kind: 'place', cost: 2 } }, ctx);
        }""",
        view,
    )
    assert line == "Seat 2 laid straight on hex 7,6 by Chicago for $2"


def test_age_of_steam_production_names_the_display_column_and_its_city(
    server: str, open_page: Any
) -> None:
    page = open_page()
    page.goto(f"{server}/")
    view = {"map": "rust_belt", "track": [], "cities": []}
    moves = [{"type": "place_cube", "column": "light-1"}, {"type": "place_cube", "column": "G"}]
    said = page.evaluate(DESCRIBE, ["age-of-steam", "age-of-steam", view, moves])
    assert said == [
        "Place the cube in the goods display's light 1 column (Chicago)",
        "Place the cube in New City G's column of the goods display",
    ]


def test_age_of_steam_a_delivery_from_a_town_straight_into_a_city_names_who_earns(
    server: str, open_page: Any
) -> None:
    page = open_page()
    page.goto(f"{server}/")
    # St. Lucia: a town tile on 6,6 whose spoke north (side 0) runs into Dennery (6,5); the
    # link is that spoke alone (the server paid its owner when it was played).
    town = {"hex": "6,6", "town": True, "sections": [{"sides": [0], "owner": 1, "laid": 1}]}
    view = {"map": "st_lucia", "track": [town], "cities": []}
    move = {"type": "move_good", "col": 6, "row": 6, "color": "purple", "steps": [0]}
    said = page.evaluate(DESCRIBE, ["age-of-steam", "age-of-steam", view, [move]])
    assert said[0].endswith(": 1 link (Seat 2 +1)"), said


PITTSBURGH_ENTRIES = """els => els.map((e) => [e.innerText, e.dataset.key])"""
PAY_PRICE = re.compile(r" for \$(\d+)$")


def _pittsburgh_suffix(move: dict[str, Any], costs: dict[str, Any]) -> str | None:
    """What an entry's price ends with when the server says its cubes cost money."""
    if move["type"] == "build":
        place = move.get("oilfield") or move["space"].split(":")[0]
        cubes = costs["build"].get(move["tile"], {}).get(place)
    elif move["type"] in ("network", "second_link"):
        cubes = costs["network"].get(move["link"], {}).get(move["site"])
    else:
        return None
    # after the printed cost (", the cubes $7 …"), or alone where none is published (a
    # light train's: " (the cubes $7 …")
    return f"the cubes ${cubes} at the cheapest)" if cubes else None


def test_pittsburgh_entries_include_their_cubes_cheapest_price_and_a_develop_is_charged_it(
    server: str, open_page: Any
) -> None:
    """A cube with one possible source is taken without asking (a develop's iron or steel
    with nothing on the board: Vanderbilt's), so the entry's price includes what the
    server says its cubes cost paid the cheapest way, and that is what playing it charges
    (the entries said "(costs $5 + 1 coal)" and a develop showed no price at all)."""
    player = open_page("player")
    match_id = start_match(player, server, "brass-pittsburgh", 2)
    wait_for_my_move(player)
    costs = seat_view(player, match_id)["cube_costs"]
    entries = player.eval_on_selector_all(".move-list button.move", PITTSBURGH_ENTRIES)
    with_cubes = 0
    for text, key in entries:
        move = json.loads(key)
        suffix = _pittsburgh_suffix(move, costs)
        if suffix is None:
            assert "at the cheapest" not in text or move["type"].startswith("develop"), text
            continue
        assert text.endswith(suffix), (text, suffix)
        with_cubes += 1
    assert with_cubes > 10
    develop = costs.get("develop", 0)
    entry = player.locator(".move-list button.move", has_text=re.compile(r"^Develop")).first
    words = f" (costs ${develop}: 1 iron or steel at the cheapest)" if develop else " (its iron"
    assert words in entry.inner_text(), entry.inner_text()
    version = int(player.get_attribute(".table-page", "data-version"))
    entry.click()
    wait_for_new_version(player, version)
    for _ in range(6):  # the card that pays for it, the metal if asked, "done" to a second
        decision = state(server, match_id)["view"]["decision"]
        if decision["seat"] != 0 or decision["kind"] not in ("discard", "pay", "develop_also"):
            break
        wait_for_my_move(player)
        if decision["kind"] == "pay":  # the cheapest source (a free one names no price)
            texts = player.locator(".move-list button.move").all_inner_texts()
            dearness = [int(m.group(1)) if (m := PAY_PRICE.search(t)) else 0 for t in texts]
            cheapest = texts[dearness.index(min(dearness))]
            play_by_list(player, prefer=(f"^{re.escape(cheapest)}$",))
        else:
            play_by_list(player, prefer=(r"^Done",))
    assert paid_in_action(server, match_id, version) == develop


def paid_in_action(server: str, match_id: str, version: int) -> int:
    """What seat 0 paid from ``version`` on to the end of its action (its ``paid`` events)."""
    paid = 0
    for event in events(server, match_id):
        if event["version"] <= version or event["actor"] != 0:
            continue
        if event["type"] == "action_done":
            break
        if event["type"] == "paid":
            paid += event["payload"]["amount"]
    return paid


def test_age_of_steam_a_goods_route_names_each_stop_by_its_bare_name(
    server: str, open_page: Any
) -> None:
    """A good's route stop by stop, a New City by the town it was: the list said "from
    Cincinnati to Fort Wayne (New City F) via Indianapolis (New City H)", three lines in the
    move card."""
    match_id, seat, token = start_from_position(
        server, "age-of-steam", "age-of-steam-move-goods-8-options"
    )
    auth = {"authorization": f"Bearer {token}"}
    view = httpx.get(f"{server}/matches/{match_id}", headers=auth, timeout=10).json()["view"]
    listed = httpx.get(f"{server}/matches/{match_id}/moves", headers=auth, timeout=10).json()
    page = open_page()
    page.goto(f"{server}/")
    said = page.evaluate(DESCRIBE, ["age-of-steam", "age-of-steam", view, listed["moves"]])
    assert seat == 2 and "Move purple Cincinnati → Fort Wayne: 1 link (Seat 3 +1)" in said, said
    assert "Move purple Cincinnati → Indianapolis → Fort Wayne: 2 links (Seat 3 +1)" in said, said
