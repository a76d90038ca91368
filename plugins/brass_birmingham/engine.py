"""The rules: one refusal check per action, shared by ``decide`` and ``legal_moves``.

Every check returns ``None`` when the move is allowed or a ``(code, sentence)`` refusal.
``legal_moves`` generates candidates and keeps those the same checks accept; ``decide``
raises the refusal. A check made of parts (a build: tile, space, cost, card) is asked part
by part in listings, each part once for all the candidates it settles, and candidates are
generated only where cheap necessary conditions hold (a card reaches the location, a link
touches the network): most candidates are never built, so few refusals are.

Multi-part actions continue through :class:`Resolver`, which resolves the steps that leave
no choice and stops (an ``Awaiting`` event) at the first that does; the options of a
waiting step come from :func:`step_options`, again shared by both paths.
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from core.errors import IllegalMove
from core.game import SYSTEM
from plugins.brass import resolver as family
from plugins.brass.build import (
    EVERY_LOCATION,
    NETWORK_LOCATIONS,
    build_spaces,
    card_reach,
    card_refusal,
)
from plugins.brass.cards import distinct
from plugins.brass.graph import nearest
from plugins.brass.mat import EMPTY
from plugins.brass.moves import EndEra
from plugins.brass.scoring import link_icons, link_points
from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham import internal_moves as mv
from plugins.brass_birmingham import moves as pm
from plugins.brass_birmingham.data import BREWERY, COAL, INDUSTRIES, IRON, SELLABLE, Birmingham
from plugins.brass_birmingham.names import Names
from plugins.brass_birmingham.state import CANAL, PLAY, RAIL, State, apply

Refusal = tuple[str, str] | None
ERA_NAMES = ("canal", "rail")
RESOURCE_STEPS = frozenset({"coal", "link_coal", "iron", "beer", "rail_beer"})
OFFER_STEPS = frozenset({"more_link", "more_sell", "more_develop", "free_develop"})
MERCHANT_BEER = -1
"""Beer source token for the merchant's own barrel."""


class Ctx:
    """Facts derived from one state, computed on demand (one per decide/legal_moves call).

    A link about to be placed joins the components of its locations, so "connected to the
    new link" is "connected to any of its locations": no graph is rebuilt per candidate."""

    def __init__(self, d: Birmingham, s: State) -> None:
        self.d, self.s = d, s
        self.comp = d.graph.labels(s.link_owner)
        self._merchant_comps = {self.comp[m] for m in d.merchant_nodes}
        self._networks: dict[int, set[int]] = {}
        self._presence: dict[int, bool] = {}
        self._links: dict[int, int] = {}
        self._coal: dict[int, int] | None = None
        self._iron = -1
        self._spaces: dict[tuple[int, int], list[int]] = {}

    def build_spaces(self, loc: int, ind: int) -> list[int]:
        """The empty spaces of ``loc`` where ``ind`` may be built (single-icon rule)."""
        found = self._spaces.get((loc, ind))
        if found is None:
            d = self.d
            found = self._spaces[loc, ind] = build_spaces(
                d.loc_slots[loc], d.slot_icons, self.s.slot_owner, ind
            )
        return found

    def presence(self, seat: int) -> bool:
        """Whether the seat has any industry or link on the board."""
        found = self._presence.get(seat)
        if found is None:
            found = self._presence[seat] = seat in self.s.slot_owner or seat in self.s.link_owner
        return found

    def network(self, seat: int) -> set[int]:
        net = self._networks.get(seat)
        if net is None:
            s, d = self.s, self.d
            nodes = [d.slot_loc[i] for i, o in enumerate(s.slot_owner) if o == seat]
            net = self._networks[seat] = d.graph.network(nodes, s.link_owner, seat)
        return net

    def links_placed(self, seat: int) -> int:
        """The seat's links on the board (of its limited supply of link tiles)."""
        found = self._links.get(seat)
        if found is None:
            found = self._links[seat] = self.s.link_owner.count(seat)
        return found

    def comps(self, nodes: Sequence[int]) -> set[int]:
        return {self.comp[n] for n in nodes}

    def reaches_merchant(self, nodes: Sequence[int]) -> bool:
        if len(nodes) == 1:
            return self.comp[nodes[0]] in self._merchant_comps
        return any(self.comp[n] in self._merchant_comps for n in nodes)

    def board_coal(self, nodes: Sequence[int]) -> int:
        """Coal on unflipped mines connected to any of ``nodes``."""
        if self._coal is None:
            self._count_cubes()
        assert self._coal is not None
        if len(nodes) == 1:
            return self._coal.get(self.comp[nodes[0]], 0)
        return sum(self._coal.get(c, 0) for c in self.comps(nodes))

    def board_iron(self) -> int:
        """Iron on unflipped works anywhere (iron needs no connection)."""
        if self._iron < 0:
            self._count_cubes()
        return self._iron

    def _count_cubes(self) -> None:
        """Coal per connected group and iron on the board, in one pass."""
        s, comp, slot_loc = self.s, self.comp, self.d.slot_loc
        coal: dict[int, int] = {}
        iron = 0
        for slot, cubes in enumerate(s.slot_cubes):
            if cubes:
                ind = s.slot_ind[slot]
                if ind == COAL:
                    c = comp[slot_loc[slot]]
                    coal[c] = coal.get(c, 0) + cubes
                elif ind == IRON:
                    iron += cubes
        self._coal, self._iron = coal, iron

    def beer_sources(self, seat: int, nodes: Sequence[int]) -> list[int]:
        """Breweries with beer ``seat`` may use at ``nodes``: its own anywhere, opponents'
        connected to one of ``nodes``."""
        s, d = self.s, self.d
        comps = self.comps(nodes)
        return [
            slot
            for slot, ind in enumerate(s.slot_ind)
            if ind == BREWERY
            and s.slot_cubes[slot]
            and (s.slot_owner[slot] == seat or self.comp[d.slot_loc[slot]] in comps)
        ]

    def beer(self, seat: int, nodes: Sequence[int], merchant: int = -1) -> int:
        """Barrels available: :meth:`beer_sources` plus merchant space ``merchant``'s."""
        total = self.s.merchant_beer[merchant] if merchant >= 0 else 0
        return total + sum(self.s.slot_cubes[i] for i in self.beer_sources(seat, nodes))


