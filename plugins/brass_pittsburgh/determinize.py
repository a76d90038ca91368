"""A full state from one seat's view alone (``Game.determinize``, for the search bot).

Everything public is read from the view. What the seat cannot see is drawn at random from
what the view leaves possible: the cards (the player count's deck minus its own hand and
every face-up discard) dealt into the other hands, every face-down discard and the deck,
keeping each count the view shows; and the face-down oilfield tiles, drawn from the tiles
of the player count not yet revealed. The result is the position document such a state
exports (per-place fields by name, as the document allows), so loading it checks it like
any other.
"""

from __future__ import annotations

from random import Random
from typing import Any

from plugins.brass.hidden import deal_from_view, turn_from_view
from plugins.brass_pittsburgh.names import Names
from plugins.brass_pittsburgh.position import FORMAT
from plugins.brass_pittsburgh.rules import Rules


def position_from_view(
    rules: Rules, names: Names, view: dict[str, Any], rng: Random
) -> dict[str, Any]:
    """The position document of a state ``view`` (a seat's) cannot tell from the real one,
    its hidden parts drawn with ``rng``."""
    players, side, card = view["players"], view["side"], names.card
    n = len(players)
    hands, facedown, deck = deal_from_view(view, rules.deck_copies(side, n), card.index_of, rng)
    oilfields = view["oilfields"]
    hidden = [f for f, o in enumerate(oilfields) if o["face_down"]]
    drawn = dict(zip(hidden, rng.sample(_unrevealed_oilfield_tiles(rules, view), len(hidden)),
                     strict=True))  # fmt: skip
    turn, deciding = turn_from_view(view)
    tiles, lines, pipelines = view["tiles"], view["lines"], view["pipelines"]
    merchants = {m["merchant"]: m for m in view["merchants"]}
    names_here = names.sides[side]
    state = {
        "players": n,
        "era": view["era"] - 1,
        "round": view["round"],
        "phase": view["phase"],
        "order": view["order"],
        "turn": turn,
        "actions_left": view["actions_left"],
        "money": [p["money"] for p in players],
        "spent": [p["spent"] for p in players],
        "income": [p["income_space"] for p in players],
        "vp": [p["vp"] for p in players],
        "whiskey": [p["whiskey"] for p in players],
        "light_trains": [p["light_trains"] for p in players],
        "link_supply": [p["link_supply"] for p in players],
        "mat": [p["mat"] for p in players],
        "hands": [[card[c] for c in h] for h in hands],
        "discards": [p["discards"] for p in players],
        "facedown": [[card[c] for c in f] for f in facedown],
        "deck": [card[c] for c in deck],
        "pending": [[p["kind"], p["n"], p["a"], p["b"]] for p in view["pending"]],
        "deciding": deciding,
        "side": side,
        "line_owner": {li["line"]: li["owner"] for li in lines},
        "line_link": {li["line"]: li["link"] for li in lines},
        "line_cargo": {li["line"]: li["cargo"] for li in lines},
        "route_owner": {pl["route"]: pl["owner"] for pl in pipelines},
        "route_pipeline": {pl["route"]: pl["pipeline"] for pl in pipelines},
        "slot_owner": {t["space"]: t["owner"] for t in tiles},
        "slot_tile": {t["space"]: t["tile"] for t in tiles},
        "slot_cubes": {t["space"]: t["resources"] for t in tiles},
        "slot_flipped": {t["space"]: t["flipped"] for t in tiles},
        "oil": [o["oil"] for o in oilfields],
        "oil_pending": [o["oil_later"] for o in oilfields],
        "oilfield_tile": [drawn.get(f) or o["tile"] or "" for f, o in enumerate(oilfields)],
        "oilfield_revealed": [o["in_play"] and not o["face_down"] for o in oilfields],
        "oil_city_owner": [-1 if o["oil_city_owner"] is None else o["oil_city_owner"]
                           for o in oilfields],
        "oil_city_flipped": [o["oil_city_flipped"] for o in oilfields],
        "market_cubes": [{res: lad["cubes"] for res, lad in m["ladders"].items()}
                         for m in view["markets"]],
        "merchant_tile": [merchants[m]["tile"] if m in merchants else ""
                          for m in names_here.merchant],
        "merchant_faceup": [m in merchants and merchants[m]["face_up"]
                            for m in names_here.merchant],
        "quality_rewards": [q["reward"] for q in view["quality_rewards"]],
        "quality_faceup": [q["face_up"] for q in view["quality_rewards"]],
    }  # fmt: skip
    return {"format": FORMAT, "data_version": view["data_version"], "state": state}


def _unrevealed_oilfield_tiles(rules: Rules, view: dict[str, Any]) -> list[str]:
    """The oilfield tiles of the player count that no revealed oilfield shows."""
    d = rules.data
    shown = {o["tile"] for o in view["oilfields"] if o["tile"]}
    players = len(view["players"])
    return [
        t
        for t in rules.board_of(view["side"]).side.oilfield_tile_display
        if d.oilfield_tiles[t].min_players <= players and t not in shown
    ]
