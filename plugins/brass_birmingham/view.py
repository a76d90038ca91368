"""What clients read: the view document, the pending decision in words, the readable event
log and the static board. Every id here is a name the moves accept (``CLIENTS.md``).

The state keeps indices; this module is the only place that turns them into client names
(with :class:`~plugins.brass_birmingham.names.Names`), so views, logs and legal moves
cannot drift apart.
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from plugins.brass import client as fc
from plugins.brass import events as fev
from plugins.brass.actions.network import second_link_blocker
from plugins.brass.hidden import dealt
from plugins.brass.layout import Layout, load_layout, served
from plugins.brass.log import redact_log
from plugins.brass.mat import EMPTY
from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham.data import DATA, INDUSTRIES, Birmingham
from plugins.brass_birmingham.names import Names
from plugins.brass_birmingham.state import PLAY, RAIL, State
from plugins.brass_birmingham.variant import birmingham_variant

ERAS = ("canal", "rail")
ACTIONS = ["build", "network", "develop", "sell", "loan", "scout", "pass"]


class Decision(fc.Decision, kw_only=True):
    """The family's decision (``count``: cards to discard, coal, iron or beer still to
    find, money owed); the optional ids say what it is for."""

    location: str | None = None
    space: str | None = None
    link: str | None = None
    merchant: str | None = None


class PlayerView(fc.PlayerCore, kw_only=True):
    hand_count: int
    discards: list[str]
    """Face-up discards, by card name."""
    facedown_count: int
    wild_cards: dict[str, int]
    """Wild cards in the hand, by kind (0 or 1 each): public, as scouting takes them from
    the supply and playing one returns it there, both in the open."""
    next_tiles: dict[str, int | None]
    """Level of the lowest tile left on each industry stack (``None``: stack empty)."""
    tiles_left: dict[str, int]
    links_left: int
    """Link tiles not on the board (canal links come back when the canal era ends)."""


class TileView(fc.Doc, kw_only=True):
    space: str
    location: str
    owner: int
    industry: str
    level: int
    flipped: bool
    resources: int
    """Coal cubes on a mine, iron on a works, barrels on a brewery; 0 on other tiles."""


class LinkView(fc.Doc, kw_only=True):
    link: str
    ends: list[str]
    owner: int
    kind: Literal["canal", "rail"]


class MarketView(fc.Doc, kw_only=True):
    cubes: int
    capacity: int
    buy_price: int
    """What the next cube bought costs (the empty-market price once it is empty)."""
    sell_price: int | None
    """What the next cube sold into it earns; ``None`` when it is full."""


class BonusView(fc.Doc, kw_only=True):
    kind: str
    amount: int


class MerchantView(fc.Doc, kw_only=True):
    merchant: str
    location: str
    tile: str
    buys: list[str]
    beer: bool
    bonus: BonusView


class DoubleRailView(fc.Doc, kw_only=True):
    """Whether the seat to act could follow a first rail with a second on today's board."""

    possible: bool
    blocked_by: str | None = None
    """The refusal code of the rule that blocks it (e.g. ``cannot_afford``,
    ``no_beer_for_double_rail``), when not possible."""
    reason: str | None = None


class ViewDoc(fc.Doc, kw_only=True):
    seat: int | None
    """The viewer (``None``: a spectator)."""
    era: Literal["canal", "rail"]
    round: int
    phase: Literal["play", "scoring", "over"]
    order: list[int]
    turn_seat: int | None
    """The seat whose turn it is (``None`` between eras and after the game)."""
    actions_left: int
    decision: Decision
    pending: list[fc.StepView]
    """Every step of the action in progress, ``decision`` describing the first (empty
    between actions); the position document's ``pending``."""
    players: list[PlayerView]
    hand: list[str] | None
    """The viewer's own cards (``None`` for a spectator)."""
    deck_count: int
    wild_supply: dict[str, int]
    tiles: list[TileView]
    links: list[LinkView]
    markets: dict[str, MarketView]
    merchants: list[MerchantView]
    double_rail: DoubleRailView | None = None
    """Rail era, between the actions of a turn: whether a double rail is open to the seat to
    act, judged on the board as it is (the first rail may open or close lines; the offer
    after it is the rule); ``None`` otherwise."""


