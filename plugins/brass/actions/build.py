"""Build: pay with a card, place the seat's lowest tile of an industry, pay its cost.

The rule ("Build: cards, space and payment" and "Overbuild: yours and opponents'" in the
Birmingham rule text), in the order it is checked:

* the card: a location card builds in the place it names (network or not); an industry
  card builds an industry it shows, in the seat's network (anywhere while the seat has
  nothing on the board); a wild location card names any town; a wild industry card any
  industry (:func:`plugins.brass.build.card_refusal`). The card is discarded at once.
* the tile: the seat's lowest tile of that industry, if it has one left and it may be
  built in this era (else it must be developed away first).
* the space: it shows the industry's icon; an empty one, with spaces showing only that
  icon taken first (:attr:`Variant.single_icon_first`), or an overbuild
  (:meth:`Variant.overbuild_refusal`); in the canal era at most one of the seat's
  industries per location.
* the cost: money, coal (connected mines, else the market through a trade point) and
  iron (any works, else the market): :mod:`plugins.brass.actions.cost`.

The new tile then produces (coal, iron, beer: :meth:`Variant.produce`).

The :class:`Build` action asks the variant for each part, in that order: the card
(:meth:`Variant.build_card_refusal`), the tile and its place
(:meth:`Variant.build_place_refusal`), the cost (:meth:`Variant.build_cost_refusal`), the
listing (:meth:`Variant.build_moves`), the card paid (:meth:`Variant.build_card_paid`) and
the effect (:meth:`Variant.build`); the defaults are the rule above, written here
(Pittsburgh's mat paths, upgrades, Oil City, whiskey and cubes are its overrides).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from plugins.brass import events as ev
from plugins.brass.actions import CANAL, ERA_NAMES, Action, Refusal
from plugins.brass.actions.cost import coal_cost, cost_floor, cost_refusal
from plugins.brass.build import EVERY_LOCATION, NETWORK_LOCATIONS, card_reach, card_refusal
from plugins.brass.cards import distinct
from plugins.brass.mat import EMPTY

if TYPE_CHECKING:
    from plugins.brass.facts import Facts
    from plugins.brass.turn import TurnResolver
    from plugins.brass.variant import Variant


def tile_code(v: Variant, s: Any, ind: int, level: int) -> str | None:
    """Whether the seat's lowest ``ind`` tile (of ``level``; ``EMPTY``: none left) may be
    built now: the refusal's code only (a listing discards it), :func:`tile_refusal` adds
    the words."""
    if level == EMPTY:
        return "no_tile_left"
    if not v.d.tile(ind, level).buildable(s.era):
        return "tile_wrong_era"
    return None


def tile_refusal(v: Variant, s: Any, ind: int, level: int) -> Refusal:
    """:func:`tile_code`, with the rule in words."""
    code = tile_code(v, s, ind, level)
    if code == "no_tile_left":
        return (code, f"you have no {v.name(ind)} tiles left")
    if code == "tile_wrong_era":
        return (
            code,
            f"your lowest {v.name(ind)} tile (level {level}) cannot be built in the "
            f"{ERA_NAMES[s.era]} era; develop it away first",
        )
    return None


def space_refusal(v: Variant, f: Facts, seat: int, slot: int, ind: int, level: int) -> Refusal:
    """Whether a level ``level`` tile of ``ind`` may go on ``slot`` (which shows its icon)."""
    d, s = v.d, f.s
    loc = d.slot_loc[slot]
    owner = s.slot_owner
    if owner[slot] < 0:
        if v.single_icon_first and len(d.slot_icons[slot]) > 1:
            for alone in d.single_icon_spaces[loc][ind]:
                if owner[alone] < 0:
                    return (
                        "single_icon_space_first",
                        f"this location has an empty space showing only the {v.name(ind)} "
                        "icon: build there first",
                    )
    else:
        found = v.overbuild_refusal(f, seat, slot, ind, level)
        if found:
            return found
    if s.era == CANAL and v.one_industry_per_location_canal:
        for other in d.loc_slots[loc]:
            if other != slot and owner[other] == seat:
                return (
                    "one_industry_per_location",
                    "in the canal era you may have only one industry in each location",
                )
    return None


def tile_cost_refusal(v: Variant, f: Facts, seat: int, loc: int, ind: int, level: int) -> Refusal:
    """Can the seat pay for its ``ind`` tile of ``level`` built at ``loc``? (The answer
    depends on the location only through its connected group: :func:`paid_at` asks it so.)"""
    tile = v.d.tile(ind, level)
    return cost_refusal(v, f, seat, (loc,), tile.money, tile.coal, tile.iron)


def place_refusal(v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
    """Everything about building ``m.industry`` on ``m.slot`` except the card: the tile,
    the space, the cost (three parts, so a listing can ask each once for all the spaces it
    covers)."""
    if not 0 <= m.slot < v.d.n_slots or not 0 <= m.industry < len(v.industries):
        return ("bad_space", "no such build space or industry")
    return tile_place_refusal(v, f, seat, m) or slot_cost_refusal(v, f, seat, m)


def slot_cost_refusal(v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
    """The cost of the seat's lowest ``m.industry`` tile built on ``m.slot``."""
    d, ind = v.d, m.industry
    level = d.stacks.top_level(ind, f.s.mat[seat][ind])
    return tile_cost_refusal(v, f, seat, d.slot_loc[m.slot], ind, level)