def _name(ind: int) -> str:
    return INDUSTRIES[ind]


# --- checks -------------------------------------------------------------------------------


turn_refusal = family.turn_refusal


def cost_floor(d: Birmingham, s: State, ctx: Ctx, money: int, iron: int) -> int:
    """The least a cost of ``money`` and ``iron`` (plus any coal) can come to anywhere:
    iron needs no connection, and the coal may all come free from a connected mine."""
    short = iron - ctx.board_iron() if iron else 0
    return money + d.iron_market.buy_cost(s.iron_market, short) if short > 0 else money


def cost_refusal(
    d: Birmingham,
    s: State,
    ctx: Ctx,
    seat: int,
    nodes: Sequence[int],
    money: int,
    coal: int,
    iron: int,
) -> Refusal:
    """Can ``seat`` pay ``money`` plus ``coal`` delivered to ``nodes`` and ``iron``? Board
    resources are free; what is missing comes from the markets (coal only with a
    connection to a merchant location)."""
    total = cost_floor(d, s, ctx, money, iron)
    if coal:
        short = coal - ctx.board_coal(nodes)
        if short > 0:
            if not ctx.reaches_merchant(nodes):
                return (
                    "no_coal",
                    "coal must come from a connected mine, or from the market through a "
                    "connection to a merchant location; neither is available",
                )
            total += d.coal_market.buy_cost(s.coal_market, short)
    if total > s.money[seat]:
        return ("cannot_afford", f"this costs £{total} with resources; you have £{s.money[seat]}")
    return None


def place_refusal(d: Birmingham, s: State, ctx: Ctx, seat: int, slot: int, ind: int) -> Refusal:
    """Everything about building ``ind`` on ``slot`` except the card: the tile, the space,
    the cost (three parts, so a listing can ask each once for all the spaces it covers)."""
    if not 0 <= slot < d.n_slots or not 0 <= ind < len(INDUSTRIES):
        return ("bad_space", "no such build space or industry")
    if ind not in d.slot_icons[slot]:
        return ("wrong_space", f"this space does not show the {_name(ind)} icon")
    level = d.stacks.top_level(ind, s.mat[seat][ind])
    return (
        tile_refusal(d, s, ind, level)
        or space_refusal(d, s, ctx, seat, slot, ind, level)
        or tile_cost_refusal(d, s, ctx, seat, d.slot_loc[slot], ind, level)
    )


def tile_refusal(d: Birmingham, s: State, ind: int, level: int) -> Refusal:
    """Whether the seat's lowest ``ind`` tile (of ``level``; ``EMPTY``: none left) may be
    built now."""
    if level == EMPTY:
        return ("no_tile_left", f"you have no {_name(ind)} tiles left")
    if not d.tile(ind, level).buildable(s.era):
        return (
            "tile_wrong_era",
            f"your lowest {_name(ind)} tile (level {level}) cannot be built in the "
            f"{ERA_NAMES[s.era]} era; develop it away first",
        )
    return None


def space_refusal(
    d: Birmingham, s: State, ctx: Ctx, seat: int, slot: int, ind: int, level: int
) -> Refusal:
    """Whether a level ``level`` tile of ``ind`` may go on ``slot`` (which shows its icon):
    an empty space the single-icon rule allows, or an overbuild; one industry per location
    in the canal era."""
    loc = d.slot_loc[slot]
    owner = s.slot_owner[slot]
    if owner < 0:
        if slot not in ctx.build_spaces(loc, ind):
            return (
                "single_icon_space_first",
                f"this location has an empty space showing only the {_name(ind)} icon: "
                "build there first",
            )
    else:
        if s.slot_ind[slot] != ind:
            return ("overbuild_other_industry", "you may only overbuild the same industry")
        if level <= s.slot_level[slot]:
            return ("overbuild_not_higher", "an overbuild needs a higher-level tile")
        if owner != seat:
            if ind not in (COAL, IRON):
                return (
                    "overbuild_opponent",
                    "only an opponent's coal mine or iron works may be overbuilt",
                )
            if ind == COAL:
                left = s.coal_market + sum(
                    s.slot_cubes[i] for i, k in enumerate(s.slot_ind) if k == COAL
                )
            else:
                left = s.iron_market + ctx.board_iron()
            if left:
                return (
                    "overbuild_resource_left",
                    f"an opponent's {_name(ind)} tile may be overbuilt only when no "
                    f"{'coal' if ind == COAL else 'iron'} is left on the board or the market",
                )
    if s.era == CANAL:
        for other in d.loc_slots[loc]:
            if other != slot and s.slot_owner[other] == seat:
                return (
                    "one_industry_per_location",
                    "in the canal era you may have only one industry in each location",
                )
    return None


