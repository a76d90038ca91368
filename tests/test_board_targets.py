"""The web boards' ``targetsOf`` (``api/static/boards/*.js``, run under Node) on the legal
moves of whole games: every move that picks a place, a card or a tile names at least one
target, and every target id is an id of the board, the viewer's hand or mat, or a market,
as the server names them (the same ids the boards put in ``data-target``)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import msgspec
import pytest
from board_fixtures import game_body, positions

from plugins.age_of_steam.game import AgeOfSteam
from plugins.brass_birmingham.game import BrassBirmingham
from plugins.brass_pittsburgh.game import BrassPittsburgh

ROOT = Path(__file__).resolve().parent.parent
BOARDS = ROOT / "api" / "static" / "boards"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None and os.environ.get("IRONWORKS_REQUIRE_BROWSER") != "1",
    reason="needs Node.js to run the board modules",
)


def _bb_universe(game: Any, view: dict[str, Any], seat: int) -> list[str]:
    b = game.metadata["board"]
    return [
        *(x["location"] for x in b["locations"]), *(x["space"] for x in b["spaces"]),
        *(x["merchant"] for x in b["merchant_spaces"]), *(x["link"] for x in b["links"]),
        *(f"card:{c}" for c in view["hand"]),
        *(f"industry:{i}" for i in view["players"][seat]["tiles_left"]),
        "market:coal", "market:iron",
    ]  # fmt: skip


def _bp_universe(game: Any, view: dict[str, Any], seat: int) -> list[str]:
    board = game.metadata["board"]
    side = board["sides"][view["side"]]
    me = view["players"][seat]
    return [
        *(x["location"] for x in side["cities"] + side["merchant_locations"]),
        *(x["space"] for x in side["spaces"]), *(x["merchant"] for x in side["merchant_spaces"]),
        *(x["line"] for x in side["lines"]), *(x["route"] for x in side["pipeline_routes"]),
        *(x["oilfield"] for x in side["oilfields"]),
        *(f"market:{m['market']}" for m in side["markets"]),
        *(f"card:{c}" for c in view["hand"]), *(f"tile:{t}" for t in me["mat"]),
        f"link:{board['link_tiles']['light_train']}", *(f"link:{x}" for x in me["link_supply"]),
        *(f"quality:{q['reward']}" for q in view["quality_rewards"]), "vanderbilt", "whiskey",
    ]  # fmt: skip


def _aos_universe(game: Any, view: dict[str, Any], seat: int) -> list[str]:
    m = game.metadata["board"]["maps"][view["map"]]
    goods = {c["hex"]: c["cubes"] for c in view["cities"]} | view["land_goods"]
    return [
        *(f"hex:{col},{row}" for col, row, _ in m["hexes"]),
        *(f"cube:{h}:{colour}" for h, cubes in goods.items() for colour in cubes),
        *(f"newcity:{c['letter']}" for c in m["new_cities"]),
        *(f"display:{c['column']}" for c in m["display"]),
        *(f"action:{a}" for a in m["actions"]), "engine",
    ]  # fmt: skip


AOS_NEED = ["build", "urbanize", "move_good", "place_cube", "select_action", "raise_engine"]
CASES = {
    "brass-birmingham": (BrassBirmingham, 3, _bb_universe, [
        "build", "network", "second_link", "develop", "develop_also", "free_develop", "sell",
        "sell_also", "discard", "pick_coal", "pick_iron", "pick_beer", "liquidate"]),
    "brass-pittsburgh": (BrassPittsburgh, 3, _bp_universe, [
        "build", "network", "second_link", "develop", "develop_also", "free_develop", "sell",
        "sell_also", "bonus_sell", "discard", "pay", "sell_produced", "claim_quality"]),
    "age-of-steam": (AgeOfSteam, 4, _aos_universe, AOS_NEED),
    "age-of-steam/st_lucia": (AgeOfSteam, 2, _aos_universe, AOS_NEED),
}  # fmt: skip


def _check(case: str, seed: int) -> dict[str, Any]:
    make, players, universe, need = CASES[case]
    game_id, _, map_id = case.partition("/")
    game = make()
    options = game.Options(map=map_id) if map_id else None
    decisions = []
    for n, state, seat, legal, _ in positions(game, players, seed, options):
        if n > 400:
            break
        view = game.view(state, seat)
        decisions.append({"view": view, "seat": seat, "legal": msgspec.to_builtins(legal),
                          "universe": universe(game, view, seat)})  # fmt: skip
    doc = {"module": str(BOARDS / f"{game_id}.js"), "game": game_body(game), "need": need,
           "decisions": decisions}  # fmt: skip
    run = subprocess.run(
        [str(NODE), str(ROOT / "tests" / "board_targets.mjs")],
        input=json.dumps(doc),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    out: dict[str, Any] = json.loads(run.stdout)
    out["decisions"] = len(decisions)
    return out


@pytest.mark.parametrize("case", list(CASES))
def test_every_place_picking_move_names_a_target_of_the_board(case: str) -> None:
    out = _check(case, seed=11)

    # Keeping every new cube on the tile (a plan of zeros) picks no market: the list has it.
    def keeps_all(m: dict[str, Any]) -> bool:
        return m["type"] == "sell_produced" and not any(m["plan"].values())

    untargeted = [m for m in out["untargeted"] if not keeps_all(m)]
    assert untargeted == []
    assert out["unknown"] == []
    assert out["checked"] > 200 and out["decisions"] > 50
