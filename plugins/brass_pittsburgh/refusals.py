"""Why an action move is refused: a code and a sentence naming the broken rule.

``decide`` accepts exactly the listed moves (:mod:`.engine`); these functions only explain a
refusal, checking the action's conditions in the rulebook's order and naming the first one
the move breaks. The last resort is the action's general rule.
"""

from __future__ import annotations

from typing import Any

from plugins.brass.build import build_spaces, card_refusal
from plugins.brass_pittsburgh import internal_moves as mv
from plugins.brass_pittsburgh.building import build_targets, develop_spaces, has_presence, network
from plugins.brass_pittsburgh.choices import network_options, oil_available
from plugins.brass_pittsburgh.links import LIGHT, pipeline_sites, train_sites
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.selling import merchants_buying, oil_needed
from plugins.brass_pittsburgh.state import State, era_number

Refusal = tuple[str, str]

GENERAL: dict[type, Refusal] = {
    mv.Build: (
        "build_not_allowed",
        "this build breaks a Build rule: the card must name the city (or the industry, in "
        "your network), the tile must be your accessible one for this era, on an empty slot "
        "showing it (single-icon slots first, one per city in era 1), and you must afford it",
    ),
    mv.Network: (
        "link_not_allowed",
        "this link cannot go there: it needs an empty line (a pipeline an empty route) "
        "touching your network, a tile you have in supply, and its cost",
    ),
    mv.Develop: (
        "develop_not_allowed",
        "only an accessible, developable tile of your mat may be developed, for one iron or "
        "steel you can pay for",
    ),
    mv.Sell: (
        "sale_not_allowed",
        "only your unflipped Kerosene, Manufactured Goods or Automobile tile may be sold, to a "
        "connected merchant showing its icon, with the oil it needs reachable",
    ),
    mv.Loan: ("loan_not_allowed", "a loan may not take your income level below -10"),
}


def action_refusal(rules: Rules, s: State, seat: int, m: Any) -> Refusal:
    explain = _EXPLAIN.get(type(m))
    found = explain(rules, s, seat, m) if explain else None
    if found is not None:
        return found
    return GENERAL.get(
        type(m), ("not_an_action", "start an action: Build, Network, Develop, Sell, Loan or Pass")
    )


def _in(index: int, size: int) -> bool:
    return 0 <= index < size


def _build(rules: Rules, s: State, seat: int, m: mv.Build) -> Refusal | None:
    board = rules.board_of(s.side)
    if not _in(m.space, len(rules.mat.tiles)):
        return ("no_such_tile", f"mat space {m.space} does not exist")
    if m.whiskey:
        if s.whiskey[seat] < 1:
            return ("no_whiskey", "building with any card needs a whiskey, and you have none")
    elif m.card not in s.hands[seat]:
        return ("card_not_in_hand", "the card paying for a build must be in your hand")
    tile = rules.mat.tiles[m.space]
    if m.space not in rules.mat.accessible(s.mat[seat]):
        return (
            "tile_not_accessible",
            f"{tile.id} is not accessible: build or develop the tiles before it on its path",
        )
    if not tile.allowed_in_era(era_number(s)):
        return ("tile_wrong_era", f"{tile.id} cannot be built in era {era_number(s)}")
    if (m.oilfield >= 0) != (tile.build_on == "oilfield"):
        return (
            "wrong_place",
            "the Oil City is built on an oilfield, every other tile on an industry slot",
        )
    if m.oilfield < 0 and not _in(m.slot, len(board.slot_node)):
        return ("no_such_slot", f"industry slot {m.slot} does not exist")
    card = -1 if m.whiskey else m.card
    targets = build_targets(rules, s, seat, card if card >= 0 else s.hands[seat][0], m.whiskey)
    if not any(
        t.space == m.space and t.slot == m.slot and t.oilfield == m.oilfield for t in targets
    ):
        return _place_refusal(rules, s, seat, m)
    return ("cannot_afford", "you cannot pay this tile's money, resources or income cost")


