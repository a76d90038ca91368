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
from plugins.brass import turn
from plugins.brass.build import (
    EVERY_LOCATION,
    NETWORK_LOCATIONS,
    card_reach,
    card_refusal,
)
from plugins.brass.cards import distinct
from plugins.brass.mat import EMPTY
from plugins.brass.moves import EndEra
from plugins.brass.scoring import link_icons, link_points
from plugins.brass.turn import TurnResolver
from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham import internal_moves as mv
from plugins.brass_birmingham import moves as pm
from plugins.brass_birmingham.data import COAL, INDUSTRIES, IRON, Birmingham
from plugins.brass_birmingham.names import Names
from plugins.brass_birmingham.state import CANAL, PLAY, State
from plugins.brass_birmingham.variant import BirminghamFacts, birmingham_variant

Ctx = BirminghamFacts

Refusal = tuple[str, str] | None
ERA_NAMES = ("canal", "rail")
RESOURCE_STEPS = frozenset({"coal", "link_coal", "iron", "beer", "rail_beer"})
OFFER_STEPS = frozenset({"more_link", "more_sell", "more_develop", "free_develop"})


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
            if not ctx.reaches_trade(nodes):
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


def action_refusal(d: Birmingham, s: State, ctx: Ctx, seat: int, m: Any) -> Refusal:
    """The check for an action-starting move (the first move of an action)."""
    t = type(m)
    if t is mv.Build:
        return build_refusal(d, s, ctx, seat, m)
    return turn.action_refusal(ctx.v, ctx, seat, m)


# --- legal moves ---------------------------------------------------------------------------


def action_moves(d: Birmingham, names: Names, s: State, seat: int) -> list[Any]:
    """Every legal action-starting move, named (each passes :func:`action_refusal`). Built
    straight in client form: these lists are long, and converting them afterwards would
    cost a second object per move."""
    ctx = birmingham_variant(d).facts(s)
    hand = distinct(s.hands[seat])
    card, space = names.card, names.space
    industry = names.industry
    out = _build_moves(d, s, ctx, seat, hand, card, space, industry)
    v = ctx.v
    out += v.action_of[mv.Network].options(v, ctx, seat)
    out += v.action_of[mv.Develop].options(v, ctx, seat)
    out += v.action_of[mv.Sell].options(v, ctx, seat)
    out += v.action_of[mv.Loan].options(v, ctx, seat)
    out += v.action_of[mv.Scout].options(v, ctx, seat)
    out += v.action_of[mv.Pass].options(v, ctx, seat)
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


def step_options(d: Birmingham, s: State, seat: int) -> list[Any]:
    """The moves that answer the pending step (for offers, ``Done`` comes last)."""
    return turn.step_options(birmingham_variant(d), s, seat)


def legal_moves(d: Birmingham, names: Names, s: State, seat: int) -> list[Any]:
    """Every legal move of ``seat`` now, in the named form clients use."""
    if s.phase != PLAY or seat != s.current:
        return []
    if s.pending:
        return names.encode_all(step_options(d, s, seat), s)
    return action_moves(d, names, s, seat)


# --- resolving -----------------------------------------------------------------------------


class Resolver(TurnResolver):
    """Birmingham's actions on the family turn engine (see :mod:`plugins.brass.resolver`)."""

    def __init__(self, d: Birmingham, s: State, seat: int) -> None:
        super().__init__(birmingham_variant(d), s, seat)

    # --- starting an action -----------------------------------------------------------

    def start(self, m: Any) -> list[ev.Step]:
        d, s, seat = self.d, self.s, self.seat
        t = type(m)
        if t in self.v.action_of:
            return super().start(m)
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
        raise AssertionError(m)


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
        refusal = action_refusal(d, s, birmingham_variant(d).facts(s), actor, m)
        if refusal:
            raise IllegalMove(*refusal)
        r.begin(m)
    return r.events


def pending_refusal(d: Birmingham, s: State, m: Any) -> tuple[str, str]:
    """Why ``m`` does not answer the pending step, naming the rule."""
    v = birmingham_variant(d)
    if type(m) is mv.Build:
        sentence = v.step_kinds[s.pending[0].kind].reason[1]
        return ("decision_pending", f"finish the action in progress first: {sentence}")
    return turn.pending_refusal(v, s, m)
