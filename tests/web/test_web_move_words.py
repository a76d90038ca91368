"""Options of one decision read apart in the move list: a sale names the industry sold and
the merchant (what it buys, whether beer stands there), a coal, iron or beer choice names
whose tile it comes from and what it holds. The words come from the view; the module is
run in the page as the table runs it."""

from __future__ import annotations

from typing import Any

DESCRIBE = """async ([module, game, view, moves]) => {
  const board = await import(`/static/boards/${module}.js`);
  const meta = await (await fetch(`/games/${game}`)).json();
  return moves.map((m) => board.describeMove(m, { game: meta, view, seat: 0 }));
}"""


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