def tile_place_refusal(v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
    """The tile and the space of building ``m.industry`` on ``m.slot`` (both in range)."""
    slot, ind = m.slot, m.industry
    if ind not in v.d.slot_icons[slot]:
        return ("wrong_space", f"this space does not show the {v.name(ind)} icon")
    level = v.d.stacks.top_level(ind, f.s.mat[seat][ind])
    return tile_refusal(v, f.s, ind, level) or space_refusal(v, f, seat, slot, ind, level)


def affordable(v: Variant, f: Facts, seat: int) -> dict[int, tuple[int, int]]:
    """The industries whose lowest tile the seat may build now and pay for somewhere, each
    with the coal it needs and the least it costs (the iron bought, the coal all free): a
    listing's first cut, the tile and :func:`cost_floor` asked once per industry."""
    d, s = v.d, f.s
    money = s.money[seat]
    out: dict[int, tuple[int, int]] = {}
    for ind, level in enumerate(f.lowest(seat)):
        if tile_code(v, s, ind, level) is None:
            tile = d.tile(ind, level)
            floor = cost_floor(v, f, tile.money, tile.iron)
            if floor <= money:
                out[ind] = (tile.coal, floor)
    return out


def showing(d: Any, industries: Iterable[int]) -> set[int]:
    """The locations with a build space showing one of ``industries``."""
    found: set[int] = set()
    for ind in industries:
        found |= d.industry_locs[ind]
    return found


def paid_at(
    v: Variant, f: Facts, seat: int, loc: int, need: tuple[int, int], prices: dict[Any, int]
) -> bool:
    """Whether the seat can pay at ``loc`` for a tile needing ``need`` (its coal and least
    cost: :func:`affordable`), as :func:`tile_cost_refusal` does; the coal's price is asked
    once per amount and connected group (``prices`` keeps it, -1 where none can be had)."""
    coal, floor = need
    if not coal:
        return True
    key = (coal, f.comp[loc])
    price = prices.get(key)
    if price is None:
        found = coal_cost(v, f, (loc,), coal)
        price = prices[key] = -1 if found is None else found
    return price >= 0 and floor + price <= f.s.money[seat]


def card_part(v: Variant, f: Facts, seat: int, card: int, slot: int, ind: int) -> Refusal:
    d = v.d
    loc = d.slot_loc[slot]
    return card_refusal(
        d.cards.defs[card], loc, ind, loc in f.network(seat), f.presence(seat), v.nameable(loc)
    )


def card_refusal_of(v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
    """The card of build ``m``: held, and building what and where ``m`` names (which must
    exist)."""
    d = v.d
    if not 0 <= m.card < len(d.cards) or m.card not in f.s.hands[seat]:
        return ("card_not_in_hand", "you do not hold that card")
    if not 0 <= m.slot < d.n_slots or not 0 <= m.industry < len(v.industries):
        return ("bad_space", "no such build space or industry")
    return card_part(v, f, seat, m.card, m.slot, m.industry)


def refusal(v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
    """The first part of the rule build ``m`` breaks: the card, the tile and its place,
    the cost (each the variant's)."""
    return (
        v.build_card_refusal(f, seat, m)
        or v.build_place_refusal(f, seat, m)
        or v.build_cost_refusal(f, seat, m)
    )


class Build(Action):
    tag = "build"
    cards = 0

    def refusal(self, v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
        return refusal(v, f, seat, m)

    def options(self, v: Variant, f: Facts, seat: int) -> list[Any]:
        return v.build_moves(f, seat, self.named)

    def start(self, r: TurnResolver, m: Any) -> list[ev.Step]:
        queue = r.v.build_card_paid(r, m)
        return queue + r.v.build(r, m)


def moves(v: Variant, f: Facts, seat: int, named: type) -> list[Any]:
    """The legal builds, ``named``: :func:`refusal`'s parts, each asked once for all the
    candidates it settles (the tile per industry, the card per location and industry,
    the coal per amount and connected group), and only where the hand's cards reach."""
    d, s = v.d, f.s
    defs = d.cards.defs
    hand = distinct(s.hands[seat])
    network, present, lowest = f.network(seat), f.presence(seat), f.lowest(seat)
    levels = affordable(v, f, seat)
    if not levels:
        return []
    # locations showing one of those industries, where one of the hand's cards reaches
    shown = showing(d, levels)
    reach = {card_reach(defs[c], present) for c in hand}
    if EVERY_LOCATION not in reach:
        near = network if NETWORK_LOCATIONS in reach else set()
        shown &= {r for r in reach if r >= 0} | near
    # The card check, per location and industry: location cards by the place they
    # name; the others' verdicts depend on the location only through being in the
    # network and nameable, so they are asked once per (industry, in network, nameable).
    located: dict[int, list[int]] = {}
    general: list[int] = []
    for c in hand:
        if defs[c].kind == "location":
            located.setdefault(defs[c].location, []).append(c)
        else:
            general.append(c)
    general_ok: dict[tuple[int, bool, bool], list[int]] = {}
    coal_price: dict[tuple[int, int], int] = {}
    card, space, industry = v.names.card, v.names.space, v.names.industry
    out: list[Any] = []
    for loc in sorted(shown):
        in_net, nameable = loc in network, v.nameable(loc)
        here = located.get(loc, ())
        # per industry: the cards that build it here, none if its tile cannot be built
        # or paid for here (the parts cheapest and most often refusing first)
        by_ind: dict[int, list[int]] = {}
        for slot, ind in d.loc_pairs[loc]:
            ok = by_ind.get(ind)
            if ok is None:
                ok = by_ind[ind] = []
                found = levels.get(ind)
                if found is None:
                    continue
                others = general_ok.get((ind, in_net, nameable))
                if others is None:
                    others = general_ok[ind, in_net, nameable] = []
                    for c in general:
                        if not card_refusal(defs[c], loc, ind, in_net, present, nameable):
                            others.append(c)
                ok = others
                if here:
                    ok = []
                    for c in here:
                        if not card_refusal(defs[c], loc, ind, in_net, present, nameable):
                            ok.append(c)
                    ok = sorted(ok + others) if ok else others
                # a tile needing no coal costs its least anywhere (affordable's check)
                if ok and found[0] and not paid_at(v, f, seat, loc, found, coal_price):
                    ok = []
                by_ind[ind] = ok
            if not ok or space_refusal(v, f, seat, slot, ind, lowest[ind]) is not None:
                continue
            for c in ok:
                out.append(named(card[c], space[slot], industry[ind]))
    return out


def place(r: TurnResolver, slot: int, ind: int) -> list[ev.Step]:
    """A build's effect once its card is paid (Lancashire's double build pays two): the
    seat's lowest ``ind`` tile on ``slot``, its money, then its coal, iron, cubes and, for
    a tile that flips when built, its flip as steps."""
    d, s, seat, v = r.d, r.s, r.seat, r.v
    level = d.stacks.top_level(ind, s.mat[seat][ind])
    tile = d.tile(ind, level)
    r.emit(ev.TilePlaced(seat, slot, ind, level))
    if tile.money:
        r.emit(ev.Paid(seat, tile.money))
    queue: list[ev.Step] = []
    if tile.coal:
        queue.append(ev.Step("coal", tile.coal, d.slot_loc[slot]))
    if tile.iron:
        queue.append(ev.Step("iron", tile.iron))
    if tile.produce(s.era):
        queue.append(ev.Step("produce", a=slot))
    if v.flips_when_built(ind, level):
        queue.append(ev.Step("flip", a=slot))
    return queue
