"""What clients read: the view document, the pending decision in words, the readable event
log and the static board. Every id here is a name the moves accept (``CLIENTS.md``).

The state keeps indices; this module is the only place that turns them into client names
(with :class:`~plugins.brass_birmingham.names.Names`), so views, logs and legal moves
cannot drift apart.
"""

from __future__ import annotations

from typing import Any

import msgspec

from plugins.brass import board_docs as bd
from plugins.brass import client as fc
from plugins.brass import events as fev
from plugins.brass.actions.network import second_link_blocker
from plugins.brass.log import redact_log
from plugins.brass.log_payloads import served
from plugins.brass.market_buys import MarketBuys
from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham.data import INDUSTRIES, Birmingham
from plugins.brass_birmingham.names import Names
from plugins.brass_birmingham.state import PLAY, RAIL, State
from plugins.brass_birmingham.variant import birmingham_variant

ACTIONS = ["build", "network", "develop", "sell", "loan", "scout", "pass"]


class Decision(bd.Decision, kw_only=True):
    """The family's decision (``count``: cards to discard, coal, iron or beer still to
    find, money owed); the optional ids say what it is for."""

    merchant: str | None = None


class PlayerView(bd.PlayerView, kw_only=True):
    wild_cards: dict[str, int]
    """Wild cards in the hand, by kind (0 or 1 each): public, as scouting takes them from
    the supply and playing one returns it there, both in the open."""


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


class ViewDoc(fc.TurnView, kw_only=True):
    decision: Decision
    players: list[PlayerView]
    wild_supply: dict[str, int]
    tiles: list[bd.TileView]
    links: list[bd.LinkView]
    markets: dict[str, bd.MarketView]
    merchants: list[MerchantView]
    double_rail: DoubleRailView | None = None
    """Rail era, between the actions of a turn: whether a double rail is open to the seat to
    act, judged on the board as it is (the first rail may open or close lines; the offer
    after it is the rule); ``None`` otherwise."""
    market_buys: MarketBuys | None = None
    """In the view of the seat to act, between its actions and at a second rail's or
    development's offer: the coal and iron it would buy from the markets for a build, a rail
    or a development, with their price (:mod:`plugins.brass.market_buys`; added by
    :class:`~plugins.brass.engine_game.EngineGame`); absent otherwise."""


PROMPTS = bd.Prompts(
    discard="discard {n} card{s} from your hand to pay for the action",
    coal="{n} coal still needed for {where}: several nearest connected mines are tied; "
    "choose the mine (by its space) that gives the next cube",
    iron="{n} iron still needed: choose the iron works (by its space) that gives the next cube",
    liquidate="£{n} of negative income cannot be paid: remove one of your industries (by its "
    "space) for half its cost",
    offers={"more_sell": ("sell_also", "sell another industry in this action or finish with "
                          "done"),
            "more_develop": ("develop_also", "develop a second tile (one more iron) or finish "
                             "with done"),
            "free_develop": ("free_develop", "the merchant's bonus: develop one tile for free, "
                             "or done")},
    actions=ACTIONS,
)  # fmt: skip
"""The wording of the decisions every board has (the optional continuations: the
decision's kind and prompt)."""


def describe(d: Birmingham, names: Names, step: fev.Step, actions_left: int = 0) -> Decision:
    """The pending step ``step`` as a decision a client can act on (no seat): the family's
    steps worded by :data:`PROMPTS`, beer and the double rail's offer."""
    k, n = step.kind, step.n
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
    return bd.describe_step(names, step, actions_left, PROMPTS, Decision)


def decision(d: Birmingham, names: Names, s: State) -> Decision:
    return fc.current_decision(s, lambda step, left: describe(d, names, step, left), Decision)


def view(d: Birmingham, names: Names, s: State, seat: int | None) -> dict[str, Any]:
    tile_ids = [t.id for t in d.merchant_tiles]
    wild = d.cards.wild_location, d.cards.wild_industry
    doc = ViewDoc(
        seat=seat, era=bd.ERAS[s.era], **fc.turn_fields(s, seat, names.card),
        decision=decision(d, names, s),
        **bd.view_fields(d, names, s, INDUSTRIES, PlayerView, lambda i: {"wild_cards": {
            "location": s.hands[i].count(wild[0]), "industry": s.hands[i].count(wild[1])}}),
        wild_supply={"location": s.wild_supply[0], "industry": s.wild_supply[1]},
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


def redact(d: Birmingham, names: Names, e: Any, seat: int | None) -> dict[str, Any]:
    """Event ``e`` as ``seat`` may read it, ids as names: hidden cards only as counts."""
    card = names.card.__getitem__
    if type(e) is ev.Started:
        tile_ids = [tile.id for tile in d.merchant_tiles]
        merchants = {names.merchant[m]: tile_ids[k] for m, k in enumerate(e.merchants) if k >= 0}
        return bd.started_log(e, seat, card, merchants=merchants)
    return redact_log(
        e, seat, card, lambda step: describe(d, names, step), lambda e, out: _named(names, e, out)
    )


def _named(names: Names, e: Any, out: dict[str, Any]) -> dict[str, Any]:
    """Birmingham's events with ids as client names: the board's, and the merchant's."""
    out = bd.rename(names, INDUSTRIES, e, out)
    if type(e) is ev.MerchantBeerTaken:
        out["merchant"] = names.merchant[e.merchant]
    return out


class StartedLog(bd.StartedLog, kw_only=True):
    merchants: dict[str, str]
    """Merchant space -> the merchant tile on it (spaces left empty at this count absent)."""


def _payloads() -> dict[str, type[msgspec.Struct]]:
    """What the log serves for each stored event (``BrassBirmingham.LogPayloads``): the
    family's board shapes plus Birmingham's own events (ids as client names, as
    :func:`redact` writes them), each listed after the event named in ``after``."""
    own: dict[str, type[msgspec.Struct]] = {
        "started": StartedLog,
        "merchant_beer_taken": served(ev.MerchantBeerTaken, retyped={"merchant": str}),
        "bonus_gained": served(ev.BonusGained),
        "scouted": served(ev.Scouted),
    }
    board = bd.board_payloads(Decision)
    order = list(board)
    after = {"merchant_beer_taken": "flipped", "bonus_gained": "merchant_beer_taken",
             "scouted": "loan_taken"}  # fmt: skip
    for tag, before in after.items():
        order.insert(order.index(before) + 1, tag)
    return {tag: own.get(tag) or board[tag] for tag in order}


PAYLOADS = _payloads()


# --- the static board (GET /games metadata) --------------------------------------------------


def board(d: Birmingham, names: Names, develop: fev.Step) -> dict[str, Any]:
    """Every location, build space (with its icons), merchant space and link line by the
    ids the moves and views use, where each is drawn (``layout``) and the printed prices
    (``develop``: the variant's payment for a development)."""
    locations, spaces, *rest = bd.static_board(d, names, INDUSTRIES, develop).items()
    merchants = [
        {"merchant": names.merchant[m], "location": names.location[loc],
         "min_players": d.merchant_min_players[m], "bonus": msgspec.to_builtins(_bonus(d, loc))}
        for m, loc in enumerate(d.merchant_loc)
    ]  # fmt: skip
    out = dict([locations, spaces, ("merchant_spaces", merchants), *rest])
    # A second rail in one action needs beer besides its coal: Birmingham's own price.
    out["link_costs"]["second_rail"]["beer"] = d.rules.double_rail_beer
    return out