def tile_cost_refusal(
    d: Birmingham, s: State, ctx: Ctx, seat: int, loc: int, ind: int, level: int
) -> Refusal:
    """Can the seat pay for its ``ind`` tile of ``level`` built at ``loc``? (The answer
    depends on the location only through its connected group.)"""
    tile = d.tile(ind, level)
    return cost_refusal(d, s, ctx, seat, (loc,), tile.money, tile.coal, tile.iron)


def build_card_refusal(
    d: Birmingham, s: State, ctx: Ctx, seat: int, card: int, slot: int, ind: int
) -> Refusal:
    loc = d.slot_loc[slot]
    return card_refusal(
        d.cards.defs[card], loc, ind, loc in ctx.network(seat), ctx.presence(seat),
        d.locations[loc].kind == "town",
    )  # fmt: skip


def build_refusal(d: Birmingham, s: State, ctx: Ctx, seat: int, m: mv.Build) -> Refusal:
    if not 0 <= m.card < len(d.cards) or m.card not in s.hands[seat]:
        return ("card_not_in_hand", "you do not hold that card")
    if not 0 <= m.slot < d.n_slots or not 0 <= m.industry < len(INDUSTRIES):
        return ("bad_space", "no such build space or industry")
    return build_card_refusal(d, s, ctx, seat, m.card, m.slot, m.industry) or place_refusal(
        d, s, ctx, seat, m.slot, m.industry
    )


def link_money(d: Birmingham, s: State, second: bool = False) -> int:
    """The money a link costs besides its coal: a canal, a rail, or a second rail's extra."""
    r = d.rules
    if s.era == CANAL:
        return r.canal_link_cost
    return r.double_rail_cost - r.rail_link_cost if second else r.rail_link_cost


def link_refusal(
    d: Birmingham, s: State, ctx: Ctx, seat: int, link: int, second: bool = False
) -> Refusal:
    if not 0 <= link < d.n_links:
        return ("bad_link", "no such link line")
    if s.link_owner[link] >= 0:
        return ("link_taken", "that line already carries a link")
    r = d.rules
    # a second rail counts the first, already on the board
    if ctx.links_placed(seat) >= r.link_tiles:
        return ("no_link_tiles", f"you have placed all {r.link_tiles} of your link tiles")
    if not (d.link_rail if s.era == RAIL else d.link_canal)[link]:
        return ("link_wrong_era", f"no {ERA_NAMES[s.era]} link may be built on this line")
    net = ctx.network(seat)
    if ctx.presence(seat) and not any(n in net for n in d.link_nodes[link]):
        return ("link_not_in_network", "a new link must touch a location of your network")
    money = link_money(d, s, second)
    if s.era == CANAL:
        if s.money[seat] < money:
            return ("cannot_afford", f"a canal costs £{money}")
        return None
    # the rail is placed before its coal is found: the line joins its locations' networks
    nodes = d.link_nodes[link]
    refusal = cost_refusal(d, s, ctx, seat, nodes, money, r.coal_per_rail, 0)
    if refusal or not second:
        return refusal
    if ctx.beer(seat, nodes) < r.double_rail_beer:
        return (
            "no_beer_for_double_rail",
            "a double rail needs beer from your brewery or a brewery connected to the "
            "second rail (merchant beer does not count)",
        )
    return None


def develop_refusal(
    d: Birmingham, s: State, ctx: Ctx, seat: int, ind: int, free: bool = False
) -> Refusal:
    return develop_tile_refusal(d, s, seat, ind) or (None if free else develop_cost_refusal(
        d, s, ctx, seat
    ))  # fmt: skip


def develop_tile_refusal(d: Birmingham, s: State, seat: int, ind: int) -> Refusal:
    """Whether the seat's lowest ``ind`` tile may be developed away."""
    if not 0 <= ind < len(INDUSTRIES):
        return ("bad_industry", "no such industry")
    level = d.stacks.top_level(ind, s.mat[seat][ind])
    if level == EMPTY:
        return ("no_tile_left", f"you have no {_name(ind)} tiles left")
    if not d.tile(ind, level).develop:
        return (
            "cannot_develop",
            f"your lowest {_name(ind)} tile (level {level}) shows the no-development icon: "
            "it must be built",
        )
    return None


def develop_cost_refusal(d: Birmingham, s: State, ctx: Ctx, seat: int) -> Refusal:
    """Whether the seat can pay a development's iron (the same for every tile)."""
    return cost_refusal(d, s, ctx, seat, (), 0, 0, 1)


def sell_refusal(d: Birmingham, s: State, ctx: Ctx, seat: int, slot: int, merchant: int) -> Refusal:
    if not 0 <= slot < d.n_slots or not 0 <= merchant < d.n_merchants:
        return ("bad_sale", "no such build space or merchant space")
    if s.slot_owner[slot] != seat:
        return ("not_your_industry", "you may sell only your own industries")
    ind = s.slot_ind[slot]
    if ind not in SELLABLE:
        return ("not_sellable", "only cotton mills, manufacturers and potteries are sold")
    if s.slot_flipped[slot]:
        return ("already_sold", "that industry is already flipped")
    tile = s.merchant_tile[merchant]
    if tile < 0 or ind not in d.merchant_accepts[tile]:
        return ("merchant_refuses", f"that merchant does not buy {_name(ind)}")
    loc = d.slot_loc[slot]
    if ctx.comp[loc] != ctx.comp[d.merchant_loc[merchant]]:
        return ("merchant_not_connected", "the industry is not connected to that merchant")
    need = d.tile(ind, s.slot_level[slot]).beer
    if need > ctx.beer(seat, (loc,), merchant):
        return (
            "not_enough_beer",
            f"this sale needs {need} beer from your breweries, connected breweries or "
            "the merchant's barrel",
        )
    return None


