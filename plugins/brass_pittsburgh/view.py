"""What clients read: the view document, the pending decision in words, the readable event
log and the static board. Every id here is a name the moves accept (``CLIENTS.md``).

The state keeps indices; this module is the only place that turns them into client names
(with :class:`~plugins.brass_pittsburgh.names.Names`), so views, logs and legal moves
cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from plugins.brass import events as fev
from plugins.brass.hidden import own_cards, redact_core
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh.data import CUBES
from plugins.brass_pittsburgh.engine import FIELD, LINE, LINK_ROUTE, NETWORK
from plugins.brass_pittsburgh.links import LIGHT
from plugins.brass_pittsburgh.names import Names, SideNames
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.state import OVER, PLAY, SCORING, State

ACTIONS = ["build", "network", "develop", "sell", "loan", "pass"]


class _Doc(msgspec.Struct, kw_only=True, omit_defaults=True):
    pass


class Decision(_Doc, kw_only=True):
    """Who must choose now and how: ``moves`` are the move types that answer, ``prompt``
    says it in words; ``count`` is how many units are still needed (cards, cubes, barrels,
    free develops, stars); the optional ids say what it is for."""

    seat: int | None = None
    kind: str
    moves: list[str]
    prompt: str
    count: int | None = None
    resource: str | None = None
    space: str | None = None
    location: str | None = None
    line: str | None = None
    route: str | None = None
    oilfield: str | None = None


class PlayerView(_Doc, kw_only=True):
    seat: int
    money: int
    spent: int
    """Spent this round (the next round's order: least spent first)."""
    income_space: int
    income_level: int
    vp: int
    whiskey: int
    hand_count: int
    discards: list[str]
    """Face-up discards, by card name."""
    facedown_count: int
    light_trains: int
    """Light trains (``LT``) in the personal supply."""
    link_supply: list[str]
    """Heavy trains and pipelines unlocked and not built, by id."""
    mat: dict[str, int]
    """Tiles left on each mat space, by tile id."""
    accessible: list[str]
    """Mat spaces whose top tile may be built or developed now."""


class TileView(_Doc, kw_only=True):
    space: str
    location: str
    owner: int
    tile: str
    """The mat tile id it came from (``K1``)."""
    industry: str
    level: int | None
    flipped: bool
    resources: int
    """Cubes left on it (coal, coke, iron or steel as ``resource`` says)."""
    resource: str | None


class LineView(_Doc, kw_only=True):
    line: str
    ends: list[str]
    owner: int
    link: str
    """``LT`` or a heavy train id."""
    kind: Literal["light", "heavy"]
    carries: str | None
    """The resource a resource train carries (``None`` for other trains)."""
    cargo: int


class PipelineView(_Doc, kw_only=True):
    route: str
    oilfield: str
    city: str
    owner: int
    pipeline: str
    carries_oil: bool
    """``False`` for the reserve pipeline, which never carries oil."""


class LadderView(_Doc, kw_only=True):
    cubes: int
    capacity: int
    buy_price: int | None
    """What the next cube bought costs; ``None`` when empty (no buying from it)."""
    sell_price: int | None
    """What the next cube sold into it earns; ``None`` when it is full."""
    sell_vp: int | None


class MarketView(_Doc, kw_only=True):
    market: str
    city: str
    kind: str
    ladders: dict[str, LadderView]


class MerchantView(_Doc, kw_only=True):
    merchant: str
    location: str
    tile: str
    face_up: bool
    """Face down once sold to: it buys nothing more."""
    accepts: list[str]
    reward: list[dict[str, Any]]


class OilfieldView(_Doc, kw_only=True):
    oilfield: str
    in_play: bool
    """``False``: no oilfield tile at this player count."""
    face_down: bool
    tile: str | None
    """The oilfield tile once revealed (``None`` while face down)."""
    oil: int
    """Barrels ready to use."""
    oil_later: int
    """Barrels released when era 1 ends."""
    oil_city_owner: int | None
    oil_city_flipped: bool


class QualityView(_Doc, kw_only=True):
    quality_space: int
    reward: str
    stars_required: int
    face_up: bool


class ViewDoc(_Doc, kw_only=True):
    game: str = "brass-pittsburgh"
    data_version: str
    provisional: bool
    side: str
    seat: int | None
    """The viewer (``None``: a spectator)."""
    era: int
    """1 or 2, as the rulebook counts."""
    round: int
    phase: Literal["play", "scoring", "over"]
    order: list[int]
    turn_seat: int | None
    """The seat whose turn it is (``None`` between eras and after the game)."""
    actions_left: int
    decision: Decision
    players: list[PlayerView]
    hand: list[str] | None
    """The viewer's own cards (``None`` for a spectator)."""
    deck_count: int
    tiles: list[TileView]
    lines: list[LineView]
    pipelines: list[PipelineView]
    markets: list[MarketView]
    vanderbilt: dict[str, int]
    merchants: list[MerchantView]
    oilfields: list[OilfieldView]
    quality_rewards: list[QualityView]


def _target(n: SideNames, b: int) -> dict[str, str]:
    """Where a cube step delivers (the engine's ``Step.b``: a city node, the seat's network
    for a develop, a line, a pipeline route or an oilfield), as a decision field."""
    if b >= 0:
        return {"location": n.location[b]}
    if b == NETWORK:
        return {}
    if b > LINK_ROUTE:
        return {"line": n.line[LINE - b]}
    if b > FIELD:
        return {"route": n.route[LINK_ROUTE - b]}
    return {"oilfield": n.oilfield[FIELD - b]}


def describe(r: Rules, names: Names, side: str, step: fev.Step, actions_left: int = 0) -> Decision:
    """The pending step ``step`` as a decision a client can act on (no seat)."""
    n = names.sides[side]
    k, c = step.kind, step.n
    if k == "discard":
        return Decision(kind="discard", moves=["discard"], count=c,
                        prompt="discard a card from your hand to pay for the action")  # fmt: skip
    if k == "cube":
        cube = CUBES[step.a]
        where = _target(n, step.b)
        to = next(iter(where.values()), "your network")
        return Decision(
            kind="pay", moves=["pay"], count=c, resource=cube, **where,
            prompt=f"{c} {cube} still needed for {to}: choose where the next one comes from "
            "(your resource train, a connected tile, a connected market, Vanderbilt)",
        )  # fmt: skip
    if k == "metal":
        return Decision(kind="pay", moves=["pay"], count=c, resource="iron/steel",
                        prompt="one iron or steel for the develop: choose its source")  # fmt: skip
    if k == "oil":
        space = n.space[step.a]
        return Decision(kind="pay", moves=["pay"], count=c, resource="oil", space=space,
                        prompt=f"{c} oil still needed to sell {space}: choose the pipeline "
                        "route (or your oil train) the next barrel comes through")  # fmt: skip
    if k == "produce":
        space = n.space[step.a]
        return Decision(kind="sell_produced", moves=["sell_produced"], space=space,
                        prompt=f"split the cubes of the new tile on {space} among the "
                        "connected markets (sell_produced plan: market id to cubes)")  # fmt: skip
    if k == "more_link":
        extra = r.data.constants.second_link_extra_money
        return Decision(kind="second_link", moves=["second_link", "done"],
                        prompt=f"place a second link (${extra} more) or finish: done")  # fmt: skip
    if k == "more_develop":
        return Decision(kind="develop_also", moves=["develop_also", "done"],
                        prompt="develop a second tile (one more iron or steel) or finish "
                        "with done")  # fmt: skip
    if k == "free_develop":
        return Decision(kind="free_develop", moves=["free_develop", "done"], count=c,
                        prompt=f"{c} free develop{'s' if c > 1 else ''}: develop a mat tile "
                        "for free, or done")  # fmt: skip
    if k == "more_sell":
        return Decision(kind="sell_also", moves=["sell_also", "done"],
                        prompt="sell another tile in this action or finish with done")  # fmt: skip
    if k == "bonus_sell":
        return Decision(kind="bonus_sell", moves=["bonus_sell", "done"],
                        prompt="a bonus sale: sell one tile with no card, or done")  # fmt: skip
    if k == "quality":
        return Decision(kind="claim_quality", moves=["claim_quality", "done"], count=c,
                        prompt=f"the sale earned {c} star{'s' if c != 1 else ''}: claim a "
                        "face-up Quality Rewards tile (whiskey pays missing stars) "
                        "or done")  # fmt: skip
    return Decision(kind="action", moves=ACTIONS,
                    prompt=f"choose an action ({actions_left} left this turn)")  # fmt: skip


def decision(r: Rules, names: Names, s: State) -> Decision:
    if s.phase == SCORING:
        return Decision(kind="era_scoring", moves=[],
                        prompt="the era is over: the server is scoring it")  # fmt: skip
    if s.phase == OVER:
        return Decision(kind="game_over", moves=[], prompt="the game is over")
    step = s.pending[0] if s.pending else fev.Step("action")
    return msgspec.structs.replace(describe(r, names, s.side, step, s.actions_left), seat=s.current)


def _market(r: Rules, side: str, m: int, cubes: dict[str, int], n: SideNames) -> MarketView:
    market = r.board_of(side).markets[m]
    ladders = r.ladders[side][m]
    out = {}
    for res, held in cubes.items():
        ladder = ladders[res]
        sale = ladder.sell(held, 1)
        out[res] = LadderView(
            cubes=held, capacity=ladder.capacity, buy_price=ladder.buy_price(held),
            sell_price=sale.money if sale.sold else None, sell_vp=sale.vp if sale.sold else None,
        )  # fmt: skip
    return MarketView(market=n.market[m], city=market.city, kind=market.kind, ladders=out)


def view(r: Rules, names: Names, s: State, seat: int | None) -> dict[str, Any]:
    d, board, n = r.data, r.board_of(s.side), names.sides[s.side]
    card, tile_ids = names.card, names.tile
    doc = ViewDoc(
        data_version=d.version, provisional=d.manifest.provisional, side=s.side, seat=seat,
        era=s.era + 1, round=s.round, phase=s.phase,  # type: ignore[arg-type]
        order=list(s.order),
        turn_seat=s.order[s.turn] if s.phase == PLAY and s.turn < s.players else None,
        actions_left=s.actions_left, decision=decision(r, names, s),
        players=[
            PlayerView(
                seat=i, money=s.money[i], spent=s.spent[i], income_space=s.income[i],
                income_level=r.income.level(s.income[i]), vp=s.vp[i], whiskey=s.whiskey[i],
                hand_count=len(s.hands[i]), discards=[card[c] for c in s.discards[i]],
                facedown_count=len(s.facedown[i]), light_trains=s.light_trains[i],
                link_supply=sorted(s.link_supply[i]),
                mat=dict(zip(tile_ids, s.mat[i], strict=True)),
                accessible=[tile_ids[k] for k in r.mat.accessible(s.mat[i])],
            )
            for i in range(s.players)
        ],
        hand=None if seat is None else [card[c] for c in s.hands[seat]],
        deck_count=len(s.deck),
        tiles=[
            TileView(
                space=n.space[slot], location=n.location[board.slot_node[slot]], owner=o,
                tile=s.slot_tile[slot], industry=d.mat.tiles[s.slot_tile[slot]].industry,
                level=d.mat.tiles[s.slot_tile[slot]].level, flipped=s.slot_flipped[slot],
                resources=s.slot_cubes[slot], resource=r.tile_holds[s.slot_tile[slot]] or None,
            )
            for slot, o in enumerate(s.slot_owner) if o >= 0
        ],
        lines=[
            LineView(
                line=n.line[li], ends=list(board.lines[li].endpoints), owner=o,
                link=s.line_link[li], kind="light" if s.line_link[li] == LIGHT else "heavy",
                carries=r.train_carries[s.line_link[li]] or None, cargo=s.line_cargo[li],
            )
            for li, o in enumerate(s.line_owner) if o >= 0
        ],
        pipelines=[
            PipelineView(
                route=n.route[ri], oilfield=board.routes[ri].oilfield, city=board.routes[ri].city,
                owner=o, pipeline=s.route_pipeline[ri],
                carries_oil=d.pipelines[s.route_pipeline[ri]].carries_oil,
            )
            for ri, o in enumerate(s.route_owner) if o >= 0
        ],
        markets=[_market(r, s.side, m, cubes, n) for m, cubes in enumerate(s.market_cubes)],
        vanderbilt=dict(board.side.vanderbilt),
        merchants=[
            MerchantView(
                merchant=n.merchant[m], location=n.location[board.merchant_spaces[m][0]],
                tile=t, face_up=s.merchant_faceup[m], accepts=list(d.merchant_tiles[t].accepts),
                reward=msgspec.to_builtins(d.merchant_tiles[t].reward),
            )
            for m, t in enumerate(s.merchant_tile) if t
        ],
        oilfields=[_oilfield(s, f, name) for f, name in enumerate(n.oilfield)],
        quality_rewards=[
            QualityView(quality_space=i, reward=q, face_up=s.quality_faceup[i],
                        stars_required=d.quality_rewards[q].stars_required)
            for i, q in enumerate(s.quality_rewards)
        ],
    )  # fmt: skip
    return msgspec.to_builtins(doc)


def _oilfield(s: State, f: int, name: str) -> OilfieldView:
    tile = s.oilfield_tile[f]
    shown = bool(tile) and s.oilfield_revealed[f]
    owner = s.oil_city_owner[f]
    return OilfieldView(
        oilfield=name, in_play=bool(tile), face_down=bool(tile) and not shown,
        tile=tile if shown else None, oil=s.oil[f], oil_later=s.oil_pending[f] if shown else 0,
        oil_city_owner=owner if owner >= 0 else None, oil_city_flipped=s.oil_city_flipped[f],
    )  # fmt: skip


# --- the event log --------------------------------------------------------------------------

_RENAMED: dict[type, dict[str, str]] = {
    ev.TileTaken: {"space": "tile"},
    ev.TilePlaced: {"space": "tile", "slot": "space"},
    ev.OilCityBuilt: {"space": "tile"},
    ev.TileRemoved: {"slot": "space"},
    ev.TileFlipped: {"slot": "space"},
    ev.CubeTaken: {"slot": "space"},
    ev.CubesSold: {"slot": "space"},
    ev.IncomeSet: {"space": "income_space"},
    ev.MerchantFlipped: {"space": "merchant"},
    ev.QualityClaimed: {"index": "quality_space"},
}
"""Event fields whose client name differs from the engine's (mat spaces are ``tile``s,
industry slots ``space``s, as in the moves)."""


def redact(
    r: Rules,
    names: Names,
    side: str,
    e: Any,
    seat: int | None,
    quality_rewards: Sequence[str] = (),
) -> dict[str, Any]:
    """Event ``e`` of a match on board ``side`` as ``seat`` may read it, ids as names:
    hidden cards only as counts, face-down oilfield tiles not at all. ``quality_rewards``
    (the match's, by quality space) adds the claimed tile's id to ``quality_claimed``."""
    card = names.card.__getitem__
    n = names.sides[side]
    t = type(e)
    if t is ev.Started:
        return {
            "players": e.players, "side": e.side, "data_version": e.data_version,
            "order": e.order, "deck_count": len(e.deck),
            "hand_counts": [len(h) for h in e.hands],
            "facedown_counts": [len(f) for f in e.facedown],
            "hand": None if seat is None else own_cards(e.hands[seat], seat, seat, card),
            "merchants": {n.merchant[m]: k for m, k in enumerate(e.merchant_tiles) if k},
            "oilfields_in_play": [n.oilfield[f] for f, k in enumerate(e.oilfield_tiles) if k],
            "quality_rewards": e.quality_rewards,
        }  # fmt: skip
    shared = redact_core(e, seat, card)
    if shared is not None:
        if "era" in shared:
            shared["era"] += 1  # as the view and the rulebook count
        if shared.get("cards"):
            # drawn in deck order, which no seat may learn: shown as a set
            shared["cards"] = sorted(shared["cards"])
        return shared
    if t is fev.Awaiting:
        return {
            "deciding": e.seat if e.seat >= 0 else None,
            "decision": msgspec.to_builtins(describe(r, names, side, e.steps[0])),
        }
    out = msgspec.to_builtins(e)
    del out["type"]  # the log's envelope carries it
    if t is fev.EraScored:
        out["era"] += 1
    if t in _RENAMED:
        out = {_RENAMED[t].get(k, k): v for k, v in out.items()}
    if "tile" in out and t is not ev.OilfieldRevealed:
        out["tile"] = names.tile[out["tile"]]
    if isinstance(out.get("space"), int) and t is not ev.IncomeSet:
        out["space"] = n.space[out["space"]]
    if t is ev.MerchantFlipped:
        out["merchant"] = n.merchant[e.space]
    elif t in (ev.CargoTaken, ev.TrainPlaced, ev.TrainReplaced):
        out["line"] = n.line[e.line]
    elif t is ev.PipelinePlaced:
        out["route"] = n.route[e.route]
    elif t is ev.MarketBought or t is ev.CubesSold:
        out["market"] = n.market[e.market]
    elif t in (ev.OilCityBuilt, ev.OilCityFlipped, ev.OilTaken, ev.OilfieldRevealed):
        out["oilfield"] = n.oilfield[e.oilfield]
    elif t is ev.BoardCleared:
        out["lines"] = [n.line[li] for li in e.lines]
        out["spaces"] = [n.space[slot] for slot in out.pop("slots")]
        out["oil_released"] = {n.oilfield[f]: k for f, k in enumerate(e.oil_released) if k}
    elif t is ev.QualityClaimed and e.index < len(quality_rewards):
        out["reward"] = quality_rewards[e.index]
    elif t is fev.Discarded:
        out["cards"] = [card(c) for c in e.cards]  # discards are face up
    return out


# --- the static board (GET /games metadata) --------------------------------------------------


def board(r: Rules, names: Names) -> dict[str, Any]:
    """Per board side, every location, industry space (with its icons), merchant space,
    line, pipeline route, oilfield and market by the ids the moves and views use; then
    what both sides share: the player mat, link tiles, merchant and quality reward tiles."""
    d = r.data
    sides = {}
    for sid, b in r.boards.items():
        n = names.sides[sid]
        sides[sid] = {
            "players": b.side.players,
            "cities": [{"location": c.id, "name": c.name, "region": c.region}
                       for c in b.side.cities.values()],
            "merchant_locations": [{"location": m.id, "name": m.name}
                                   for m in b.side.merchants.values()],
            "spaces": [{"space": n.space[slot], "location": n.location[b.slot_node[slot]],
                        "icons": list(b.slot_icons[slot])}
                       for slot in range(len(b.slot_node))],
            "merchant_spaces": [{"merchant": n.merchant[m], "location": n.location[node],
                                 "min_players": least}
                                for m, (node, least) in enumerate(b.merchant_spaces)],
            "lines": [{"line": n.line[li], "ends": list(line.endpoints),
                       "bonus": msgspec.to_builtins(line.bonus)}
                      for li, line in enumerate(b.lines)],
            "pipeline_routes": [{"route": n.route[ri], "oilfield": route.oilfield,
                                 "city": route.city, "oil_icons": route.oil_icons}
                                for ri, route in enumerate(b.routes)],
            "oilfields": [{"oilfield": o.id, "name": o.name, "min_players": o.min_players}
                          for o in b.side.oilfields.values()],
            "markets": [{"market": m.id, "city": m.city, "kind": m.kind,
                         "prices": {res: [sp.price for sp in lad.spaces]
                                    for res, lad in m.ladders.items()}}
                        for m in b.markets],
            "vanderbilt": dict(b.side.vanderbilt),
        }  # fmt: skip
    return {
        "sides": sides,
        "default_side_by_players": {str(k): v for k, v in d.default_side_by_players.items()},
        "cards": list(names.card),
        "mat": {
            "tiles": [msgspec.to_builtins(t) for t in r.mat.tiles],
            "arrows": [{"from": a.from_, "to": a.to, "kind": a.kind} for a in d.mat.arrows],
            "locked_links": [
                {"link": ls.link, "unlocked_by": ls.unlocked_by} for ls in d.mat.link_spaces
            ],
        },
        "link_tiles": {
            "light_train": LIGHT,
            "heavy_trains": [msgspec.to_builtins(h) for h in d.heavy_trains.values()],
            "pipelines": [msgspec.to_builtins(p) for p in d.pipelines.values()],
        },
        "merchant_tiles": [msgspec.to_builtins(t) for t in d.merchant_tiles.values()],
        "quality_rewards": [msgspec.to_builtins(q) for q in d.quality_rewards.values()],
    }
