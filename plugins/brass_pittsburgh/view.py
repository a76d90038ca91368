"""What clients read: the view document, the pending decision in words, the readable event
log and the static board. Every id here is a name the moves accept (``CLIENTS.md``).

The state keeps indices; this module is the only place that turns them into client names
(with :class:`~plugins.brass_pittsburgh.names.Names`), so views, logs and legal moves
cannot drift apart.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Literal

import msgspec

from plugins.brass import board_docs
from plugins.brass import client as fc
from plugins.brass import events as fev
from plugins.brass.board_docs import ON_SLOT, Prompts, describe_step, started_log
from plugins.brass.data import load
from plugins.brass.layout import Layout, check_layout, served
from plugins.brass.log import redact_log
from plugins.brass.log_payloads import (
    Named,
    family_payloads,
    named_payloads,
    rename_named,
)
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh.cube_costs import CubeCosts
from plugins.brass_pittsburgh.data import CUBES, DATA_DIR, DataError
from plugins.brass_pittsburgh.engine import FIELD, LINE, LINK_ROUTE, NETWORK
from plugins.brass_pittsburgh.links import LIGHT
from plugins.brass_pittsburgh.names import Names, SideNames
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.state import State

ACTIONS = ["build", "network", "develop", "sell", "loan", "pass"]


class Decision(fc.PlaceDecision, kw_only=True):
    """The family's decision (``count``: cards, cubes, barrels, free develops, stars); the
    optional ids say what it is for."""

    resource: str | None = None
    line: str | None = None
    route: str | None = None
    oilfield: str | None = None


class PlayerView(fc.PlayerCore, kw_only=True):
    whiskey: int
    light_trains: int
    """Light trains (``LT``) in the personal supply."""
    link_supply: list[str]
    """Heavy trains and pipelines unlocked and not built, by id."""
    mat: dict[str, int]
    """Tiles left on each mat space, by tile id."""
    accessible: list[str]
    """Mat spaces whose top tile may be built or developed now."""


class TileView(board_docs.TileView, kw_only=True):
    """An industry tile on the board, with the mat tile it came from and what its cubes are."""

    level: int | None  # type: ignore[assignment]
    """``None`` for the tiles printed without one (the Oil City, the crown jewels)."""
    tile: str
    """The mat tile id it came from (``K1``)."""
    resource: str | None
    """Coal, coke, iron or steel: what its ``resources`` are."""


class LineView(fc.Doc, kw_only=True):
    line: str
    ends: list[str]
    owner: int
    link: str
    """``LT`` or a heavy train id."""
    kind: Literal["light", "heavy"]
    carries: str | None
    """The resource a resource train carries (``None`` for other trains)."""
    cargo: int


class PipelineView(fc.Doc, kw_only=True):
    route: str
    oilfield: str
    city: str
    owner: int
    pipeline: str
    carries_oil: bool
    """``False`` for the reserve pipeline, which never carries oil."""


class LadderView(board_docs.MarketView, kw_only=True):
    """One resource's ladder at a market: no buying once it is empty, VP for each cube sold."""

    buy_price: int | None  # type: ignore[assignment]
    """What the next cube bought costs; ``None`` when empty (no buying from it)."""
    sell_vp: int | None


class MarketView(fc.Doc, kw_only=True):
    market: str
    city: str
    kind: str
    ladders: dict[str, LadderView]


class MerchantView(fc.Doc, kw_only=True):
    merchant: str
    location: str
    tile: str
    face_up: bool
    """Face down once sold to: it buys nothing more."""
    accepts: list[str]
    reward: list[dict[str, Any]]


class OilfieldView(fc.Doc, kw_only=True):
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


class QualityView(fc.Doc, kw_only=True):
    quality_space: int
    reward: str
    stars_required: int
    face_up: bool


class ViewDoc(fc.TurnView, kw_only=True):
    """The family's view header (where play stands), Pittsburgh's era counted from 1, its
    decision and players; then the data set and board side, and the board."""

    era: int  # type: ignore[assignment]
    """1 or 2, as the rulebook counts."""
    decision: Decision
    players: list[PlayerView]
    data_version: str
    provisional: bool
    side: str
    tiles: list[TileView]
    lines: list[LineView]
    pipelines: list[PipelineView]
    markets: list[MarketView]
    vanderbilt: dict[str, int]
    merchants: list[MerchantView]
    oilfields: list[OilfieldView]
    quality_rewards: list[QualityView]
    cube_costs: CubeCosts | None = None
    """In the view of the seat to act, between its actions and at a second link's or
    develop's offer: what the cubes of each build, link and develop it may start cost, paid
    the cheapest way (:mod:`.cube_costs`; the game's ``view`` adds it)."""


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


