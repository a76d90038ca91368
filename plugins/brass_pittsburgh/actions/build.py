"""Build (rulebook "Build Action" steps 1-5, "Upgrading", the Oil City): a location card,
an industry card in the network, or any card and a whiskey; an accessible tile of this era on
an empty slot showing it (single-icon slots first, one per city in era 1), or an upgrade of
one's own flipped tile, or the Oil City on an oilfield piped to the network; then its money,
income levels and cubes; its cubes sold to connected markets; an already-flipped tile's
rewards at once.

The action is the family's (:class:`plugins.brass.actions.build.Build`); these are its
parts as :class:`..variant.PittsburghVariant` overrides them: the listing
(:func:`build_moves`), the card (:func:`card_refusal`), the tile and its place
(:func:`place_refusal`), the cost (:func:`tile_cost_refusal`), the effect (:func:`place`) and
the ``produce`` step selling the new tile's cubes (:class:`Produce`). Each is the hook
itself, its first argument the variant (the variant names them: no frame of their own).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plugins.brass import events as fev
from plugins.brass.actions import Refusal
from plugins.brass.cards import distinct
from plugins.brass.events import Step
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh import internal_moves as mv
from plugins.brass_pittsburgh.actions import (
    cost_refusal,
    flip_events,
    gained,
    in_range,
    income_floor,
    reward,
)
from plugins.brass_pittsburgh.building import (
    EVERY_CITY,
    NETWORK_CITIES,
    empty_places,
    has_presence,
    network,
)
from plugins.brass_pittsburgh.data import CUBES, MatTile
from plugins.brass_pittsburgh.engine import FIELD, Facts, cheapest, consumers
from plugins.brass_pittsburgh.finance import drop_income
from plugins.brass_pittsburgh.industries import already_flipped, oil_city_barrels
from plugins.brass_pittsburgh.markets import sale_plans
from plugins.brass_pittsburgh.rewards import Gains, gains
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.state import State, era_number
from plugins.brass_pittsburgh.steps import Answers, pending

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    from plugins.brass.turn import TurnResolver
    from plugins.brass.variant import Variant
    from plugins.brass_pittsburgh.move_tables import MoveTables


NOWHERE: dict[int, bool] = {}
"""A build listing's answers for cubes no place can afford (``PaymentTable.least``)."""


def _cubes_price(
    rules: Rules, s: State, seat: int, b: int, cubes: Sequence[tuple[str, int]], facts: Facts
) -> int:
    """Least money for a tile's ``cubes`` delivered to ``b`` (a ``cube`` step's consumer)."""
    if b >= 0:  # one location, the usual question
        price_of, at, price = facts.payment.cheapest, (b,), 0
        for cube, n in cubes:
            price += price_of(at, cube, n)
        return price
    return sum(
        cheapest(rules, s, seat, Step("cube", n, CUBES.index(cube), b), n, facts)
        for cube, n in cubes
    )


def _new(table: dict[int, Any], key: int) -> Any:
    """A new empty table of build moves under ``key`` (filled as soon as it is made)."""
    row = table[key] = {}
    return row


def _kept(
    affordable: Callable[[int, list[tuple[int, int, int]]], list[tuple[int, int, int]]],
    sp: int,
    dear: bool,
    sites: list[tuple[int, int, int]],
) -> list[tuple[int, int, int]]:
    return affordable(sp, sites) if dear and sites else sites


