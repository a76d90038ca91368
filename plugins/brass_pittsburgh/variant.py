"""Brass: Pittsburgh on the family engine: its actions, step kinds and named overrides.

The family's :mod:`plugins.brass.turn` runs the turn (``decide``, the step queue, rounds,
the era's end) over this :class:`~plugins.brass.variant.Variant`, whose data ``d`` is the
game's :class:`.rules.Rules`. Pittsburgh's own rules (``brass-pittsburgh-rulebook.txt``):

* "Develop Action": one accessible, developable mat tile for one iron or steel, or free
  (line bonus, merchant, Locomotive Works: ``free_develop``), recorded as ``TileTaken``
  (``develop_moves``, ``developable``, ``develop_refusal``, ``develop``,
  ``develop_payment``);
* "Sell Action": the seat's tiles to connected merchants, with oil, merchants' and
  Quality Rewards, the flips last (``sale_moves``, ``sale_refusal``, ``sale``; the steps
  in :mod:`.actions.sell`);
* "Build Action": a card (or a whiskey and any card), an accessible tile on an empty
  slot, an upgrade of one's own flipped tile or the Oil City on a piped oilfield, its
  income levels, money and cubes, its own cubes sold to connected markets, an
  already-flipped tile's rewards (``build_moves``, ``build_card_refusal``,
  ``build_place_refusal``, ``build_cost_refusal``, ``build_card_paid``, ``build``; the
  rules in :mod:`.actions.build`, the ``produce`` step its own);
* "Network Action": trains on railroad lines and pipelines on routes, a second link for
  $10 more in either era (``links_per_era``, ``link_moves``, ``second_link_moves``,
  ``link_refusal``, ``place_link``; the rules in :mod:`.actions.network`);
* "Loan Action": $30 for three income levels, never below level -10 (``loans``,
  ``loan_refusal``), recorded as Pittsburgh's ``IncomeSet`` and ``Gained`` (``take_loan``);
* passing gains a whiskey (``pass_reward``, "Whiskey");
* "Income": a seat that cannot pay goes bankrupt, no liquidation (``shortfall_step``,
  ``income_shortfall``);
* "End of Era Scoring": trains score their locations' icons, flipped tiles their VP, then
  the board clears (``era_points``, ``era_change``: ``BoardCleared``);
* every refused move gets a code and sentence of its own rule, an action's first move
  included while a step waits (``not_an_action``, ``action_while_pending``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from plugins.brass.actions import Refusal, StepKind
from plugins.brass.actions.build import Build
from plugins.brass.actions.develop import Develop
from plugins.brass.actions.loan import Loan
from plugins.brass.actions.network import Network
from plugins.brass.actions.pass_ import Pass
from plugins.brass.actions.sell import Sell
from plugins.brass.events import Paid, Step
from plugins.brass.variant import LoanOption, Variant
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh import internal_moves as mv
from plugins.brass_pittsburgh.actions import in_range, income_floor, network, sell
from plugins.brass_pittsburgh.actions.build import (
    Produce,
    build_moves,
    card_paid,
    card_refusal,
    place,
    place_refusal,
    tile_cost_refusal,
)
from plugins.brass_pittsburgh.building import develop_spaces
from plugins.brass_pittsburgh.choices import network_sites, sale_candidates
from plugins.brass_pittsburgh.engine import METAL, Facts, cheapest
from plugins.brass_pittsburgh.finance import drop_income
from plugins.brass_pittsburgh.move_tables import DEVELOPS_KEPT, MoveTables
from plugins.brass_pittsburgh.scoring import score_era
from plugins.brass_pittsburgh.state import apply
from plugins.brass_pittsburgh.steps import own_steps

if TYPE_CHECKING:
    from plugins.brass.turn import TurnResolver
    from plugins.brass_pittsburgh.rules import Rules


METAL_STEP = Step("metal", 1)
"""A develop's payment: one iron or steel."""