@functools.cache
def prompts(r: Rules) -> Prompts:
    """The wording of the decisions Pittsburgh shares with the family (its offers)."""
    extra = r.data.constants.second_link_extra_money
    return Prompts(
        discard="discard a card from your hand to pay for the action",
        offers={"more_link": ("second_link", f"place a second link (${extra} more) or finish: "
                              "done"),
                "more_develop": ("develop_also", "develop a second tile (one more iron or "
                                 "steel) or finish with done"),
                "free_develop": ("free_develop", "{n} free develop{s}: develop a mat tile for "
                                 "free, or done"),
                "more_sell": ("sell_also", "sell another tile in this action or finish with "
                              "done"),
                "bonus_sell": ("bonus_sell", "a bonus sale: sell one tile with no card, or "
                               "done"),
                "quality": ("claim_quality", "the sale earned {n} star{s}: claim a face-up "
                            "Quality Rewards tile (whiskey pays missing stars) or done")},
        counted=frozenset({"free_develop", "quality"}), actions=ACTIONS,
    )  # fmt: skip


def describe(r: Rules, names: Names, side: str, step: fev.Step, actions_left: int = 0) -> Decision:
    """The pending step ``step`` as a decision a client can act on (no seat): the family's
    steps worded by :func:`prompts`, and paying cubes, metal and oil, and the new tile's
    sale to markets."""
    n = names.sides[side]
    k, c = step.kind, step.n
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
    return describe_step(n, step, actions_left, prompts(r), Decision)


def decision(r: Rules, names: Names, s: State) -> Decision:
    return fc.current_decision(
        s, lambda step, left: describe(r, names, s.side, step, left), Decision
    )


class Tables:
    """What every view of one board side shares, by engine index: names, line ends, tile
    facts, merchant entries, market ladders by their cubes. Built once per side; a view
    copies them (``msgspec.to_builtins``), the bot view (:mod:`.bot_view`) only reads them."""

    def __init__(self, r: Rules, names: Names, side: str) -> None:
        d, board, n = r.data, r.board_of(side), names.sides[side]
        self.r, self.side, self.n = r, side, n
        self.card, self.tile_ids, self.space = list(names.card), list(names.tile), list(n.space)
        self.location = [n.location[board.slot_node[slot]] for slot in range(len(n.space))]
        self.line, self.line_ends = list(n.line), [list(li.endpoints) for li in board.lines]
        self.route = [(n.route[ri], rt.oilfield, rt.city) for ri, rt in enumerate(board.routes)]
        self.tile = {tile: (t.industry, t.level, r.tile_holds[tile] or None)
                     for tile, t in d.mat.tiles.items()}  # fmt: skip
        self.vanderbilt = dict(board.side.vanderbilt)
        self.merchant = {
            (m, t, face_up): {"merchant": n.merchant[m], "location": n.location[node], "tile": t,
                              "face_up": face_up, "accepts": list(tile.accepts),
                              "reward": msgspec.to_builtins(tile.reward)}
            for m, (node, _) in enumerate(board.merchant_spaces)
            for t, tile in d.merchant_tiles.items() for face_up in (False, True)
        }  # fmt: skip
        self.markets: dict[tuple[int, tuple[tuple[str, int], ...]], dict[str, Any]] = {}
        self.market_index = {name: m for m, name in enumerate(n.market)}
        self.merchant_location = [n.location[node] for node, _ in board.merchant_spaces]
        self.stars = {q: d.quality_rewards[q].stars_required for q in d.quality_rewards}

    def market(self, m: int, cubes: dict[str, int]) -> dict[str, Any]:
        """Market ``m``'s view for its ``cubes``: markets change only when cubes are bought
        or sold, and views (the bots' above all) are read far more often."""
        key = (m, tuple(cubes.items()))
        found = self.markets.get(key)
        if found is None:
            ladders, out = self.r.ladders[self.side][m], {}
            for res, held in cubes.items():
                ladder, sale = ladders[res], ladders[res].sell(held, 1)
                out[res] = LadderView(
                    cubes=held, capacity=ladder.capacity, buy_price=ladder.buy_price(held),
                    sell_price=sale.money if sale.sold else None,
                    sell_vp=sale.vp if sale.sold else None,
                )  # fmt: skip
            market = self.r.board_of(self.side).markets[m]
            found = self.markets[key] = msgspec.to_builtins(
                MarketView(market=self.n.market[m], city=market.city, kind=market.kind, ladders=out)
            )
        return found

    def board(self, s: State) -> dict[str, Any]:
        """The view's ``tiles``, ``lines``, ``pipelines``, ``markets``, ``vanderbilt`` and
        ``merchants`` of ``s`` (:class:`TileView`... as dicts, in that order)."""
        tiles, carries, pipes = self.tile, self.r.train_carries, self.r.data.pipelines
        return {
            "tiles": [{"space": self.space[slot], "location": self.location[slot], "owner": o,
                       "industry": tiles[t][0], "level": tiles[t][1],
                       "flipped": s.slot_flipped[slot], "resources": s.slot_cubes[slot],
                       "tile": t, "resource": tiles[t][2]}
                      for slot, o in enumerate(s.slot_owner) if o >= 0
                      for t in (s.slot_tile[slot],)],
            "lines": [{"line": self.line[li], "ends": self.line_ends[li], "owner": o,
                       "link": link, "kind": "light" if link == LIGHT else "heavy",
                       "carries": carries[link] or None, "cargo": s.line_cargo[li]}
                      for li, o in enumerate(s.line_owner) if o >= 0
                      for link in (s.line_link[li],)],
            "pipelines": [{"route": self.route[ri][0], "oilfield": self.route[ri][1],
                           "city": self.route[ri][2], "owner": o, "pipeline": pipe,
                           "carries_oil": pipes[pipe].carries_oil}
                          for ri, o in enumerate(s.route_owner) if o >= 0
                          for pipe in (s.route_pipeline[ri],)],
            "markets": [self.market(m, cubes) for m, cubes in enumerate(s.market_cubes)],
            "vanderbilt": self.vanderbilt,
            "merchants": [self.merchant[m, t, s.merchant_faceup[m]]
                          for m, t in enumerate(s.merchant_tile) if t],
        }  # fmt: skip