def describe(d: Birmingham, names: Names, step: fev.Step, actions_left: int = 0) -> Decision:
    """The pending step ``step`` as a decision a client can act on (no seat)."""
    k, n = step.kind, step.n
    if k == "discard":
        return Decision(kind="discard", moves=["discard"], count=n,
                        prompt=f"discard {n} card{'s' if n > 1 else ''} from your hand to pay "
                        "for the action")  # fmt: skip
    if k in ("coal", "link_coal"):
        where = names.location[step.a] if k == "coal" else names.link[step.a]
        return Decision(
            kind="pick_coal", moves=["pick_coal"], count=n,
            location=where if k == "coal" else None, link=where if k == "link_coal" else None,
            prompt=f"{n} coal still needed for {where}: several nearest connected mines are "
            "tied; choose the mine (by its space) that gives the next cube",
        )  # fmt: skip
    if k == "iron":
        return Decision(kind="pick_iron", moves=["pick_iron"], count=n,
                        prompt=f"{n} iron still needed: choose the iron works (by its space) "
                        "that gives the next cube")  # fmt: skip
    if k == "beer":
        space, merchant = names.space[step.a], names.merchant[step.b]
        return Decision(
            kind="pick_beer", moves=["pick_beer"], count=n, space=space, merchant=merchant,
            prompt=f"{n} beer still needed to sell {space} to {merchant}: choose a brewery "
            "(by its space) or that merchant's barrel (by the merchant space)",
        )  # fmt: skip
    if k == "rail_beer":
        link = names.link[step.a]
        return Decision(kind="pick_beer", moves=["pick_beer"], count=n, link=link,
                        prompt=f"choose the brewery (by its space) whose beer pays for the "
                        f"double rail on {link}")  # fmt: skip
    if k == "more_link":
        r = d.rules
        return Decision(kind="second_link", moves=["second_link", "done"],
                        prompt=f"add a second rail (£{r.double_rail_cost - r.rail_link_cost} "
                        "more, its coal and one beer) or finish with done")  # fmt: skip
    if k == "more_sell":
        return Decision(
            kind="sell_also",
            moves=["sell_also", "done"],
            prompt="sell another industry in this action or finish with done",
        )
    if k == "more_develop":
        return Decision(
            kind="develop_also",
            moves=["develop_also", "done"],
            prompt="develop a second tile (one more iron) or finish with done",
        )
    if k == "free_develop":
        return Decision(
            kind="free_develop",
            moves=["free_develop", "done"],
            prompt="the merchant's bonus: develop one tile for free, or done",
        )
    if k == "liquidate":
        return Decision(kind="liquidate", moves=["liquidate"], count=n,
                        prompt=f"£{n} of negative income cannot be paid: remove one of your "
                        "industries (by its space) for half its cost")  # fmt: skip
    return Decision(kind="action", moves=ACTIONS,
                    prompt=f"choose an action ({actions_left} left this turn)")  # fmt: skip


def decision(d: Birmingham, names: Names, s: State) -> Decision:
    return fc.current_decision(s, lambda step, left: describe(d, names, step, left), Decision)


def _market(market: Any, cubes: int) -> MarketView:
    price = market.buy_cost(cubes, 1)
    sold, money = market.sell(cubes, 1)
    return MarketView(cubes=cubes, capacity=market.capacity, buy_price=price,
                      sell_price=money if sold else None)  # fmt: skip


def view(d: Birmingham, names: Names, s: State, seat: int | None) -> dict[str, Any]:
    card = names.card
    tile_ids = [t.id for t in d.merchant_tiles]
    kind = ERAS[s.era]
    doc = ViewDoc(
        seat=seat, era=kind, **fc.turn_fields(s, seat, card), decision=decision(d, names, s),
        players=[
            PlayerView(
                **fc.player_fields(d.income, s, i, card),
                wild_cards={"location": s.hands[i].count(d.cards.wild_location),
                            "industry": s.hands[i].count(d.cards.wild_industry)},
                next_tiles=_next_tiles(d, s.mat[i]),
                tiles_left={name: d.stacks.sizes[k] - s.mat[i][k]
                            for k, name in enumerate(INDUSTRIES)},
                links_left=max(0, d.rules.link_tiles - s.link_owner.count(i)),
            )
            for i in range(s.players)
        ],
        wild_supply={"location": s.wild_supply[0], "industry": s.wild_supply[1]},
        tiles=[
            TileView(space=names.space[slot], location=names.location[d.slot_loc[slot]],
                     owner=o, industry=INDUSTRIES[s.slot_ind[slot]], level=s.slot_level[slot],
                     flipped=s.slot_flipped[slot], resources=s.slot_cubes[slot])
            for slot, o in enumerate(s.slot_owner) if o >= 0
        ],
        links=[
            LinkView(link=names.link[li], ends=[names.location[n] for n in d.link_nodes[li]],
                     owner=o, kind=kind)
            for li, o in enumerate(s.link_owner) if o >= 0
        ],
        markets={"coal": _market(d.coal_market, s.coal_market),
                 "iron": _market(d.iron_market, s.iron_market)},
        merchants=[
            MerchantView(
                merchant=names.merchant[m], location=names.location[d.merchant_loc[m]],
                tile=tile_ids[t], buys=[INDUSTRIES[k] for k in sorted(d.merchant_accepts[t])],
                beer=bool(s.merchant_beer[m]), bonus=_bonus(d, d.merchant_loc[m]),
            )
            for m, t in enumerate(s.merchant_tile) if t >= 0
        ],
        double_rail=_double_rail(d, s),
    )  # fmt: skip
    return msgspec.to_builtins(doc)


