"""A Brass game on the family engine: the data it supplies and the rules it overrides.

The family engine (:mod:`plugins.brass.turn` and the :mod:`plugins.brass.actions`
modules) asks the game only through a :class:`Variant`: its data tables, a few rule
switches, and named override methods. Every default below is the family rule, which is
Brass: Birmingham's wherever Birmingham and Lancashire agree; a game subclasses
:class:`Variant` in its own ``variant.py`` and overrides where its rule text differs
(``ENGINE_PLAN.md`` §5 lists, per rule, which game overrides what).

The data object ``d`` is the game's :class:`~plugins.brass.boarddata.BoardData` with, in
addition: ``rules`` (the game's ``rules.json``: ``link_tiles``, ``canal_link_cost``,
``rail_link_cost``, ``double_rail_cost``, ``coal_per_rail``...), ``tile(industry, level)``
(a tile row with ``money coal iron income vp link_icons develop``, ``buildable(era)`` and
``produce(era)``), ``coal_market``/``iron_market`` (:class:`~plugins.brass.market.Market`),
``income`` (:class:`~plugins.brass.income.IncomeTrack`), ``turn_rules`` and ``loc_icons``
(printed link icons per location). The state is the game's subclass of
:class:`~plugins.brass.board_state.BoardState` (mats, slots, links, markets).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from plugins.brass import events as ev
from plugins.brass import steps
from plugins.brass.actions import CANAL, RAIL, Action, DrawnStep, Refusal, StepKind
from plugins.brass.actions import build as bld
from plugins.brass.actions import develop as dev
from plugins.brass.actions import network as net
from plugins.brass.actions.sell import sellable_tiles, tile_refusal
from plugins.brass.facts import Facts
from plugins.brass.graph import nearest
from plugins.brass.scoring import link_icons, link_points

if TYPE_CHECKING:
    from plugins.brass.turn import TurnResolver


class LoanOption(tuple[int, int]):
    """``(money, levels)``: a loan's money and the income levels it costs."""

    __slots__ = ()

    @property
    def money(self) -> int:
        return self[0]

    @property
    def levels(self) -> int:
        return self[1]