@functools.cache
def tables(r: Rules, names: Names, side: str) -> Tables:
    return Tables(r, names, side)


def view(r: Rules, names: Names, s: State, seat: int | None) -> dict[str, Any]:
    d, n = r.data, names.sides[s.side]
    card, tile_ids = names.card, names.tile
    doc = ViewDoc(
        data_version=d.version, provisional=d.manifest.provisional, side=s.side, seat=seat,
        era=s.era + 1, **fc.turn_fields(s, seat, card), decision=decision(r, names, s),
        players=[
            PlayerView(
                **fc.player_fields(r.income, s, i, card), whiskey=s.whiskey[i],
                light_trains=s.light_trains[i],
                link_supply=sorted(s.link_supply[i]),
                mat=dict(zip(tile_ids, s.mat[i], strict=True)),
                accessible=[tile_ids[k] for k in r.mat.accessible(s.mat[i])],
            )
            for i in range(s.players)
        ],
        **tables(r, names, s.side).board(s),
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

ON_FIELD, ON_LINE = Named(ids={"oilfield": "oilfield"}), Named(ids={"line": "line"})
LOG: dict[type, Named] = {
    ev.Gained: Named(), ev.IncomeSet: Named({"space": "income_space"}),
    ev.WhiskeySpent: Named(), ev.Bankrupt: Named(),
    ev.TileTaken: Named({"space": "tile"}, {"tile": "tile"}),
    ev.TilePlaced: Named({"space": "tile", "slot": "space"}, {"tile": "tile", "space": "space"}),
    ev.TileRemoved: ON_SLOT, ev.TileFlipped: ON_SLOT,
    ev.OilCityBuilt: Named({"space": "tile"}, {"tile": "tile", "oilfield": "oilfield"}),
    ev.OilCityFlipped: ON_FIELD, ev.CubeTaken: ON_SLOT, ev.CargoTaken: ON_LINE,
    ev.MarketBought: Named(ids={"market": "market"}),
    ev.CubesSold: Named({"slot": "space"}, {"space": "space", "market": "market"}),
    ev.OilTaken: ON_FIELD, ev.TrainPlaced: ON_LINE, ev.TrainReplaced: ON_LINE,
    ev.PipelinePlaced: Named(ids={"route": "route"}), ev.OilfieldRevealed: ON_FIELD,
    ev.MerchantFlipped: Named({"space": "merchant"}, {"merchant": "merchant"}),
    # the claimed tile's id comes with a quality space the match has a reward for
    ev.QualityClaimed: Named({"index": "quality_space"}, added={"reward": str}),
    # oil_released: barrels by oilfield id, the oilfields getting none left out
    ev.BoardCleared: Named({"slots": "spaces"}, {"lines": "line", "spaces": "space"},
                           retyped={"oil_released": dict[str, int]}),
}  # fmt: skip
"""Pittsburgh's own events in the log: mat spaces are ``tile``s, industry slots ``space``s,
as in the moves; ids by the side's tables (:func:`redact`)."""


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
    if type(e) is ev.Started:
        return started_log(
            e, seat, card, side=e.side, data_version=e.data_version,
            merchants={n.merchant[m]: k for m, k in enumerate(e.merchant_tiles) if k},
            oilfields_in_play=[n.oilfield[f] for f, k in enumerate(e.oilfield_tiles) if k],
            quality_rewards=e.quality_rewards,
        )  # fmt: skip
    return redact_log(
        e,
        seat,
        card,
        lambda step: describe(r, names, side, step),
        lambda e, out: _named(names, n, e, out, quality_rewards),
        first_era=1,  # as the view and the rulebook count
    )


def _named(
    names: Names, n: SideNames, e: Any, out: dict[str, Any], quality_rewards: Sequence[str]
) -> dict[str, Any]:
    """Pittsburgh's own events with ids as client names (``n``: the side's)."""
    out = rename_named(LOG, n.ids, e, out)
    t = type(e)
    if t is ev.BoardCleared:
        out["oil_released"] = {n.oilfield[f]: k for f, k in enumerate(e.oil_released) if k}
    elif t is ev.QualityClaimed and e.index < len(quality_rewards):
        out["reward"] = quality_rewards[e.index]
    return out


class StartedLog(board_docs.StartedLog, kw_only=True):
    """The family's first deal, with the board side, the data set and what setup drew."""

    side: str
    data_version: str
    merchants: dict[str, str]
    """Merchant space -> the merchant tile on it (spaces left empty at this count absent)."""
    oilfields_in_play: list[str]
    quality_rewards: list[str]


PAYLOADS: dict[str, type[msgspec.Struct]] = {
    **family_payloads(Decision), "started": StartedLog, **named_payloads(LOG),
}  # fmt: skip
"""What the log serves for each stored event (``BrassPittsburgh.LogPayloads``), as
:func:`redact` writes it."""


# --- the static board (GET /games metadata) --------------------------------------------------


def board(r: Rules, names: Names) -> dict[str, Any]:
    """Per board side, every location, industry space (with its icons), merchant space,
    line, pipeline route, oilfield and market by the ids the moves and views use; then
    what both sides share: the player mat, link tiles, merchant and quality reward tiles."""
    d = r.data
    sides = {}
    layouts = board_layouts(r, names)
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
                         "prices": {res: lad.prices[::-1] for res, lad in m.ladders.items()}}
                        for m in b.markets],
            "vanderbilt": dict(b.side.vanderbilt),
            "layout": served(layouts[sid]),
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