def loan_refusal(d: Birmingham, s: State, seat: int) -> Refusal:
    if d.income.drop_levels(s.income[seat], d.rules.loan_levels) is None:
        return ("loan_below_floor", "a loan may not take your income below level -10")
    return None


def scout_refusal(d: Birmingham, s: State, seat: int) -> Refusal:
    hand = s.hands[seat]
    if d.cards.wild_location in hand or d.cards.wild_industry in hand:
        return ("scout_holding_wild", "you cannot scout while holding a wild card")
    if len(hand) < 3:
        return ("scout_needs_three_cards", "scouting discards three cards")
    if min(s.wild_supply) < 1:
        return ("no_wild_cards", "no wild card is left in the supply")
    return None


def action_refusal(d: Birmingham, s: State, ctx: Ctx, seat: int, m: Any) -> Refusal:
    """The check for an action-starting move (the first move of an action)."""
    t = type(m)
    if t is mv.Build:
        return build_refusal(d, s, ctx, seat, m)
    if t is mv.Network:
        return link_refusal(d, s, ctx, seat, m.link)
    if t is mv.Develop:
        return develop_refusal(d, s, ctx, seat, m.industry)
    if t is mv.Sell:
        return sell_refusal(d, s, ctx, seat, m.slot, m.merchant)
    if t is mv.Loan:
        return loan_refusal(d, s, seat)
    if t is mv.Scout:
        return scout_refusal(d, s, seat)
    if t is mv.Pass:
        return None
    if t is mv.SecondLink:
        blocked = second_rail_blocker(d, s, ctx, seat, first_laid=True)
        why = "" if blocked is None else f"; none is possible now: {blocked[1]} ({blocked[0]})"
        return (
            "no_second_rail",
            "a second rail is offered right after the first rail of a "
            f"network action, while one is possible{why}",
        )
    return ("not_an_action", "this move continues an action; none is in progress")


def second_rail_blocker(
    d: Birmingham, s: State, ctx: Ctx, seat: int, first_laid: bool = False
) -> tuple[str, str] | None:
    """The rule that leaves ``seat`` no second rail on today's board, or ``None`` if one
    could follow: the refusal (:func:`link_refusal`) most of the rail lines touching its
    network share. Shown before the first rail (the view's ``double_rail``) and, with
    ``first_laid``, in the refusal of a ``second_link`` sent when none is offered."""
    r = d.rules
    if s.era != RAIL:
        return ("link_wrong_era", "a double rail is a rail-era network action")
    tiles, money = (1, link_money(d, s, True)) if first_laid else (2, r.double_rail_cost)
    if ctx.links_placed(seat) + tiles > r.link_tiles:
        return ("no_link_tiles", f"you do not have {tiles} link tile(s) left")
    if s.money[seat] < money:
        what = "a second rail costs" if first_laid else "two rails cost"
        return ("cannot_afford", f"{what} £{money} besides coal")
    if ctx.presence(seat):
        net = ctx.network(seat)
        lines: Sequence[int] = sorted({li for n in net for li in d.graph.node_links[n]})
    else:
        lines = range(d.n_links)
    refusals: dict[tuple[str, str], int] = {}
    for li in lines:
        if s.link_owner[li] < 0 and d.link_rail[li]:
            refusal = link_refusal(d, s, ctx, seat, li, second=True)
            if refusal is None:
                return None
            refusals[refusal] = refusals.get(refusal, 0) + 1
    if not refusals:
        return ("link_not_in_network", "no empty rail line touches your network")
    return max(refusals, key=lambda reason: refusals[reason])


# --- legal moves ---------------------------------------------------------------------------


def action_moves(d: Birmingham, names: Names, s: State, seat: int) -> list[Any]:
    """Every legal action-starting move, named (each passes :func:`action_refusal`). Built
    straight in client form: these lists are long, and converting them afterwards would
    cost a second object per move."""
    ctx = Ctx(d, s)
    hand = distinct(s.hands[seat])
    card, space, link = names.card, names.space, names.link
    merchant, industry = names.merchant, names.industry
    out = _build_moves(d, s, ctx, seat, hand, card, space, industry)
    out += [pm.Network(link[li]) for li in _link_options(d, s, ctx, seat)]
    out += [pm.Develop(industry[i]) for i in _develop_options(d, s, ctx, seat)]
    out += [pm.Sell(space[slot], merchant[m]) for slot, m in _sale_options(d, s, ctx, seat)]
    if loan_refusal(d, s, seat) is None:
        out.append(pm.Loan())
    if scout_refusal(d, s, seat) is None:
        out.append(pm.Scout())
    out.append(pm.Pass())
    return out


