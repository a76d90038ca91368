"""Pittsburgh's Build, Network, Develop and Sell as family :class:`~plugins.brass.actions.
Action`s; Loan and Pass are the family's own, with :class:`.variant.PittsburghVariant`'s
``loans``, ``loan_refusal``, ``take_loan`` and ``pass_reward``.

The rules (``brass-pittsburgh-rulebook.txt``): "Build Action" steps 1-5 with "Upgrading"
and the Oil City, "Network Action" steps 1-3 (pipelines, oilfield tiles, the second link
for $10 more), "Sell Action" steps 1-6 (oil, merchants, Quality Rewards, flips), "Develop
Action" steps 1-3. Each action's listing (:meth:`Action.options`) is the fast one of
:mod:`.engine`; :meth:`PittsburghAction.refusal` accepts a move by membership in it (so
listing and deciding cannot drift) and has :func:`.refusals.diagnose` name the broken rule
of a refused one. :meth:`Action.start` emits the first events and returns the step queue
(step kinds in :mod:`.steps`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plugins.brass import events as fev
from plugins.brass.actions import Action, Refusal
from plugins.brass.events import Step
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh import internal_moves as mv
from plugins.brass_pittsburgh.choices import link_cost
from plugins.brass_pittsburgh.data import CUBES
from plugins.brass_pittsburgh.engine import (
    FIELD,
    LINE,
    LINK_ROUTE,
    Facts,
    build_moves,
    develop_moves,
    gained,
    network_moves,
    remembered_listing,
    sell_moves,
)
from plugins.brass_pittsburgh.eras import train_link_vp
from plugins.brass_pittsburgh.finance import drop_income
from plugins.brass_pittsburgh.industries import already_flipped, oil_city_barrels
from plugins.brass_pittsburgh.links import LIGHT, place_pipeline
from plugins.brass_pittsburgh.refusals import GENERAL, diagnose
from plugins.brass_pittsburgh.rewards import Gains, gains
from plugins.brass_pittsburgh.scoring import location_icons
from plugins.brass_pittsburgh.selling import oil_needed
from plugins.brass_pittsburgh.state import era_number

if TYPE_CHECKING:
    from plugins.brass.turn import TurnResolver
    from plugins.brass.variant import Variant


class PittsburghAction(Action):
    """An action whose legal first moves are its listing: a move is accepted when listed
    (the state's remembered listing, else this action's narrowed to the move)."""

    def listed(self, v: Variant, f: Facts, seat: int, m: Any) -> list[Any]:
        """This action's moves that ``m`` may be among (all of them by default)."""
        return self.options(v, f, seat)

    def refusal(self, v: Variant, f: Any, seat: int, m: Any) -> Refusal:
        known = remembered_listing(v.d, f.s, seat)
        if m in (known if known is not None else self.listed(v, f, seat, m)):
            return None
        return diagnose(v.d, f.s, seat, m) or GENERAL[self.move]


def reward(r: TurnResolver, seat: int, g: Gains, queue: list[Step], front: bool = True) -> None:
    """Pay ``g``; free develops and bonus sells become offers to the acting seat, before
    the rest of ``queue`` (``front``) or after it."""
    r.emit_all(gained(seat, g))
    offers = []
    if g.free_develops:
        offers.append(Step("free_develop", g.free_develops))
    offers += [Step("bonus_sell") for _ in range(g.bonus_sells)]
    if offers and front:
        queue[0:0] = offers
    elif offers:
        queue += offers


class Build(PittsburghAction):
    """Build: a card (or whiskey and any card), a tile on a slot (an upgrade scores and
    replaces its own flipped tile) or the Oil City on an oilfield, its cost, its cubes
    sold to connected markets, already-flipped rewards."""

    tag = "build"
    cards = 0  # the move names its card (a whiskey build discards one next)

    def options(self, v: Variant, f: Any, seat: int) -> list[Any]:
        return build_moves(v.d, f.s, seat, f)

    def listed(self, v: Variant, f: Facts, seat: int, m: Any) -> list[Any]:
        return build_moves(v.d, f.s, seat, f, -1 if m.whiskey else m.card, m.space)

    def start(self, r: TurnResolver, m: Any) -> list[Step]:
        rules, s, seat = r.d, r.s, r.seat
        tile = rules.mat.tiles[m.space]
        queue: list[Step] = []
        if m.whiskey:
            r.emit(ev.WhiskeySpent(seat, 1))
            queue.append(Step("discard", 1))
        else:
            r.emit(fev.Discarded(seat, [m.card]))
        if tile.cost.income_levels:
            space = drop_income(rules.income, s.income[seat], -tile.cost.income_levels)
            assert space is not None
            r.emit(ev.IncomeSet(seat, space))
        if tile.cost.money:
            r.emit(fev.Paid(seat, tile.cost.money))
        board = rules.board_of(s.side)
        if m.oilfield >= 0:
            r.emit(ev.TileTaken(seat, m.space))
            barrels = oil_city_barrels(tile, 0)
            r.emit(ev.OilCityBuilt(seat, m.space, m.oilfield, barrels))
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
                ev.TilePlaced(
                    seat=seat, space=m.space, slot=m.slot, cubes=produced, flipped=flipped
                )
            )
            target = board.slot_node[m.slot]
        for cube, n in tile.cost.resources().items():
            queue.append(Step("cube", n, CUBES.index(cube), target))
        if m.oilfield < 0 and any(k in CUBES for k in tile.produces):
            queue.append(Step("produce", a=m.slot))
        if m.oilfield < 0 and already_flipped(rules.data, tile):
            level = rules.income.level(r.s.income[seat])
            reward(r, seat, gains(tile.flip_reward, level), queue, front=False)
        return queue