def build_moves(v: Variant, f: Any, seat: int, named: MoveTables) -> list[Any]:
    """The legal builds, from the side's move tables ``named`` (engine moves or named ones).

    The tiles whose money and income the seat can pay are found first; then each card's
    builds, in hand order: a location card's are its industries' places in its city
    (read from the side's table), an industry card's those in the network or anywhere
    (each tile's found once, when first asked), a whiskey's all of them last (the card
    rule of :func:`card_refusal`). A place is kept if the tile's cubes delivered there
    fit the budget (asked once per connected group)."""
    rules, s, facts = v.d, f.s, f
    kinds = distinct(s.hands[seat])
    if not kinds:
        return []
    scene = facts.scene
    money = s.money[seat]
    worst_cubes = rules.worst_cube_cost[s.side]
    income_ok: dict[int, bool] = {}
    # (mat space, industry, tile, its kind of place, whether its cubes may not fit)
    tiles: list[tuple[int, int, MatTile, str, bool]] = []
    for sp, industry, tile, on, price, levels in scene.spaces:
        if price > money:
            continue
        if levels:
            ok = income_ok.get(levels)
            if ok is None:
                ok = drop_income(rules.income, s.income[seat], -levels) is not None
                income_ok[levels] = ok
            if not ok:
                continue
        tiles.append((sp, industry, tile, on, price + worst_cubes[sp] > money))
    if not tiles:
        return []
    wild = s.whiskey[seat] > 0  # a whiskey builds anywhere
    scopes = rules.card_scopes[s.side][scene.present]  # (city, industries, the Oil City)
    labels = facts.labels
    tile_cubes = rules.tile_cubes
    # Per cube set and budget: whether its cubes delivered to a consumer (by connected
    # group; an oilfield by its own number) fit.
    fits: dict[tuple[tuple[tuple[str, int], ...], int], dict[int, bool]] = {}
    sourced: dict[tuple[tuple[str, int], ...], set[int]] = {}

    def affordable(sp: int, sites: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        # Not affordable wherever it goes (Vanderbilt's cubes being too dear): the
        # cheapest cubes depend on the place through its connected group alone, and
        # tiles of equal cubes and cost share the answer, asked once per group. A
        # city's group with none of these cubes free or on sale pays Vanderbilt for
        # all of them, which is over budget here: no plan to work out.
        cubes = tile_cubes[sp]
        budget = money - rules.mat.tiles[sp].cost.money
        fit = fits.get((cubes, budget))
        if fit is None:
            fit = fits[cubes, budget] = {} if facts.payment.least(cubes) <= budget else NOWHERE
        if fit is NOWHERE:  # dear everywhere: no place to price
            return []
        hot = sourced.get(cubes)
        if hot is None:
            table = facts.payment
            if len(cubes) == 1:  # most tiles need one kind of cube (the set is only read)
                hot = sourced[cubes] = table.sourced(cubes[0][0])
            else:
                hot = sourced[cubes] = set().union(*(table.sourced(c) for c, _ in cubes))
        kept = []
        for x in sites:
            city = x[0]  # a slot's city; -1 for an oilfield (the Oil City)
            if city >= 0:
                group = labels[city]
                if group not in hot:
                    continue
            else:
                group = FIELD - x[2]
            ok = fit.get(group)
            if ok is None:
                b = city if city >= 0 else group
                ok = fit[group] = _cubes_price(rules, s, seat, b, cubes, facts) <= budget
            if ok:
                kept.append(x)
        return kept

    owner = s.slot_owner
    places_of = rules.industry_places[s.side]
    city_places = rules.city_places[s.side]
    occupied = scene.occupied
    out: list[Any] = []
    made, make = named.builds, named.build
    everywhere: dict[int, list[tuple[int, int, int]]] = {}  # by mat space, when asked
    in_network: dict[int, list[tuple[int, int, int]]] = {}
    net_cities: list[int] | None = None
    for kind in kinds:
        rows = made.get(kind) or _new(made, kind)  # the card's moves by mat space, place
        where, industries, oil_city_ok = scopes[kind]
        if where >= 0:  # a location card (its city's oilfields are no places of it)
            at = city_places[kind]  # its industries' places in its city
            free = where not in occupied  # era 1: one tile of the seat's per city
            for sp, industry, tile, on, dear in tiles:
                places = at.get(industry)
                if places is None:  # not an industry of the card
                    continue
                if on == "industry_space":
                    if not free:
                        continue
                    # empty_places of one city, written out: asked per card and tile
                    sites = []
                    for x in places[0]:  # its single-icon places, or while none is empty
                        if owner[x[1]] < 0:
                            sites.append(x)
                    if not sites:
                        for x in places[1]:  # its shared ones
                            if owner[x[1]] < 0:
                                sites.append(x)
                elif on == "upgrade":
                    sites = [x for x in scene.sites(sp, industry, tile) if x[0] == where]
                else:
                    continue
                if dear and sites:
                    sites = affordable(sp, sites)
                if sites:
                    row = rows.get(sp) or _new(rows, sp)
                    for x in sites:
                        out.append(row.get(x[1]) or make(row, kind, sp, x[1], -1))
            continue
        if where != NETWORK_CITIES and where != EVERY_CITY and not oil_city_ok:
            continue  # a card reaching no city
        for sp, industry, tile, on, dear in tiles:
            if industry not in industries:
                continue
            if on == "oilfield":  # the Oil City: its oilfields are joined to the network
                if oil_city_ok:
                    sites = everywhere.get(sp)
                    if sites is None:
                        sites = everywhere[sp] = _kept(
                            affordable, sp, dear, scene.sites(sp, industry, tile)
                        )
                    if sites:
                        row = rows.get(sp) or _new(rows, sp)
                        out += [row.get(x[2]) or make(row, kind, sp, -1, x[2]) for x in sites]
                continue
            if where == NETWORK_CITIES:
                sites = in_network.get(sp)
                if sites is None:
                    if on == "industry_space":
                        if net_cities is None:
                            net_cities = sorted(scene.net - occupied)
                        found = empty_places(
                            owner, filter(None, map(places_of[industry].get, net_cities))
                        )
                    else:
                        net = scene.net
                        found = [x for x in scene.sites(sp, industry, tile) if x[0] in net]
                    sites = in_network[sp] = _kept(affordable, sp, dear, found)
            elif where == EVERY_CITY:
                sites = everywhere.get(sp)
                if sites is None:
                    sites = everywhere[sp] = _kept(
                        affordable, sp, dear, scene.sites(sp, industry, tile)
                    )
            else:
                continue
            if sites:  # most cards reach no place of most tiles
                row = rows.get(sp) or _new(rows, sp)
                out += [row.get(x[1]) or make(row, kind, sp, x[1], -1) for x in sites]
    if wild:
        wild_rows = made.get(-1) or _new(made, -1)
        for sp, industry, tile, on, dear in tiles:
            sites = everywhere.get(sp)
            if sites is None:
                sites = everywhere[sp] = _kept(
                    affordable, sp, dear, scene.sites(sp, industry, tile)
                )
            if not sites:
                continue
            row = wild_rows.get(sp) or _new(wild_rows, sp)
            if on == "oilfield":
                out += [row.get(x[2]) or make(row, -1, sp, -1, x[2]) for x in sites]
            else:
                out += [row.get(x[1]) or make(row, -1, sp, x[1], -1) for x in sites]
    return out


def card_paid(v: Variant, r: TurnResolver, m: mv.Build) -> list[Step]:
    """Build step 1 paid: the card named, or a whiskey and then any card (a ``discard``)."""
    if m.whiskey:
        r.emit(ev.WhiskeySpent(r.seat, 1))
        return [Step("discard", 1)]
    r.emit(fev.Discarded(r.seat, [m.card]))
    return []


def place(v: Variant, r: TurnResolver, m: mv.Build) -> list[Step]:
    """Build steps 3-5: the tile's income levels and money, the tile (an upgrade scores the
    tile it replaces; the Oil City takes its barrels), its cubes as steps, its own cubes
    sold (``produce``), an already-flipped tile's rewards."""
    rules, s, seat = r.d, r.s, r.seat
    tile = rules.mat.tiles[m.space]
    queue: list[Step] = []
    if tile.cost.income_levels:
        space = drop_income(rules.income, s.income[seat], -tile.cost.income_levels)
        assert space is not None
        r.emit(ev.IncomeSet(seat, space))
    if tile.cost.money:
        r.emit(fev.Paid(seat, tile.cost.money))
    if m.oilfield >= 0:
        r.emit(ev.TileTaken(seat, m.space))
        r.emit(ev.OilCityBuilt(seat, m.space, m.oilfield, oil_city_barrels(tile, 0)))
        target = FIELD - m.oilfield
    else:
        if s.slot_owner[m.slot] >= 0:  # an upgrade scores the tile it replaces
            old = rules.data.mat.tiles[s.slot_tile[m.slot]]
            r.emit_all(gained(seat, Gains(vp=old.vp)))
            r.emit(ev.TileRemoved(m.slot))
        r.emit(ev.TileTaken(seat, m.space))
        produced = sum(n for k, n in tile.produces.items() if k in CUBES)
        flipped = already_flipped(rules.data, tile)
        r.emit(
            ev.TilePlaced(seat=seat, space=m.space, slot=m.slot, cubes=produced, flipped=flipped)
        )
        target = rules.board_of(s.side).slot_node[m.slot]
    for cube, n in tile.cost.resources().items():
        queue.append(Step("cube", n, CUBES.index(cube), target))
    if m.oilfield < 0 and any(k in CUBES for k in tile.produces):
        queue.append(Step("produce", a=m.slot))
    if m.oilfield < 0 and already_flipped(rules.data, tile):
        level = rules.income.level(r.s.income[seat])
        reward(r, seat, gains(tile.flip_reward, level), queue, front=False)
    return queue


def card_refusal(v: Variant, f: Any, seat: int, m: mv.Build) -> Refusal:
    """What ``m`` names must exist (a mat space, an oilfield for the Oil City alone, a
    slot for the others), then Build step 1: the card."""
    rules, s = v.d, f.s
    board = rules.board_of(s.side)
    if not in_range(m.space, len(rules.mat.tiles)):
        return ("no_such_tile", f"mat space {m.space} does not exist")
    tile = rules.mat.tiles[m.space]
    oil_city = tile.build_on == "oilfield"
    if (m.oilfield >= 0) != oil_city or (oil_city and m.slot >= 0):
        return (
            "wrong_place",
            "the Oil City is built on an oilfield, every other tile on an industry slot",
        )
    if oil_city and not in_range(m.oilfield, len(board.oilfields)):
        return ("no_such_oilfield", f"oilfield {m.oilfield} does not exist")
    if not oil_city and not in_range(m.slot, len(board.slot_node)):
        return ("no_such_slot", f"industry slot {m.slot} does not exist")
    # a location card, an industry card, or any card plus a whiskey
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


def place_refusal(v: Variant, f: Any, seat: int, m: mv.Build) -> Refusal:
    """Build step 2: the place (an oilfield, an empty slot or an upgrade), then the tile:
    of this era and accessible on the seat's mat."""
    rules, s = v.d, f.s
    tile = rules.mat.tiles[m.space]
    found = (
        _oil_city_place(rules, s, seat, m.oilfield) if m.oilfield >= 0 else _slot(rules, s, seat, m)
    )
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
    return None


def tile_cost_refusal(v: Variant, f: Any, seat: int, m: mv.Build) -> Refusal:
    """Build step 3: the income levels, the money, the cubes delivered at the cheapest."""
    rules, s = v.d, f.s
    tile = rules.mat.tiles[m.space]
    if tile.cost.income_levels:
        found = income_floor(rules, s, seat, -tile.cost.income_levels, f"building {tile.id}")
        if found:
            return found
    board = rules.board_of(s.side)
    at = FIELD - m.oilfield if m.oilfield >= 0 else board.slot_node[m.slot]
    nodes, _ = consumers(rules, s, seat, at)
    return cost_refusal(
        rules, s, seat, tile.cost.money, rules.mat.cube_costs[m.space], nodes, -1,
        rules.worst_cube_cost[s.side][m.space],
    )  # fmt: skip


def _oil_city_place(rules: Rules, s: State, seat: int, field: int) -> Refusal:
    if s.oil_city_owner[field] >= 0:
        return ("oil_city_taken", "that oilfield already has an Oil City")
    piped, _ = consumers(rules, s, seat, FIELD - field)  # the cities piped to the oilfield
    if network(rules, s, seat).isdisjoint(piped):
        return (
            "oilfield_not_joined",
            "the Oil City goes on an oilfield joined by a pipeline to a city of your network",
        )
    return None


def _slot(rules: Rules, s: State, seat: int, m: mv.Build) -> Refusal:
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


class Produce(Answers):
    reason = pending("produce")

    def answers(self, v: Variant, s: Any, seat: int, queue: Sequence[Step]) -> list[Any]:
        return [mv.SellProduced(list(p)) for p in sale_plans_of(v.d, s, queue[0].a)]

    def resolve(self, r: TurnResolver, step: Step, queue: list[Step]) -> bool:
        plans = sale_plans_of(r.d, r.s, step.a)
        if len(plans) > 1:
            return True
        queue.pop(0)
        sell_produced(r, step.a, plans[0] if plans else ())
        return False

    def answer(self, r: TurnResolver, m: Any, queue: list[Step]) -> None:
        sell_produced(r, queue.pop(0).a, m.plan)


def sell_produced(r: TurnResolver, slot: int, plan: Sequence[int]) -> None:
    """The new tile on ``slot`` sells ``plan[i]`` cubes to the ``i``-th connected market;
    its owner gains the money and VP, and the tile flips when emptied."""
    rules, s = r.d, r.s
    board = rules.board_of(s.side)
    tile = rules.data.mat.tiles[s.slot_tile[slot]]
    (resource,) = tile.produces
    markets = board.markets_connected(board.labels(s.line_owner), board.slot_node[slot], resource)
    money = vp = sold = 0
    for m, k in zip(markets, plan, strict=True):
        if k:
            got = rules.ladders[s.side][m][resource].sell(s.market_cubes[m][resource], k)
            r.emit(ev.CubesSold(slot, m, resource, k))
            money, vp, sold = money + got.money, vp + got.vp, sold + k
    r.emit_all(gained(s.slot_owner[slot], Gains(money=money, vp=vp)))
    if sold and s.slot_cubes[slot] == 0:
        r.emit_all(flip_events(rules, s, slot))


def sale_plans_of(rules: Rules, s: State, slot: int) -> list[tuple[int, ...]]:
    board = rules.board_of(s.side)
    tile = rules.data.mat.tiles[s.slot_tile[slot]]
    (resource,) = tile.produces
    markets = board.markets_connected(board.labels(s.line_owner), board.slot_node[slot], resource)
    ladders = rules.ladders[s.side]
    vacancies = [ladders[m][resource].vacancies(s.market_cubes[m][resource]) for m in markets]
    return sale_plans(vacancies, s.slot_cubes[slot])