def _build_moves(
    d: Birmingham,
    s: State,
    ctx: Ctx,
    seat: int,
    hand: list[int],
    card: Sequence[str],
    space: Sequence[str],
    industry: Sequence[str],
) -> list[Any]:
    """The legal builds, named: :func:`build_refusal`'s parts, each asked once for all the
    candidates it settles (the tile per industry, the card per location and industry, the
    cost per industry and connected group), and only where the hand's cards reach."""
    defs = d.cards.defs
    network, present = ctx.network(seat), ctx.presence(seat)
    # the industries whose tile may be built and paid for somewhere: (level, needs coal)
    levels: dict[int, tuple[int, bool]] = {}
    for ind in range(len(INDUSTRIES)):
        level = d.stacks.top_level(ind, s.mat[seat][ind])
        if tile_refusal(d, s, ind, level) is None:
            tile = d.tile(ind, level)
            if cost_floor(d, s, ctx, tile.money, tile.iron) <= s.money[seat]:
                levels[ind] = (level, tile.coal > 0)
    if not levels:
        return []
    # locations showing one of those industries, where one of the hand's cards reaches
    shown = set().union(*(d.industry_locs[ind] for ind in levels))
    reach = {card_reach(defs[c], present) for c in hand}
    if EVERY_LOCATION not in reach:
        shown &= {r for r in reach if r >= 0} | (network if NETWORK_LOCATIONS in reach else set())
    locs = sorted(shown)
    # The card check, per location and industry: location cards by the place they name;
    # the others' verdicts depend on the location only through being in the network and
    # nameable, so they are asked once per (industry, in network, nameable).
    located: dict[int, list[int]] = {}
    general: list[int] = []
    for c in hand:
        if defs[c].kind == "location":
            located.setdefault(defs[c].location, []).append(c)
        else:
            general.append(c)
    general_ok: dict[tuple[int, bool, bool], list[int]] = {}
    # (industry, connected group, or -1 for a tile needing no coal): the cost is paid
    afford: dict[tuple[int, int], bool] = {}
    out: list[Any] = []
    for loc in locs:
        group = ctx.comp[loc]
        by_ind: dict[int, list[int]] = {}
        for slot in d.loc_slots[loc]:
            for ind in d.slot_icons[slot]:
                found = levels.get(ind)
                if found is None:
                    continue
                level, coal = found
                key = (ind, group if coal else -1)
                paid = afford.get(key)
                if paid is None:
                    paid = afford[key] = not tile_cost_refusal(d, s, ctx, seat, loc, ind, level)
                if not paid or space_refusal(d, s, ctx, seat, slot, ind, level) is not None:
                    continue
                ok = by_ind.get(ind)
                if ok is None:
                    in_net, nameable = loc in network, d.locations[loc].kind == "town"
                    others = general_ok.get((ind, in_net, nameable))
                    if others is None:
                        others = general_ok[ind, in_net, nameable] = [
                            c
                            for c in general
                            if not card_refusal(defs[c], loc, ind, in_net, present, nameable)
                        ]
                    here = [
                        c
                        for c in located.get(loc, ())
                        if not card_refusal(defs[c], loc, ind, in_net, present, nameable)
                    ]
                    ok = by_ind[ind] = sorted(here + others) if here else others
                for c in ok:
                    out.append(pm.Build(card[c], space[slot], industry[ind]))
    return out


def _link_options(d: Birmingham, s: State, ctx: Ctx, seat: int, second: bool = False) -> list[int]:
    """The lines a link may take (:func:`link_refusal`), asked only of empty lines of the
    era that touch the seat's network when it has one, and only while it has a link tile
    and at least the link's money."""
    if ctx.links_placed(seat) >= d.rules.link_tiles or link_money(d, s, second) > s.money[seat]:
        return []
    era_lines = d.link_rail if s.era == RAIL else d.link_canal
    if ctx.presence(seat):
        net = ctx.network(seat)
        lines: Sequence[int] = sorted({li for n in net for li in d.graph.node_links[n]})
    else:
        lines = range(d.n_links)
    return [
        li
        for li in lines
        if s.link_owner[li] < 0
        and era_lines[li]
        and link_refusal(d, s, ctx, seat, li, second) is None
    ]


def _sale_options(d: Birmingham, s: State, ctx: Ctx, seat: int) -> list[tuple[int, int]]:
    """The (slot, merchant) sales :func:`sell_refusal` allows, asked only of the seat's
    unflipped sellable industries and the merchants connected to them."""
    merchants: dict[int, list[int]] = {}  # by connected group
    for m, loc in enumerate(d.merchant_loc):
        merchants.setdefault(ctx.comp[loc], []).append(m)
    return [
        (slot, m)
        for slot, owner in enumerate(s.slot_owner)
        if owner == seat and s.slot_ind[slot] in SELLABLE and not s.slot_flipped[slot]
        for m in merchants.get(ctx.comp[d.slot_loc[slot]], ())
        if sell_refusal(d, s, ctx, seat, slot, m) is None
    ]


def _develop_options(d: Birmingham, s: State, ctx: Ctx, seat: int, free: bool = False) -> list[int]:
    """The industries the seat may develop (:func:`develop_refusal`, its cost asked once)."""
    if not free and develop_cost_refusal(d, s, ctx, seat):
        return []
    return [i for i in range(len(INDUSTRIES)) if not develop_tile_refusal(d, s, seat, i)]