def _next_tiles(d: Birmingham, mat: list[int]) -> dict[str, int | None]:
    """Per industry, the level of the seat's lowest tile left (``None``: none left)."""
    levels = [d.stacks.top_level(k, taken) for k, taken in enumerate(mat)]
    return {n: None if lvl == EMPTY else lvl for n, lvl in zip(INDUSTRIES, levels, strict=True)}


def _double_rail(d: Birmingham, s: State) -> DoubleRailView | None:
    if s.era != RAIL or s.phase != PLAY or s.pending:
        return None
    v = birmingham_variant(d)
    blocked = second_link_blocker(v, v.facts(s), s.current)
    if blocked is None:
        return DoubleRailView(possible=True)
    return DoubleRailView(possible=False, blocked_by=blocked[0], reason=blocked[1])


def _bonus(d: Birmingham, loc: int) -> BonusView:
    bonus = d.loc_bonus[loc]
    assert bonus is not None  # checked on load: every merchant location has one
    return BonusView(kind=bonus.kind, amount=bonus.amount)


# --- the event log --------------------------------------------------------------------------

_SPACE_EVENTS = (ev.CubeTaken, ev.Flipped, ev.Produced, ev.Liquidated, ev.TilePlaced)


def redact(d: Birmingham, names: Names, e: Any, seat: int | None) -> dict[str, Any]:
    """Event ``e`` as ``seat`` may read it, ids as names: hidden cards only as counts."""
    card = names.card.__getitem__
    if type(e) is ev.Started:
        tile_ids = [tile.id for tile in d.merchant_tiles]
        return {
            "players": e.players, "order": e.order,
            "merchants": {names.merchant[m]: tile_ids[k]
                          for m, k in enumerate(e.merchants) if k >= 0},
            **dealt(e.deck, e.hands, e.facedown, seat, card),
        }  # fmt: skip
    return redact_log(
        e, seat, card, lambda step: describe(d, names, step), lambda e, out: _named(names, e, out)
    )


def _named(names: Names, e: Any, out: dict[str, Any]) -> dict[str, Any]:
    """Birmingham's own events with ids as client names."""
    t = type(e)
    if t in _SPACE_EVENTS:
        out = {("space" if k == "slot" else k): v for k, v in out.items()}
        out["space"] = names.space[e.slot]
    if t is ev.TilePlaced or t is ev.TileDeveloped:
        out["industry"] = INDUSTRIES[e.industry]
    elif t is ev.LinkPlaced:
        out["link"] = names.link[e.link]
    elif t is ev.MerchantBeerTaken:
        out["merchant"] = names.merchant[e.merchant]
    elif t is ev.LoanTaken:
        out = {("income_space" if k == "space" else k): v for k, v in out.items()}
    return out


# --- the static board (GET /games metadata) --------------------------------------------------


def board(d: Birmingham, names: Names) -> dict[str, Any]:
    """Every location, build space (with its icons), merchant space and link line by the
    ids the moves and views use, and where each is drawn (``layout``)."""
    return {
        "locations": [{"location": loc.id, "name": loc.name, "kind": loc.kind}
                      for loc in d.locations],
        "spaces": [{"space": names.space[slot], "location": names.location[d.slot_loc[slot]],
                    "icons": [INDUSTRIES[k] for k in d.slot_icons[slot]]}
                   for slot in range(d.n_slots)],
        "merchant_spaces": [
            {"merchant": names.merchant[m], "location": names.location[loc],
             "min_players": d.merchant_min_players[m],
             "bonus": msgspec.to_builtins(_bonus(d, loc))}
            for m, loc in enumerate(d.merchant_loc)
        ],
        "links": [{"link": names.link[li], "ends": [names.location[n] for n in nodes],
                   "canal": d.link_canal[li], "rail": d.link_rail[li]}
                  for li, nodes in enumerate(d.link_nodes)],
        "coal_market": {"prices": d.coal_market.prices, "empty_price": d.coal_market.empty_price},
        "iron_market": {"prices": d.iron_market.prices, "empty_price": d.iron_market.empty_price},
        "layout": served(board_layout(d, names)),
    }  # fmt: skip


def board_layout(d: Birmingham, names: Names) -> Layout:
    """``data/layout.json``, checked to place every location, space, merchant space and
    link line of the board by its id."""
    ids = {"locations": [loc.id for loc in d.locations], "spaces": names.space,
           "merchant_spaces": names.merchant, "links": names.link}  # fmt: skip
    return load_layout(DATA / "layout.json", ids)