class _LayoutFile(msgspec.Struct, forbid_unknown_fields=True, frozen=True):
    sides: dict[str, Layout]
    header: dict[str, Any] = msgspec.field(default_factory=dict, name="_")


def board_layouts(r: Rules, names: Names) -> dict[str, Layout]:
    """``data/layout.json``: per board side, where every city, industry space, merchant
    space, line, pipeline route, oilfield and market is drawn; checked against the side's
    ids and against the data set's version (a layout drawn for another set is refused)."""
    path = DATA_DIR / "layout.json"
    doc = load(path, _LayoutFile)
    r.data.files.check_version(path.name, doc.header)
    if doc.sides.keys() != r.boards.keys():
        raise DataError("layout.json", "bad_sides", f"layout sides {sorted(doc.sides)} are not "
                        f"the board sides {sorted(r.boards)}")  # fmt: skip
    for sid, b in r.boards.items():
        n = names.sides[sid]
        ids = {
            "locations": [*b.side.cities, *b.side.merchants], "spaces": n.space,
            "merchant_spaces": n.merchant, "links": n.line, "pipeline_routes": n.route,
            "oilfields": list(b.side.oilfields), "markets": [m.id for m in b.markets],
        }  # fmt: skip
        check_layout(doc.sides[sid], ids, f"layout.json ({sid})")
    return dict(doc.sides)