def _sources(d: Birmingham, s: State, seat: int, step: ev.Step) -> list[int]:
    """Where the next unit of a resource step may come from (slots, or MERCHANT_BEER);
    empty when the board has none (the market then supplies it)."""
    k = step.kind
    if k in ("coal", "link_coal"):
        starts = d.link_nodes[step.a] if k == "link_coal" else (step.a,)
        dist = d.graph.distances(starts, s.link_owner)
        mines = [
            (d.slot_loc[i], i)
            for i, ind in enumerate(s.slot_ind)
            if ind == COAL and s.slot_cubes[i]
        ]
        return nearest(dist, mines)
    if k == "iron":
        return [i for i, ind in enumerate(s.slot_ind) if ind == IRON and s.slot_cubes[i]]
    # beer: own anywhere, opponents' connected to where it is used, the merchant's barrel
    nodes = d.link_nodes[step.a] if k == "rail_beer" else (d.slot_loc[step.a],)
    out = Ctx(d, s).beer_sources(seat, nodes)
    if k == "beer" and s.merchant_beer[step.b]:
        out.append(MERCHANT_BEER)
    return out


def _pick(kind: str, source: int) -> Any:
    if kind in ("coal", "link_coal"):
        return mv.PickCoal(source)
    if kind == "iron":
        return mv.PickIron(source)
    return mv.PickMerchantBeer() if source == MERCHANT_BEER else mv.PickBeer(source)


def offer_moves(d: Birmingham, s: State, seat: int, step: ev.Step) -> list[Any]:
    """The continuations an offer step allows (``Done`` not included)."""
    ctx = Ctx(d, s)
    k = step.kind
    if k == "more_link":
        return [mv.SecondLink(li) for li in _link_options(d, s, ctx, seat, second=True)]
    if k == "more_sell":
        return [mv.SellAlso(slot, m) for slot, m in _sale_options(d, s, ctx, seat)]
    free = k == "free_develop"
    make = mv.FreeDevelop if free else mv.DevelopAlso
    return [make(i) for i in _develop_options(d, s, ctx, seat, free)]


def step_options(d: Birmingham, s: State, seat: int) -> list[Any]:
    """The moves that answer the pending step (for offers, ``Done`` comes last)."""
    step = s.pending[0]
    if step.kind == "discard":
        return family.discard_options(s, seat)
    if step.kind == "liquidate":
        return [mv.Liquidate(i) for i, o in enumerate(s.slot_owner) if o == step.a]
    if step.kind in OFFER_STEPS:
        return [*offer_moves(d, s, seat, step), mv.Done()]
    return [_pick(step.kind, src) for src in _sources(d, s, seat, step)]


def legal_moves(d: Birmingham, names: Names, s: State, seat: int) -> list[Any]:
    """Every legal move of ``seat`` now, in the named form clients use."""
    if s.phase != PLAY or seat != s.current:
        return []
    if s.pending:
        return names.encode_all(step_options(d, s, seat), s)
    return action_moves(d, names, s, seat)


# --- resolving -----------------------------------------------------------------------------