def _place_refusal(rules: Rules, s: State, seat: int, m: mv.Build) -> Refusal:
    board = rules.board_of(s.side)
    tile = rules.mat.tiles[m.space]
    if tile.build_on == "oilfield":
        return (
            "oil_city_site",
            "the Oil City needs a Kerosene card (or a whiskey) and an oilfield without one, "
            "joined by a pipeline to your network",
        )
    if tile.build_on == "upgrade":
        return (
            "upgrade_target",
            f"{tile.id} replaces one of your own flipped {tile.upgrade_of} tiles, never an "
            "empty slot",
        )
    if s.slot_owner[m.slot] >= 0:
        return ("slot_taken", "that slot already holds a tile")
    if tile.industry not in board.slot_icons[m.slot]:
        return ("wrong_slot", f"that slot does not show the {tile.industry} icon")
    node = board.slot_node[m.slot]
    if era_number(s) == 1 and any(s.slot_owner[x] == seat for x in board.city_slots[node]):
        return ("one_per_city_in_era1", "in era 1 you may build only one tile in each city")
    industry = rules.industry_index[tile.industry]
    empty = [o < 0 for o in s.slot_owner]
    icons = rules.slot_industries[s.side]
    if m.slot not in build_spaces(board.city_slots[node], icons, empty, industry):
        return (
            "single_icon_slot_first",
            f"this city has an empty slot showing only the {tile.industry} icon: build there",
        )
    cdef = None if m.whiskey else rules.cards[s.side].defs[m.card]
    refused = card_refusal(
        cdef, node, industry, node in network(rules, s, seat), has_presence(s, seat),
        nameable=True, wild=m.whiskey,
    )  # fmt: skip
    if refused:
        return refused
    return GENERAL[mv.Build]


def _network(rules: Rules, s: State, seat: int, m: mv.Network) -> Refusal | None:
    data, board = rules.data, rules.board_of(s.side)
    if m.link == LIGHT:
        if s.light_trains[seat] < 1:
            return ("no_light_train", "you have no light train left in your supply")
    elif m.link not in s.link_supply[seat]:
        return ("link_not_in_supply", f"{m.link} is not in your personal supply")
    pipeline = m.link in data.pipelines
    size = len(board.routes) if pipeline else len(board.lines)
    if not _in(m.site, size):
        what = "pipeline route" if pipeline else "railroad line"
        return ("no_such_site", f"{what} {m.site} does not exist")
    net, present = network(rules, s, seat), has_presence(s, seat)
    if pipeline:
        sites = pipeline_sites(
            data, board, seat, m.link, s.route_owner, s.route_pipeline, net, present
        )
    else:
        sites = train_sites(data, board, seat, m.link, s.line_owner, s.line_link, net, present)
    if m.site not in sites:
        return (
            "link_site",
            "a link goes on an empty line or route (a replacement train also on another "
            "player's light train, a pipeline over your own reserve) touching your network",
        )
    if (m.link, m.site) not in network_options(rules, s, seat):
        return ("cannot_afford", "you cannot pay for this link's resources")
    return None


def _develop(rules: Rules, s: State, seat: int, m: mv.Develop) -> Refusal | None:
    if not _in(m.space, len(rules.mat.tiles)):
        return ("no_such_tile", f"mat space {m.space} does not exist")
    tile = rules.mat.tiles[m.space]
    if m.space not in rules.mat.accessible(s.mat[seat]):
        return ("tile_not_accessible", f"{tile.id} is not accessible on your mat")
    if m.space not in develop_spaces(rules, s, seat):
        return ("not_developable", f"{tile.id} is marked not developable in the game data")
    return ("cannot_afford", "you cannot pay one iron or steel for this develop")


def _sell(rules: Rules, s: State, seat: int, m: mv.Sell) -> Refusal | None:
    data, board = rules.data, rules.board_of(s.side)
    if not _in(m.slot, len(board.slot_node)) or s.slot_owner[m.slot] != seat:
        return ("not_your_tile", "you may sell only your own tiles")
    tile = data.mat.tiles[s.slot_tile[m.slot]]
    if not data.industries[tile.industry].sellable:
        return ("not_sellable", f"{tile.industry} is not sold: it flips when its cubes are used")
    if s.slot_flipped[m.slot]:
        return ("already_flipped", "that tile is already flipped")
    node = board.slot_node[m.slot]
    labels = board.labels(s.line_owner)
    buying = merchants_buying(data, board, labels, node, tile.industry, s.merchant_tile)
    if m.merchant not in buying:
        return (
            "merchant_not_buying",
            f"that merchant is not connected to this tile by train or shows no {tile.industry} "
            "icon",
        )
    if oil_needed(tile) > oil_available(rules, s, seat, node):
        return (
            "not_enough_oil",
            f"selling this tile needs {oil_needed(tile)} oil you cannot reach",
        )
    return None


_EXPLAIN: dict[type, Any] = {
    mv.Build: _build,
    mv.Network: _network,
    mv.Develop: _develop,
    mv.Sell: _sell,
}