def place_link(r: TurnResolver, link: str, site: int) -> list[Step]:
    """Network step 2 for ``link`` on ``site``: a pipeline (its oil, the oilfield tile
    revealed by the first one) or a train (a replacement scores the light train first);
    then its cubes, a train's line bonus, and the rewards' offers."""
    rules, s, seat = r.d, r.s, r.seat
    board = rules.board_of(s.side)
    cost = link_cost(rules, link)
    offers: list[Step] = []  # rewards' free develops and bonus sells, after the payment
    if link in rules.data.pipelines:
        pipe = rules.data.pipelines[link]
        placed = place_pipeline(board, pipe, site, s.route_owner)
        r.emit(ev.PipelinePlaced(seat=seat, route=site, pipeline=link, oil_added=placed.oil_added))
        field = board.route_oilfield[site]
        if placed.reveals_oilfield and s.oilfield_tile[field]:
            tile = rules.data.oilfield_tiles[s.oilfield_tile[field]]
            era1 = era_number(s) == 1
            r.emit(
                ev.OilfieldRevealed(
                    oilfield=field, tile=tile.id, oil_now=0 if era1 else tile.production,
                    oil_later=tile.production if era1 else 0,
                )
            )  # fmt: skip
            reward(r, seat, gains(tile.reward), offers, front=False)
        b = LINK_ROUTE - site
    else:
        if s.line_owner[site] >= 0:  # a replacement train: the light train scores first
            owner = s.line_owner[site]
            icons = location_icons(rules, s)
            r.emit_all(gained(owner, Gains(vp=train_link_vp(board, site, icons, 1))))
            r.emit(ev.TrainReplaced(site))
        cargo = 0 if link == LIGHT else sum(rules.data.heavy_trains[link].carries.values())
        r.emit(ev.TrainPlaced(seat=seat, line=site, link=link, cargo=cargo))
        b = LINE - site
    steps = [Step("cube", n, CUBES.index(cube), b) for cube, n in cost.resources().items()]
    if link not in rules.data.pipelines:
        steps.append(Step("bonus", a=site))
    return steps + offers


class Network(PittsburghAction):
    """Network: a card, one link (then the offer of a second for $10 more)."""

    tag = "network"

    def options(self, v: Variant, f: Any, seat: int) -> list[Any]:
        return network_moves(v.d, f.s, seat, f)

    def listed(self, v: Variant, f: Facts, seat: int, m: Any) -> list[Any]:
        return network_moves(v.d, f.s, seat, f, m.link)

    def start(self, r: TurnResolver, m: Any) -> list[Step]:
        return [*place_link(r, m.link, m.site), Step("more_link")]


class Develop(PittsburghAction):
    """Develop: a card, one accessible tile off the mat for one iron or steel (then the
    offer of a second)."""

    tag = "develop"

    def options(self, v: Variant, f: Any, seat: int) -> list[Any]:
        return [mv.Develop(sp) for sp in develop_moves(v.d, f.s, seat, f)]

    def start(self, r: TurnResolver, m: Any) -> list[Step]:
        r.emit(ev.TileTaken(r.seat, m.space))
        return [Step("metal", 1), Step("more_develop")]


def sale(r: TurnResolver, slot: int, merchant: int, sold: int = 1) -> list[Step]:
    """A sale's steps for the tile on ``slot``, its ``sold``-th tile: oil, merchant, the
    offer of another tile, one Quality Reward, then the flip. A bonus sell takes the same
    steps (only its card is spared), so it may sell several tiles too."""
    tile = r.d.data.mat.tiles[r.s.slot_tile[slot]]
    return [
        Step("oil", oil_needed(tile), slot),
        Step("merchant", a=slot, b=merchant),
        # n: tiles of this sale so far, whose flips follow its quality step
        Step("more_sell", sold),
        Step("quality", tile.quality_stars),
        Step("flip", a=slot),
    ]


class Sell(PittsburghAction):
    """Sell: a card, one unflipped sellable tile to a connected merchant showing its icon
    (then the offer of another tile)."""

    tag = "sell"

    def options(self, v: Variant, f: Any, seat: int) -> list[Any]:
        return sell_moves(v.d, f.s, seat)

    def start(self, r: TurnResolver, m: Any) -> list[Step]:
        return sale(r, m.slot, m.merchant)