class Resolver(family.Resolver):
    """Birmingham's actions on the family turn engine (see :mod:`plugins.brass.resolver`)."""

    def __init__(self, d: Birmingham, s: State, seat: int) -> None:
        super().__init__(d.turn_rules, d.income, lambda st, e: apply(d, st, e), s, seat)
        self.d = d

    # --- starting an action -----------------------------------------------------------

    def start(self, m: Any) -> list[ev.Step]:
        d, s, seat = self.d, self.s, self.seat
        t = type(m)
        queue: list[ev.Step] = []
        if t is mv.Build:
            self.emit(ev.Discarded(seat, [m.card]))
            level = d.stacks.top_level(m.industry, s.mat[seat][m.industry])
            tile = d.tile(m.industry, level)
            self.emit(ev.TilePlaced(seat, m.slot, m.industry, level))
            if tile.money:
                self.emit(ev.Paid(seat, tile.money))
            if tile.coal:
                queue.append(ev.Step("coal", tile.coal, d.slot_loc[m.slot]))
            if tile.iron:
                queue.append(ev.Step("iron", tile.iron))
            if tile.produce(s.era):
                queue.append(ev.Step("produce", a=m.slot))
            return queue
        queue.append(ev.Step("discard", 3 if t is mv.Scout else 1))
        if t is mv.Network:
            self.emit(ev.LinkPlaced(seat, m.link))
            if s.era == CANAL:
                self.emit(ev.Paid(seat, d.rules.canal_link_cost))
            else:
                self.emit(ev.Paid(seat, d.rules.rail_link_cost))
                queue += [ev.Step("link_coal", d.rules.coal_per_rail, m.link), ev.Step("more_link")]
        elif t is mv.Develop:
            self.develop(m.industry)
            queue += [ev.Step("iron", 1), ev.Step("more_develop")]
        elif t is mv.Sell:
            queue += self.sale(m.slot, m.merchant)
        elif t is mv.Loan:
            space = d.income.drop_levels(s.income[seat], d.rules.loan_levels)
            assert space is not None
            self.emit(ev.LoanTaken(seat, d.rules.loan_amount, space))
        elif t is mv.Scout:
            queue.append(ev.Step("scout"))
        return queue

    def develop(self, ind: int) -> None:
        level = self.d.stacks.top_level(ind, self.s.mat[self.seat][ind])
        self.emit(ev.TileDeveloped(self.seat, ind, level))

    def sale(self, slot: int, merchant: int) -> list[ev.Step]:
        need = self.d.tile(self.s.slot_ind[slot], self.s.slot_level[slot]).beer
        beer = [ev.Step("beer", need, slot, merchant)] if need else []
        return [*beer, ev.Step("flip", a=slot), ev.Step("more_sell")]

    # --- continuing -------------------------------------------------------------------

    def answer_step(self, m: Any, queue: list[ev.Step]) -> None:
        d, seat = self.d, self.seat
        t = type(m)
        if queue[0].kind in RESOURCE_STEPS:
            self.take(queue, MERCHANT_BEER if t is mv.PickMerchantBeer else m.slot)
            return
        if t is mv.Liquidate:
            self.liquidate(m.slot)
            return
        queue.pop(0)
        if t is mv.SecondLink:
            self.emit(ev.LinkPlaced(seat, m.link))
            self.emit(ev.Paid(seat, d.rules.double_rail_cost - d.rules.rail_link_cost))
            queue[:0] = [
                ev.Step("link_coal", d.rules.coal_per_rail, m.link),
                ev.Step("rail_beer", d.rules.double_rail_beer, m.link),
            ]
        elif t is mv.SellAlso:
            queue[:0] = self.sale(m.slot, m.merchant)
        elif t is mv.DevelopAlso:
            self.develop(m.industry)
            queue.insert(0, ev.Step("iron", 1))
        elif t is mv.FreeDevelop:
            self.develop(m.industry)

    def take(self, queue: list[ev.Step], source: int) -> None:
        """Take one unit for ``queue[0]`` from ``source``."""
        step = queue[0]
        queue[0] = ev.Step(step.kind, step.n - 1, step.a, step.b)
        if source == MERCHANT_BEER:
            self.emit(ev.MerchantBeerTaken(step.b))
            at = next(i for i, q in enumerate(queue) if q.kind == "flip")
            queue.insert(at + 1, ev.Step("bonus", b=step.b))
        else:
            self.emit(ev.CubeTaken(source))
            if not self.s.slot_cubes[source]:
                self.emit(ev.Flipped(source))

    def resolve(self, step: ev.Step, queue: list[ev.Step]) -> bool:
        d, s, seat = self.d, self.s, self.seat
        k = step.kind
        if k in RESOURCE_STEPS:
            if step.n <= 0:
                queue.pop(0)
                return False
            sources = _sources(d, s, seat, step)
            if len(sources) > 1:
                return True
            if sources:
                self.take(queue, sources[0])
            else:
                self.buy(step)
                queue.pop(0)
            return False
        if k in OFFER_STEPS:
            if offer_moves(d, s, seat, step):
                return True
            queue.pop(0)
            return False
        if k == "liquidate":
            owned = [i for i, o in enumerate(s.slot_owner) if o == step.a]
            if s.money[step.a] >= step.n or not owned:
                queue.pop(0)
                return False
            if len(owned) > 1:
                return True
            self.liquidate(owned[0])
            return False
        queue.pop(0)
        if k == "produce":
            self.produce(step.a)
        elif k == "flip":
            self.emit(ev.Flipped(step.a))
        elif k == "bonus":
            self.bonus(step.b, queue)
        elif k == "scout":
            self.emit(ev.Scouted(seat))
        return False

    def buy(self, step: ev.Step) -> None:
        d, s = self.d, self.s
        if step.kind == "iron":
            cost = d.iron_market.buy_cost(s.iron_market, step.n)
            resource = "iron"
        else:
            # checks guarantee market coal is reachable and no beer step runs dry
            assert step.kind in ("coal", "link_coal"), step
            cost = d.coal_market.buy_cost(s.coal_market, step.n)
            resource = "coal"
        if cost:
            self.emit(ev.Paid(self.seat, cost))
        self.emit(ev.MarketBought(resource, step.n))

    def produce(self, slot: int) -> None:
        d, s = self.d, self.s
        ind = s.slot_ind[slot]
        cubes = d.tile(ind, s.slot_level[slot]).produce(s.era)
        sold = money = 0
        if ind == IRON:
            sold, money = d.iron_market.sell(s.iron_market, cubes)
        elif ind == COAL and Ctx(d, s).reaches_merchant((d.slot_loc[slot],)):
            sold, money = d.coal_market.sell(s.coal_market, cubes)
        self.emit(ev.Produced(slot, cubes, sold, money))
        if sold == cubes:
            self.emit(ev.Flipped(slot))

    def bonus(self, merchant: int, queue: list[ev.Step]) -> None:
        bonus = self.d.loc_bonus[self.d.merchant_loc[merchant]]
        assert bonus is not None
        if bonus.kind == "develop":
            queue.insert(0, ev.Step("free_develop"))
        elif bonus.kind == "vp":
            self.emit(ev.BonusGained(self.seat, vp=bonus.amount))
        elif bonus.kind == "money":
            self.emit(ev.BonusGained(self.seat, money=bonus.amount))
        else:
            self.emit(ev.BonusGained(self.seat, income=bonus.amount))

    def liquidate(self, slot: int) -> None:
        s = self.s
        refund = self.d.tile(s.slot_ind[slot], s.slot_level[slot]).money // 2
        self.emit(ev.Liquidated(s.slot_owner[slot], slot, refund))

    def shortfall_step(self, seat: int, owe: int) -> ev.Step | None:
        """The indebted seat chooses which of its industries to sell, one at a time, until
        ``owe`` is covered (asked only when it has two or more)."""
        owned = sum(o == seat for o in self.s.slot_owner)
        return ev.Step("liquidate", owe, seat) if owned > 1 else None

    def income_shortfall(self, seat: int, owe: int) -> tuple[int, int]:
        """Sell the seat's only industry if that is still needed, then lose 1 VP per £1
        unpaid (a seat with several industries chose already: :meth:`shortfall_step`)."""
        s = self.s
        owned = [i for i, o in enumerate(s.slot_owner) if o == seat]
        if owned and s.money[seat] < owe:
            self.liquidate(owned[0])
        return super().income_shortfall(seat, owe)