class Variant:
    """The data tables and the rule overrides of one Brass game (see the module text).

    Construct with the game's data ``d``, its client ``names`` (``Ids`` per field kind:
    ``card space link industry``...) and its reducer ``apply(state, event)``; a subclass
    sets the tables below in its ``__init__`` before calling :meth:`finish` (the industries,
    and the coal and iron industries by those names, come from the board data)."""

    # --- data tables: set by the game --------------------------------------------------

    industries: tuple[str, ...] = ()
    """Industry names in the data's order (index = industry)."""
    coal: int = -1
    """The coal mine industry (its cubes are coal), or -1."""
    iron: int = -1
    """The iron works industry (its cubes are iron), or -1."""
    sellable: frozenset[int] = frozenset()
    """Industries the Sell action sells (flipping them)."""
    unsellable: str = "this industry is not sold"
    """The refusal's sentence for selling a tile of an industry outside :attr:`sellable`."""
    sale_target_names: Sequence[str] = ()
    """Client ids of the sale targets (Birmingham: merchant spaces)."""
    no_sale_target: str = "no such build space or sale target"
    """The refusal's sentence for a sale naming a space or target that does not exist."""
    trade_points: frozenset[int] = frozenset()
    """Locations that give access to the coal and iron markets and count as sale targets'
    places (Birmingham: the merchant locations)."""
    overbuild_opponent: frozenset[int] = frozenset()
    """Industries an opponent's tile of which may be overbuilt once no cube of its resource
    is left on the board or in the market."""
    first_link_anywhere: bool = True
    """A seat with nothing on the board may place its first link on any line."""
    single_icon_first: bool = True
    """An empty space showing only an industry's icon must take it before a shared one."""
    one_industry_per_location_canal: bool = True
    """In the canal era a seat may have at most one industry in each location."""
    tile_refund_divisor: int = 2
    """A tile sold off for an unpaid income returns its money cost divided by this."""
    loan_options: Sequence[LoanOption] = ()
    """The loans on offer, when a board's data lists several (:meth:`loans`)."""
    links_per_era: tuple[int, int] = (1, 2)
    """The most links one Network action places, per era: one canal, or one or two rails."""
    develop_payment: ev.Step = ev.Step("iron", 1)
    """The step paying for one developed tile (Birmingham: one iron)."""
    actions: tuple[Action, ...] = ()
    """The actions the game offers, in the order ``legal_moves`` lists them."""
    not_an_action: tuple[str, str] = (
        "not_an_action",
        "this move continues an action; none is in progress",
    )
    """Why a move that starts no action is refused when no action is in progress."""
    step_kinds: dict[str, StepKind] = {}
    """Every pending step kind by ``Step.kind``: the actions' and the game's own; built by
    :meth:`finish` from the actions plus :meth:`own_steps`."""

    def __init__(self, d: Any, names: Any, apply: Callable[[Any, Any], Any]) -> None:
        self.d, self.names = d, names
        self.reduce = apply
        self.industries = d.industries
        self.coal, self.iron = d.ind_index.get("coal", -1), d.ind_index.get("iron", -1)

    def take_switches(self, r: Any) -> None:
        """Set the rule switches from the data of a board that gives them
        (:class:`~plugins.brass.boarddata.RuleSwitches`)."""
        self.overbuild_opponent = frozenset(
            self.d.ind_index[n] for n in r.overbuild_opponent_industries
        )
        self.first_link_anywhere = r.first_link_anywhere
        self.single_icon_first = r.single_icon_space_first
        self.one_industry_per_location_canal = r.canal_one_own_industry_per_location
        self.tile_refund_divisor = r.shortfall_tile_refund_divisor
        self.links_per_era = (r.canal_links_per_action, r.rail_links_per_action)
        self.loan_options = tuple(LoanOption((loan.money, loan.levels)) for loan in r.loans)

    def finish(self) -> None:
        """Index the actions and step kinds (call once the tables are set)."""
        self.action_of: dict[type, Action] = {a.move: a for a in self.actions}
        self.continuation_of: dict[type, Action] = {
            t: a for a in self.actions for t in a.continuations
        }
        kinds: dict[str, StepKind] = {}
        for a in self.actions:
            kinds.update(a.step_kinds())
        kinds.update(self.own_steps())
        self.step_kinds = kinds
        self.drawn_steps = {k.move: k for k in kinds.values() if isinstance(k, DrawnStep)}
        """The steps the server draws, by their system move."""

    def own_steps(self) -> dict[str, StepKind]:
        """Step kinds of the game besides its actions' (the family's discard, resource
        takes and round-end liquidation come from :mod:`plugins.brass.steps`)."""
        return steps.family_steps()

    def action_while_pending(self, kind: StepKind) -> Refusal:
        """Why an action-starting move is refused while a step of ``kind`` waits: the
        action in progress comes first (``None``: the step kind's own refusal answers, as
        Pittsburgh's do)."""
        return ("decision_pending", f"finish the action in progress first: {kind.reason[1]}")

    def facts(self, s: Any) -> Facts:
        """The derived facts of ``s`` (a game with facts of its own returns a subclass)."""
        return Facts(self, s)

    def trade_nodes(self, s: Any) -> Iterable[int]:
        """The locations giving market access now: :attr:`trade_points` (Lancashire adds
        every town holding a port tile)."""
        return self.trade_points

    def name(self, ind: int) -> str:
        return self.industries[ind]

    def nameable(self, loc: int) -> bool:
        """Whether a wild location card may name ``loc`` (towns; not Birmingham's farms)."""
        return bool(self.d.locations[loc].kind == "town")

    # --- links (Network) ---------------------------------------------------------------

    def link_lines(self, era: int) -> Sequence[bool]:
        """Per link line, whether this era's link may be built on it (data flags)."""
        return self.d.link_rail if era == RAIL else self.d.link_canal

    def links_per_action(self, era: int) -> int:
        """Links one Network action may place in ``era`` (:attr:`links_per_era`)."""
        return self.links_per_era[era]

    def link_money(self, era: int, second: bool = False) -> int:
        """A link's money besides coal: the canal or rail price, or a second rail's extra
        (the double rail's price less the first rail's)."""
        r = self.d.rules
        if era == CANAL:
            return int(r.canal_link_cost)
        return int(r.double_rail_cost - r.rail_link_cost if second else r.rail_link_cost)

    def link_coal(self, era: int) -> int:
        """Coal each link of this era needs (delivered to the link): none for a canal."""
        return 0 if era == CANAL else int(self.d.rules.coal_per_rail)

    def link_moves(self, f: Facts, seat: int, named: type) -> list[Any]:
        """The Network action's first links now, each ``named`` by its client id (Birmingham:
        the lines :func:`~plugins.brass.actions.network.lines` allows)."""
        link = self.names.link
        return [named(link[li]) for li in net.lines(self, f, seat)]

    def second_link_moves(self, s: Any, seat: int, move: type) -> list[Any]:
        """The second links on offer now, each a ``move`` (an engine move)."""
        return [move(li) for li in net.lines(self, self.facts(s), seat, second=True)]

    def link_refusal(self, f: Facts, seat: int, m: Any, second: bool = False) -> Refusal:
        """Why the link ``m`` names may not be placed now (``second``: the action's second)."""
        return net.refusal(self, f, seat, m.link, second)

    def place_link(self, r: TurnResolver, m: Any, second: bool = False) -> list[ev.Step]:
        """The link ``m`` names placed and paid for (``second``: the action's second); returns
        the steps still to resolve (Birmingham: a rail's coal, a second rail's beer)."""
        return net.place(r, m.link, second)

    def second_link_refusal(self, f: Facts, seat: int, link: int) -> Refusal:
        """What a second link needs besides the first's rules (Birmingham: beer)."""
        return None

    def second_link_steps(self, link: int) -> list[ev.Step]:
        """Steps a second link adds after its coal (Birmingham: the double rail's beer)."""
        return []

    # --- building ------------------------------------------------------------------------

    build_moves = bld.moves
    """``build_moves(f, seat, named)``: the Build action's moves now, each ``named`` by its
    client ids (the family's listing itself, as a method: listing is the hot path, so no
    frame of its own)."""

    build_card_refusal = bld.card_refusal_of
    """``build_card_refusal(f, seat, m)``: why the card of build ``m`` may not build what
    and where ``m`` names (the names first: a card held, a space and industry that exist);
    the function itself, as :attr:`build_moves` (and the next two: deciding is hot too)."""
    build_place_refusal = bld.tile_place_refusal
    """``build_place_refusal(f, seat, m)``: why the seat's tile may not go where build ``m``
    names: the space's icon, the seat's lowest tile (one left, of this era), the space
    (empty or an overbuild)."""
    build_cost_refusal = bld.slot_cost_refusal
    """``build_cost_refusal(f, seat, m)``: why the seat cannot pay for build ``m``: the
    tile's money, coal and iron."""

    def build_card_paid(self, r: TurnResolver, m: Any) -> list[ev.Step]:
        """Build ``m``'s card discarded; returns the steps paying it (none: ``m`` names it)."""
        r.emit(ev.Discarded(r.seat, [m.card]))
        return []

    def build(self, r: TurnResolver, m: Any) -> list[ev.Step]:
        """Build ``m``'s tile placed and paid for (:func:`~plugins.brass.actions.build.place`);
        returns the steps still to resolve."""
        return bld.place(r, m.slot, m.industry)

    def overbuild_refusal(self, f: Facts, seat: int, slot: int, ind: int, level: int) -> Refusal:
        """Whether the seat's ``ind`` tile of ``level`` may replace the tile on ``slot``:
        the same industry at a higher level; an opponent's only for the industries of
        :attr:`overbuild_opponent` and only when none of their cubes is left anywhere."""
        s = f.s
        if s.slot_ind[slot] != ind:
            return ("overbuild_other_industry", "you may only overbuild the same industry")
        if level <= s.slot_level[slot]:
            return ("overbuild_not_higher", "an overbuild needs a higher-level tile")
        if s.slot_owner[slot] != seat:
            if ind not in self.overbuild_opponent:
                return (
                    "overbuild_opponent",
                    "only an opponent's coal mine or iron works may be overbuilt",
                )
            if ind == self.coal:
                left = s.coal_market + f.all_coal()
            else:
                left = s.iron_market + f.board_iron()
            if left:
                return (
                    "overbuild_resource_left",
                    f"an opponent's {self.name(ind)} tile may be overbuilt only when no "
                    f"{'coal' if ind == self.coal else 'iron'} is left on the board or the "
                    "market",
                )
        return None

    def flips_when_built(self, ind: int, level: int) -> bool:
        """Whether a tile flips as soon as it is built (Lancashire's shipyards)."""
        return False

    def produce(self, r: TurnResolver, slot: int) -> None:
        """A new tile's cubes: a mine's coal goes to the coal market if the mine is
        connected to a trade point, a works' iron always to the iron market, each up to
        the market's empty spaces and paid to the owner; a tile emptied so flips."""
        d, s = self.d, r.s
        ind = s.slot_ind[slot]
        cubes = d.tile(ind, s.slot_level[slot]).produce(s.era)
        sold = money = 0
        if ind == self.iron:
            sold, money = d.iron_market.sell(s.iron_market, cubes)
        elif ind == self.coal and self.facts(s).reaches_trade((d.slot_loc[slot],)):
            sold, money = d.coal_market.sell(s.coal_market, cubes)
        r.emit(ev.Produced(slot, cubes, sold, money))
        if sold == cubes:
            r.emit(ev.Flipped(slot))

    # --- resources -----------------------------------------------------------------------

    def sources(self, s: Any, seat: int, step: ev.Step) -> list[int]:
        """Where the next cube of a resource step may come from (slots); empty when the
        board has none, so the market supplies it. Coal: the nearest connected mines with
        coal (``a``: the location, or for ``link_coal`` the link); iron: any works."""
        d = self.d
        k = step.kind
        if k in ("coal", "link_coal"):
            starts = d.link_nodes[step.a] if k == "link_coal" else (step.a,)
            dist = d.graph.distances(starts, s.link_owner)
            coal = self.coal
            mines = [
                (d.slot_loc[i], i)
                for i, ind in enumerate(s.slot_ind)
                if ind == coal and s.slot_cubes[i]
            ]
            return nearest(dist, mines)
        iron = self.iron
        return [i for i, ind in enumerate(s.slot_ind) if ind == iron and s.slot_cubes[i]]

    # --- developing ----------------------------------------------------------------------

    def developable(self, s: Any, seat: int, free: bool = False, f: Any = None) -> list[int]:
        """What the seat may develop now (Birmingham: the industries whose lowest tile
        may go), paying for it unless ``free``; ``f`` the facts of ``s`` if at hand."""
        return dev.industries(self, self.facts(s) if f is None else f, seat, free)

    def develop_moves(self, f: Facts, seat: int, named: type) -> list[Any]:
        """The Develop action's moves now, each ``named`` by its client id."""
        industry = self.names.industry
        return [named(industry[i]) for i in self.developable(f.s, seat, False, f)]

    def develop_refusal(self, f: Facts, seat: int, m: Any, free: bool = False) -> Refusal:
        """Why the development ``m`` names is not allowed (``free``: nothing to pay)."""
        return dev.refusal(self, f, seat, m.industry, free)

    def develop(self, r: TurnResolver, m: Any) -> None:
        """The development ``m`` names: its tile leaves the seat's mat."""
        dev.develop(r, m.industry)

    # --- selling -------------------------------------------------------------------------

    def sale_options(self, f: Facts, seat: int) -> list[tuple[int, int]]:
        """The ``(slot, target)`` sales allowed now: each of the seat's sellable tiles to each
        of its :meth:`sale_candidates` that :meth:`sale_refusal` allows."""
        return [
            (slot, target)
            for slot in sellable_tiles(self, f, seat)
            for target in self.sale_candidates(f, slot)
            if self.sale_refusal(f, seat, slot, target) is None
        ]

    def sale_moves(self, f: Facts, seat: int, named: type) -> list[Any]:
        """The Sell action's moves now: :meth:`sale_options`, each ``named`` by its client
        ids."""
        space, target = self.names.space, self.sale_target_names
        return [named(space[slot], target[t]) for slot, t in self.sale_options(f, seat)]

    def sale_candidates(self, f: Facts, slot: int) -> Iterable[int]:
        """The sale targets worth asking about for the tile on ``slot``, in the order the
        legal moves list them (every game with Sell supplies this: Birmingham the merchants
        connected to it, Lancashire the connected ports and the distant market)."""
        raise NotImplementedError("a variant with the Sell action names its sale targets")

    def sale_refusal(self, f: Facts, seat: int, slot: int, target: int) -> Refusal:
        """Why the tile on ``slot`` may not be sold to ``target`` now: no such space or
        target (:attr:`no_sale_target`), not a tile the seat may sell, or the variant's
        :meth:`target_refusal`."""
        if not 0 <= slot < self.d.n_slots or not 0 <= target < len(self.sale_target_names):
            return ("bad_sale", self.no_sale_target)
        return tile_refusal(self, f, seat, slot) or self.target_refusal(f, seat, slot, target)

    def target_refusal(self, f: Facts, seat: int, slot: int, target: int) -> Refusal:
        """Why the seat's sellable tile on ``slot`` may not be sold to ``target`` now."""
        raise NotImplementedError("a variant with the Sell action names its sale targets")

    def sale_steps(self, r: TurnResolver, slot: int, target: int) -> list[ev.Step]:
        """Steps a sale needs before its tile flips (Birmingham: the beer)."""
        return []

    def sale(self, r: TurnResolver, slot: int, target: int) -> list[ev.Step]:
        """One sale's steps: what it needs (:meth:`sale_steps`), the flip, the offer of
        another."""
        return [*self.sale_steps(r, slot, target), ev.Step("flip", a=slot), ev.Step("more_sell")]

    # --- money ---------------------------------------------------------------------------

    def loans(self, s: Any, seat: int) -> Sequence[LoanOption]:
        """The loans on offer (money for income levels): :attr:`loan_options` when the
        data lists them, else Birmingham's one (``loan_amount``, ``loan_levels``)."""
        if self.loan_options:
            return self.loan_options
        r = self.d.rules
        return (LoanOption((r.loan_amount, r.loan_levels)),)

    def loan_refusal(self, s: Any, seat: int, loan: LoanOption) -> Refusal:
        """A loan may not take the seat's income below the track's lowest level."""
        if self.d.income.drop_levels(s.income[seat], loan.levels) is None:
            return ("loan_below_floor", "a loan may not take your income below level -10")
        return None

    def take_loan(self, r: TurnResolver, seat: int, loan: LoanOption, space: int) -> None:
        """The loan's events: its money, the income marker on ``space`` (Pittsburgh
        records the two as its own ``IncomeSet`` and ``Gained``)."""
        r.emit(ev.LoanTaken(seat, loan.money, space))

    def pass_reward(self, r: TurnResolver) -> None:
        """What passing gives besides giving up the action (Pittsburgh: a whiskey)."""

    def shortfall_step(self, r: TurnResolver, seat: int, owe: int) -> ev.Step | None:
        """A seat short of money for its negative income sells its industries, choosing
        which one at a time (asked only when it has two or more)."""
        owned = sum(o == seat for o in r.s.slot_owner)
        return ev.Step("liquidate", owe, seat) if owned > 1 else None

    def income_shortfall(self, r: TurnResolver, seat: int, owe: int) -> tuple[int, int]:
        """Sell the seat's only industry if that is still needed, then lose 1 VP per £1
        unpaid; returns ``(paid, vp_lost)``."""
        s = r.s
        owned = [i for i, o in enumerate(s.slot_owner) if o == seat]
        if owned and s.money[seat] < owe:
            self.liquidate(r, owned[0])
        paid = min(owe, s.money[seat])
        return paid, min(owe - paid, max(0, s.vp[seat]))

    def liquidate(self, r: TurnResolver, slot: int) -> None:
        """The tile on ``slot`` leaves the board for its cost over the refund divisor."""
        s = r.s
        refund = self.d.tile(s.slot_ind[slot], s.slot_level[slot]).money // self.tile_refund_divisor
        r.emit(ev.Liquidated(s.slot_owner[slot], slot, refund))

    # --- eras ----------------------------------------------------------------------------

    def era_change(self, r: TurnResolver, era: int) -> None:
        """Events between an era's scores and the next deal. The family's changes (links
        and level 1 tiles leaving) are the reducer's part of ``EraBegan``: none here."""

    def era_points(self, s: Any) -> tuple[list[int], list[int]]:
        """The era's scores per seat: links (each scores the link icons of flipped tiles,
        anyone's, and the printed icons at its locations) and flipped industries' VP."""
        d = self.d
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
