"""Why a move is refused: a code and a sentence naming the broken rule.

``decide`` accepts exactly the listed moves (:mod:`.engine`); :func:`diagnose` only explains
a refusal. It is one pure function for every action and every follow-up of an action (a
second link is a link, a develop offered again is a develop, a further or bonus sale is a
sale): it checks the action's conditions in the rulebook's order (the card, where the tile
or link goes, then the cost) and names the first one the move breaks. When none is found the
action's general rule (:data:`GENERAL`) is the answer. Nothing here runs unless a move is
refused, so listing speed is untouched. The codes are documented in CLIENTS.md ("Refusals").
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from plugins.brass.events import Step
from plugins.brass_pittsburgh import internal_moves as mv
from plugins.brass_pittsburgh.building import develop_spaces, has_presence, network
from plugins.brass_pittsburgh.choices import link_cost, oil_available, payment_table
from plugins.brass_pittsburgh.finance import drop_income
from plugins.brass_pittsburgh.links import LIGHT, site_rule
from plugins.brass_pittsburgh.rewards import claimable_quality_rewards
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.selling import oil_needed
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
NOT_AN_ACTION: Refusal = (
    "not_an_action",
    "start an action: Build, Network, Develop, Sell, Loan or Pass",
)
ACTION_OF: dict[type, type] = {
    mv.Build: mv.Build,
    mv.Network: mv.Network,
    mv.SecondLink: mv.Network,
    mv.Develop: mv.Develop,
    mv.DevelopAlso: mv.Develop,
    mv.FreeDevelop: mv.Develop,
    mv.Sell: mv.Sell,
    mv.SellAlso: mv.Sell,
    mv.BonusSell: mv.Sell,
    mv.Loan: mv.Loan,
}
"""The action whose rules a move (a first move or a follow-up) must meet."""
ANSWERS: dict[str, type] = {
    "more_link": mv.SecondLink,
    "more_develop": mv.DevelopAlso,
    "free_develop": mv.FreeDevelop,
    "more_sell": mv.SellAlso,
    "bonus_sell": mv.BonusSell,
    "quality": mv.ClaimQuality,
}
"""The move that takes up each offer (besides declining it)."""


def action_refusal(rules: Rules, s: State, seat: int, m: Any) -> Refusal:
    """Why a first move that is not listed is refused."""
    action = ACTION_OF.get(type(m))
    if action is None or action is not type(m):
        return NOT_AN_ACTION
    return diagnose(rules, s, seat, m) or GENERAL[action]


def offer_refusal(rules: Rules, s: State, seat: int, m: Any) -> Refusal | None:
    """Why an answer of the right kind to the pending offer is refused (``None`` when ``m``
    does not take up that offer at all)."""
    if ANSWERS.get(s.pending[0].kind) is not type(m):
        return None
    if isinstance(m, mv.ClaimQuality):
        return _quality(rules, s, seat, m, s.pending[0].n) or (
            "quality_not_allowed",
            "claim one face-up Quality Rewards tile whose stars your sale (plus whiskey) meets",
        )
    return diagnose(rules, s, seat, m, s.pending) or GENERAL[ACTION_OF[type(m)]]


def diagnose(
    rules: Rules, s: State, seat: int, m: Any, queue: Sequence[Step] = ()
) -> Refusal | None:
    """The first rule ``m`` breaks on ``s`` for ``seat``, or ``None`` if none is found.
    ``queue``: the pending steps when ``m`` answers an offer. Pure: ``s`` is not changed."""
    if isinstance(m, mv.Build):
        return _build(rules, s, seat, m)
    if isinstance(m, mv.Network | mv.SecondLink):
        extra = rules.data.constants.second_link_extra_money if queue else 0
        return _link(rules, s, seat, m.link, m.site, extra)
    if isinstance(m, mv.Develop | mv.DevelopAlso | mv.FreeDevelop):
        return _develop(rules, s, seat, m.space, paid=not isinstance(m, mv.FreeDevelop))
    if isinstance(m, mv.Sell | mv.SellAlso | mv.BonusSell):
        selling = {st.a for st in queue if st.kind == "flip"}
        return _sell(rules, s, seat, m.slot, m.merchant, selling)
    if isinstance(m, mv.Loan):
        return income_floor(rules, s, seat, rules.data.constants.loan_income_levels, "a loan")
    return None


def _in(index: int, size: int) -> bool:
    return 0 <= index < size


# --- build ------------------------------------------------------------------------------------


def _build(rules: Rules, s: State, seat: int, m: mv.Build) -> Refusal | None:
    board = rules.board_of(s.side)
    if not _in(m.space, len(rules.mat.tiles)):
        return ("no_such_tile", f"mat space {m.space} does not exist")
    tile = rules.mat.tiles[m.space]
    oil_city = tile.build_on == "oilfield"
    if (m.oilfield >= 0) != oil_city or (oil_city and m.slot >= 0):
        return (
            "wrong_place",
            "the Oil City is built on an oilfield, every other tile on an industry slot",
        )
    if oil_city and not _in(m.oilfield, len(board.oilfields)):
        return ("no_such_oilfield", f"oilfield {m.oilfield} does not exist")
    if not oil_city and not _in(m.slot, len(board.slot_node)):
        return ("no_such_slot", f"industry slot {m.slot} does not exist")
    # Step 1: the card.
    found = _build_card(rules, s, seat, m, oil_city)
    if found:
        return found
    # Step 2: the tile and its place.
    found = _oil_city_place(rules, s, seat, m.oilfield) if oil_city else _slot(rules, s, seat, m)
    if found:
        return found
    era = era_number(s)
    if not tile.allowed_in_era(era):
        return ("tile_wrong_era", f"{tile.id} may not be built in era {era}")
    if m.space not in rules.mat.accessible(s.mat[seat]):
        return (
            "tile_not_accessible",
            f"{tile.id} is not accessible: build or develop the tiles before it on its path",
        )
    # Step 3: the cost.
    if tile.cost.income_levels:
        found = income_floor(rules, s, seat, -tile.cost.income_levels, f"building {tile.id}")
        if found:
            return found
    if oil_city:
        field = m.oilfield
        nodes = {
            board.route_city[r]
            for r, owner in enumerate(s.route_owner)
            if owner >= 0 and board.route_oilfield[r] == field
        }
    else:
        nodes = {board.slot_node[m.slot]}
    return _cost(rules, s, seat, tile.cost.money, rules.mat.cube_costs[m.space], nodes)


def _build_card(rules: Rules, s: State, seat: int, m: mv.Build, oil_city: bool) -> Refusal | None:
    """Rulebook Build step 1: a location card, an industry card, or any card plus a whiskey."""
    board = rules.board_of(s.side)
    tile = rules.mat.tiles[m.space]
    if m.whiskey:
        if m.card >= 0:
            return ("build_card", "a build pays with a card or with a whiskey plus any card")
        if s.whiskey[seat] < 1:
            return ("no_whiskey", "building with any card needs a whiskey, and you have none")
        if not s.hands[seat]:
            return ("no_card", "building with a whiskey still discards a card, and you have none")
        return None  # any card plus a whiskey is any location or industry card
    if m.card not in s.hands[seat]:
        return ("card_not_in_hand", "the card paying for a build must be in your hand")
    cdef = rules.cards[s.side].defs[m.card]
    builds = rules.card_industries[s.side][m.card]
    industry = rules.industry_index[tile.industry]
    if cdef.kind == "location":
        if oil_city:
            return (
                "oil_city_card",
                "a location card names a city, never an oilfield: the Oil City needs its "
                "industry card (or a whiskey)",
            )
        if cdef.location != board.slot_node[m.slot]:
            return ("card_wrong_location", "a location card builds only in the city it names")
        if industry not in builds:
            return (
                "card_wrong_industry",
                f"a location card builds only the industries its city shows, not {tile.industry}",
            )
        return None
    if industry not in builds:
        return (
            "card_wrong_industry",
            f"an industry card builds only the industries of its path, not {tile.industry}",
        )
    if oil_city:
        return None  # the oilfield's own rule (a pipeline to your network) follows
    if has_presence(s, seat) and board.slot_node[m.slot] not in network(rules, s, seat):
        return (
            "not_in_network",
            "an industry card builds only in a city of your network (anywhere only while you "
            "have no tiles on the board)",
        )
    return None


def _oil_city_place(rules: Rules, s: State, seat: int, field: int) -> Refusal | None:
    board = rules.board_of(s.side)
    if s.oil_city_owner[field] >= 0:
        return ("oil_city_taken", "that oilfield already has an Oil City")
    net = network(rules, s, seat)
    joined = any(
        owner >= 0 and board.route_oilfield[r] == field and board.route_city[r] in net
        for r, owner in enumerate(s.route_owner)
    )
    if not joined:
        return (
            "oilfield_not_joined",
            "the Oil City goes on an oilfield joined by a pipeline to a city of your network",
        )
    return None


def _slot(rules: Rules, s: State, seat: int, m: mv.Build) -> Refusal | None:
    """Rulebook Build step 2 for a tile on an industry slot (upgrades included)."""
    data, board = rules.data, rules.board_of(s.side)
    tile = rules.mat.tiles[m.space]
    slot = m.slot
    if tile.build_on == "upgrade":
        if s.slot_owner[slot] < 0:
            return (
                "upgrade_on_empty_slot",
                f"{tile.id} is built only by upgrading one of your tiles, never on an empty slot",
            )
        if s.slot_owner[slot] != seat:
            return ("upgrade_not_yours", "an upgrade replaces one of your own tiles only")
        old = data.mat.tiles[s.slot_tile[slot]]
        if data.industries[old.industry].path != tile.upgrade_of:
            return (
                "upgrade_wrong_industry",
                f"{tile.id} upgrades a {tile.upgrade_of} tile, not a {old.industry} tile",
            )
        if not s.slot_flipped[slot]:
            return ("upgrade_not_flipped", "the tile an upgrade replaces must already be flipped")
        return None
    if s.slot_owner[slot] >= 0:
        return ("slot_taken", "that slot already holds a tile")
    industry = rules.industry_index[tile.industry]
    icons = rules.slot_industries[s.side]
    if industry not in icons[slot]:
        return ("wrong_slot", f"that slot does not show the {tile.industry} icon")
    node = board.slot_node[slot]
    single = [
        x
        for x in board.city_slots[node]
        if s.slot_owner[x] < 0 and icons[x] == [industry] and x != slot
    ]
    if single and icons[slot] != [industry]:
        return (
            "single_icon_slot_first",
            f"this city has an empty slot showing only the {tile.industry} icon: build there",
        )
    if era_number(s) == 1 and any(s.slot_owner[x] == seat for x in board.city_slots[node]):
        return ("one_per_city_in_era1", "in era 1 you may build only one tile in each city")
    return None


# --- costs ------------------------------------------------------------------------------------


def income_floor(rules: Rules, s: State, seat: int, levels: int, what: str) -> Refusal | None:
    if drop_income(rules.income, s.income[seat], levels) is None:
        return (
            "income_floor",
            f"{what} would take your income level below -10 (it costs {levels} levels)",
        )
    return None


def _cost(
    rules: Rules,
    s: State,
    seat: int,
    money: int,
    cubes: Iterable[tuple[str, int]],
    nodes: Iterable[int],
    exclude_line: int = -1,
) -> Refusal | None:
    """Money first, then the cheapest delivery of each cube (Vanderbilt reaches anywhere, so
    a cube always has a source: what can fail is the price)."""
    have = s.money[seat]
    if money > have:
        return ("cannot_afford", f"this costs ${money} and you have ${have}")
    cubes = list(cubes)
    if not cubes:
        return None
    table = payment_table(rules, s, seat)
    nodes = sorted(nodes)
    prices = {cube: table.cheapest(nodes, cube, n, exclude_line) for cube, n in cubes}
    if money + sum(prices.values()) > have:
        named = ", ".join(f"{n} {cube} (${prices[cube]})" for cube, n in cubes)
        return (
            "resources_unaffordable",
            f"with ${money} to pay, you cannot also buy {named} delivered at the cheapest "
            f"(markets or Vanderbilt): you have ${have}",
        )
    return None


# --- network ----------------------------------------------------------------------------------


def _link(rules: Rules, s: State, seat: int, link: str, site: int, extra: int) -> Refusal | None:
    """Rulebook Network step 2 (and step 3: a second link costs ``extra`` money more)."""
    data, board = rules.data, rules.board_of(s.side)
    if link == LIGHT:
        if s.light_trains[seat] < 1:
            return ("no_light_train", "you have no light train left in your supply")
    elif link not in s.link_supply[seat]:
        return ("link_not_in_supply", f"{link} is not in your personal supply")
    pipeline, special = site_rule(data, link)
    size = len(board.routes) if pipeline else len(board.lines)
    if not _in(site, size):
        what = "pipeline route" if pipeline else "railroad line"
        return ("no_such_site", f"{what} {site} does not exist")
    net = network(rules, s, seat)
    if pipeline:
        owner = s.route_owner[site]
        swap = owner == seat and data.pipelines[s.route_pipeline[site]].type == "reserve"
        if owner >= 0 and not swap:
            return ("route_taken", "a pipeline goes on an empty route (or over your own reserve)")
        if swap and special:
            return ("reserve_over_reserve", "a reserve pipeline may not replace a reserve one")
        near = swap or board.route_city[site] in net
        ends: tuple[int, ...] = (board.route_city[site],)
    else:
        owner = s.line_owner[site]
        if owner >= 0 and not special:
            return ("line_taken", "a train goes on an empty railroad line")
        if owner >= 0 and (owner == seat or s.line_link[site] != LIGHT):
            return (
                "replace_not_allowed",
                "a replacement train replaces only another player's light train",
            )
        ends = tuple(board.line_nodes[site])
        near = any(e in net for e in ends)
    if not near and has_presence(s, seat):
        return (
            "link_not_in_network",
            "a link must touch a location of your network (anywhere only while you have no "
            "tiles on the board)",
        )
    cost = link_cost(rules, link)
    cubes = cost.resources().items()
    return _cost(rules, s, seat, cost.money + extra, cubes, ends, -1 if pipeline else site)


# --- develop ----------------------------------------------------------------------------------


def _develop(rules: Rules, s: State, seat: int, space: int, paid: bool) -> Refusal | None:
    if not _in(space, len(rules.mat.tiles)):
        return ("no_such_tile", f"mat space {space} does not exist")
    tile = rules.mat.tiles[space]
    if space not in rules.mat.accessible(s.mat[seat]):
        return ("tile_not_accessible", f"{tile.id} is not accessible on your mat")
    if space not in develop_spaces(rules, s, seat):
        return ("not_developable", f"{tile.id} is marked not developable in the game data")
    if not paid:
        return None
    table = payment_table(rules, s, seat)
    nodes = sorted(network(rules, s, seat))
    price = min(table.cheapest(nodes, metal, 1) for metal in ("iron", "steel"))
    if price > s.money[seat]:
        return (
            "resources_unaffordable",
            f"a develop costs one iron or steel, ${price} at the cheapest, and you have "
            f"${s.money[seat]}",
        )
    return None


# --- sell -------------------------------------------------------------------------------------


def _sell(
    rules: Rules, s: State, seat: int, slot: int, merchant: int, selling: set[int]
) -> Refusal | None:
    data, board = rules.data, rules.board_of(s.side)
    if not _in(slot, len(board.slot_node)) or s.slot_owner[slot] != seat:
        return ("not_your_tile", "you may sell only your own tiles")
    tile = data.mat.tiles[s.slot_tile[slot]]
    if not data.industries[tile.industry].sellable:
        return ("not_sellable", f"{tile.industry} is not sold: it flips when its cubes are used")
    if s.slot_flipped[slot]:
        return ("already_flipped", "that tile is already flipped")
    if slot in selling:
        return ("already_in_sale", "that tile is already part of this sale")
    if not _in(merchant, len(s.merchant_tile)) or not s.merchant_tile[merchant]:
        return ("no_merchant", "there is no merchant tile on that space")
    if tile.industry not in data.merchant_tiles[s.merchant_tile[merchant]].accepts:
        return ("merchant_wrong_icon", f"that merchant shows no {tile.industry} icon")
    labels = board.labels(s.line_owner)
    if labels[board.merchant_spaces[merchant][0]] != labels[board.slot_node[slot]]:
        return (
            "merchant_not_connected",
            "the tile sold must be connected to the merchant by train links (anyone's)",
        )
    need = oil_needed(tile)
    if need > oil_available(rules, s, seat, board.slot_node[slot]):
        return (
            "not_enough_oil",
            f"selling this tile needs {need} oil, more than reaches it through pipelines "
            "(and your oil trains)",
        )
    return None


def _quality(rules: Rules, s: State, seat: int, m: mv.ClaimQuality, stars: int) -> Refusal | None:
    if not _in(m.index, len(s.quality_rewards)) or not s.quality_faceup[m.index]:
        return ("quality_reward_taken", "that Quality Rewards tile is not face up")
    tile = rules.data.quality_rewards[s.quality_rewards[m.index]]
    if not claimable_quality_rewards(stars, s.whiskey[seat], [tile]):
        return (
            "not_enough_stars",
            f"that tile needs {tile.stars_required} stars; your sale shows {stars} and each "
            f"of your {s.whiskey[seat]} whiskey adds one",
        )
    return None