def era_points(d: Birmingham, s: State) -> tuple[list[int], list[int]]:
    """What the era's end scores now, per seat: link VP (link icons of flipped industries
    of anyone, plus each merchant location's) and flipped industries' VP."""
    n = s.players
    flipped = [
        (owner, d.slot_loc[slot], d.tile(s.slot_ind[slot], s.slot_level[slot]))
        for slot, owner in enumerate(s.slot_owner)
        if owner >= 0 and s.slot_flipped[slot]
    ]
    icons = link_icons(d.loc_icons, [(loc, tile.link_icons) for _, loc, tile in flipped])
    industries = [0] * n
    for owner, _, tile in flipped:
        industries[owner] += tile.vp
    links = [0] * n
    for li, owner in enumerate(s.link_owner):
        if owner >= 0:
            links[owner] += link_points(d.link_nodes[li], icons)
    return links, industries


def score_era(d: Birmingham, s: State, rng: Random, deal: EndEra | None = None) -> list[Any]:
    """System: the era's points (:func:`era_points`), then the family's era change and the
    next era's deal (``deal``, or drawn from ``rng``)."""
    links, industries = era_points(d, s)
    # Birmingham's era change (canals and level I tiles leaving) is its reducer's part of
    # ``EraBegan``, so stored logs keep replaying: no ``era_change`` events.
    return Resolver(d, s, SYSTEM).end_era(rng, links, industries, deal)


def decide(d: Birmingham, s: State, actor: int, m: Any, rng: Random) -> list[Any]:
    """Validate ``m`` by ``actor`` and return its events (see the module docstring)."""
    if isinstance(m, mv.ScoreEra | EndEra):
        if actor >= 0:
            raise IllegalMove("system_only", "era scoring is run by the game, not a player")
        return score_era(d, s, rng, m if isinstance(m, EndEra) else None)
    refusal = turn_refusal(s, actor)
    if refusal and not (refusal[0] == "decision_pending" and actor == s.current):
        raise IllegalMove(*refusal)
    r = Resolver(d, s, actor)
    if s.pending:
        if m not in step_options(d, s, actor):
            raise IllegalMove(*pending_refusal(d, s, m))
        r.answer(m)
    else:
        refusal = action_refusal(d, s, Ctx(d, s), actor, m)
        if refusal:
            raise IllegalMove(*refusal)
        r.begin(m)
    return r.events


def pending_refusal(d: Birmingham, s: State, m: Any) -> tuple[str, str]:
    """Why ``m`` does not answer the pending step, naming the rule."""
    k = s.pending[0].kind
    reasons = {
        "coal": ("coal_not_nearest", "coal comes from the nearest connected mine with coal; "
                 "choose one of the tied nearest mines"),
        "link_coal": ("coal_not_nearest", "rail coal comes from the nearest mine connected to "
                      "the new rail; choose one of the tied nearest mines"),
        "iron": ("iron_source", "choose an iron works on the board that still has iron"),
        "beer": ("beer_source", "beer comes from your brewery, a connected opponent's brewery "
                 "or the barrel of the merchant you sell to"),
        "rail_beer": ("beer_source", "double-rail beer comes from your brewery or a brewery "
                      "connected to the second rail, never from a merchant"),
        "discard": ("card_not_in_hand", "discard a card you hold to pay for this action"),
        "liquidate": ("liquidate_own_industry", "your income is unpaid: remove one of your "
                      "own industries for half its cost"),
        "more_link": ("second_link_illegal", "choose a legal second rail or done"),
        "more_sell": ("sale_illegal", "choose another legal sale or done"),
        "more_develop": ("develop_illegal", "choose a legal second development or done"),
        "free_develop": ("develop_illegal", "choose a tile to develop for free or done"),
    }  # fmt: skip
    code, sentence = reasons.get(k, ("decision_pending", "answer the pending decision"))
    if type(m) in (mv.Build, mv.Network, mv.Develop, mv.Sell, mv.Loan, mv.Scout, mv.Pass):
        return ("decision_pending", f"finish the action in progress first: {sentence}")
    # a continuation of the right kind names the exact rule it breaks
    ctx, seat = Ctx(d, s), s.current
    specific: Refusal = None
    if k == "more_link" and isinstance(m, mv.SecondLink):
        specific = link_refusal(d, s, ctx, seat, m.link, second=True)
    elif k == "more_sell" and isinstance(m, mv.SellAlso):
        specific = sell_refusal(d, s, ctx, seat, m.slot, m.merchant)
    elif k == "more_develop" and isinstance(m, mv.DevelopAlso):
        specific = develop_refusal(d, s, ctx, seat, m.industry)
    elif k == "free_develop" and isinstance(m, mv.FreeDevelop):
        specific = develop_refusal(d, s, ctx, seat, m.industry, free=True)
    return specific or (code, sentence)