class PittsburghVariant(Variant):
    develop_payment = METAL_STEP
    links_per_era = (2, 2)
    """Rulebook "Network Action" step 3: a second link may follow in either era."""
    not_an_action = (
        "not_an_action",
        "start an action: Build, Network, Develop, Sell, Loan or Pass",
    )

    def __init__(self, rules: Rules) -> None:
        self.d, self.names = rules, None
        self.reduce = partial(apply, rules)
        self.industries = tuple(rules.industries)
        self.actions = tuple(
            kind(move, move)  # deciding reads these; listings, MoveTables.actions
            for kind, move in (
                (Build, mv.Build),
                (Network, mv.Network),
                (Develop, mv.Develop),
                (Sell, mv.Sell),
                (Loan, mv.Loan),
                (Pass, mv.Pass),
            )
        )
        self._metal_worst = {
            side: min(map(board.vanderbilt_price, METAL)) for side, board in rules.boards.items()
        }
        """Per board side, the most a develop's iron or steel costs (``engine.dearest``)."""
        c = rules.data.constants
        self.loan = LoanOption((c.loan_amount, c.loan_income_levels))
        self._loan_allowed = [
            drop_income(rules.income, space, self.loan.levels) is not None
            for space in range(len(rules.data.income_track.space_to_level))
        ]
        """Per income space, whether the loan keeps the income level above the floor."""
        self.finish()

    def own_steps(self) -> dict[str, StepKind]:
        return {
            **own_steps(),
            **sell.step_kinds(),
            **network.step_kinds(),
            "produce": Produce(),
        }

    def facts(self, s: Any) -> Any:
        return Facts(self.d, s, s.current)

    def action_while_pending(self, kind: StepKind) -> Refusal:
        return None

    # Build (:mod:`.actions.build`): the hooks are the rule's functions themselves, no
    # frame of their own (listing and deciding are the hot path)
    build_moves = build_moves
    build_card_refusal = card_refusal
    build_place_refusal = place_refusal
    build_cost_refusal = tile_cost_refusal
    build_card_paid = card_paid
    build = place

    def link_moves(self, f: Any, seat: int, named: MoveTables) -> list[Any]:
        """Rulebook "Network Action" step 2: each tile of the supply on each site it may take."""
        return _links(self.d, f, seat, named.links, False)

    def second_link_moves(self, s: Any, seat: int, move: type | MoveTables) -> list[Any]:
        """Rulebook "Network Action" step 3: step 2 again, for $10 more (``move``: the
        engine's move, listed from the side's engine table, or the tables to list from)."""
        tables = move if isinstance(move, MoveTables) else self.d.move_tables[s.side]
        return _links(self.d, Facts(self.d, s, seat), seat, tables.links, True)

    def link_refusal(self, f: Any, seat: int, m: Any, second: bool = False) -> Refusal:
        """Rulebook "Network Action" steps 2-3: the first rule the link breaks, in order."""
        return network.link_refusal(self.d, f.s, seat, m, second)

    def place_link(self, r: TurnResolver, m: Any, second: bool = False) -> list[Step]:
        """Rulebook "Network Action" step 2's effects (step 3: first the second link's $10)."""
        if second:
            r.emit(Paid(r.seat, self.d.data.constants.second_link_extra_money))
        return network.place_link(r, m.link, m.site)

    def developable(self, s: Any, seat: int, free: bool = False, f: Any = None) -> list[int]:
        """Mat spaces whose top tile the seat may develop away (paying one iron or steel
        unless ``free``)."""
        if not free and self._no_metal(s, seat, f):
            return []
        return develop_spaces(self.d, s, seat)

    def _no_metal(self, s: Any, seat: int, f: Any) -> bool:
        """Whether the seat cannot pay for one iron or steel now."""
        money = s.money[seat]
        return self._metal_worst[s.side] > money and (
            cheapest(self.d, s, seat, METAL_STEP, 1, f) > money
        )

    def develop_refusal(self, f: Any, seat: int, m: Any, free: bool = False) -> Refusal:
        rules, s, space = self.d, f.s, m.space
        if not in_range(space, len(rules.mat.tiles)):
            return ("no_such_tile", f"mat space {space} does not exist")
        tile = rules.mat.tiles[space]
        if space not in rules.mat.accessible(s.mat[seat]):
            return ("tile_not_accessible", f"{tile.id} is not accessible on your mat")
        if space not in develop_spaces(rules, s, seat):
            return ("not_developable", f"{tile.id} is marked not developable in the game data")
        if free:
            return None
        price = cheapest(rules, s, seat, METAL_STEP, 1, f)
        if price > s.money[seat]:
            return (
                "resources_unaffordable",
                f"a develop costs one iron or steel, ${price} at the cheapest, and you have "
                f"${s.money[seat]}",
            )
        return None

    def develop(self, r: TurnResolver, m: Any) -> None:
        r.emit(ev.TileTaken(r.seat, m.space))

    def develop_moves(self, f: Any, seat: int, named: MoveTables) -> list[Any]:
        s = f.s
        if self._no_metal(s, seat, f):
            return []
        # Which tiles a mat lets be developed depends on what is left on it alone: every
        # action listing asks, and a mat changes only when a tile leaves it.
        key = tuple(s.mat[seat])
        kept = named.develops
        found = kept.get(key)
        if found is None:
            if len(kept) >= DEVELOPS_KEPT:
                kept.clear()
            made = named.developed
            found = kept[key] = [made[space] for space in develop_spaces(self.d, s, seat)]
        return found.copy()

    def sale_moves(self, f: Any, seat: int, named: type) -> list[Any]:
        return [
            named(c.slot, m)
            for c in sale_candidates(self.d, f.s, seat, f.slots, f.labels)
            for m in c.merchants
        ]

    def sale_refusal(self, f: Any, seat: int, slot: int, target: int) -> Refusal:
        return sell.sale_refusal(self.d, f.s, seat, slot, target)

    def sale(self, r: TurnResolver, slot: int, target: int) -> list[Step]:
        return sell.sale(r, slot, target)

    def loans(self, s: Any, seat: int) -> Sequence[LoanOption]:
        return (self.loan,)

    def loan_refusal(self, s: Any, seat: int, loan: LoanOption) -> Refusal:
        if loan is self.loan and self._loan_allowed[s.income[seat]]:
            return None  # every action listing asks
        return income_floor(self.d, s, seat, loan.levels, "a loan")

    def take_loan(self, r: TurnResolver, seat: int, loan: LoanOption, space: int) -> None:
        r.emit(ev.IncomeSet(seat, space))
        r.emit(ev.Gained(seat=seat, money=loan.money))

    def pass_reward(self, r: TurnResolver) -> None:
        r.emit(ev.Gained(seat=r.seat, whiskey=1))

    def shortfall_step(self, r: TurnResolver, seat: int, owe: int) -> None:
        return None

    def income_shortfall(self, r: TurnResolver, seat: int, owe: int) -> tuple[int, int]:
        """Bankruptcy: whiskey drunk, 40 VP lost, income back to level 0; nothing paid."""
        r.emit(ev.Bankrupt(seat))
        return 0, self.d.data.constants.bankruptcy_vp_loss

    def era_points(self, s: Any) -> tuple[list[int], list[int]]:
        score = score_era(self.d, s)
        return score.link_vp, score.industry_vp

    def era_change(self, r: TurnResolver, era: int) -> None:
        # The era's scores only added VP: the board still shows what leaves it.
        score = score_era(self.d, r.s)
        r.emit(
            ev.BoardCleared(
                lines=score.trains_removed,
                slots=score.slots_cleared,
                oil_released=score.oil_released,
            )
        )


def _links(
    rules: Rules, f: Facts, seat: int, made: dict[str, tuple[list[Any], list[Any]]], second: bool
) -> list[Any]:
    """The link moves (first or ``second``) of the seat, from the facts ``f`` of the state
    (the network and payments that builds ask too), read from the side's table ``made``."""
    which = 1 if second else 0
    sites = network_sites(rules, f.s, seat, second, f.network, lambda: f.payment)
    # each tile's moves found once (a one-item loop is an assignment in a comprehension)
    return [row[site] for tile, found in sites for row in [made[tile][which]] for site in found]
