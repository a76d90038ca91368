"""Loan: pay a card, take money from the bank, and move the income marker down.

The rule ("Loan: levels, not spaces" in the Birmingham rule text): any card pays; the loan
gives its money and costs income *levels*, the marker landing on the highest space of the
lower level. It may never take the marker below the track's lowest level, and it is never
repaid. Which loans are on offer is the variant's (:meth:`Variant.loans`: Birmingham one
of £30 for three levels, Lancashire £10/£20/£30 for one to three), and so is any further
ban (:meth:`Variant.loan_refusal`: Lancashire none once the Rail Era's deck is empty).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plugins.brass import events as ev
from plugins.brass.actions import Action, Refusal

if TYPE_CHECKING:
    from plugins.brass.facts import Facts
    from plugins.brass.turn import TurnResolver
    from plugins.brass.variant import Variant


class Loan(Action):
    tag = "loan"

    def refusal(self, v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
        return v.loan_refusal(f.s, seat, v.loans(f.s, seat)[0])

    def options(self, v: Variant, f: Facts, seat: int) -> list[Any]:
        loan = v.loans(f.s, seat)[0]
        return [self.named()] if v.loan_refusal(f.s, seat, loan) is None else []

    def start(self, r: TurnResolver, m: Any) -> list[ev.Step]:
        seat, loan = r.seat, r.v.loans(r.s, r.seat)[0]
        space = r.d.income.drop_levels(r.s.income[seat], loan.levels)
        assert space is not None
        r.emit(ev.LoanTaken(seat, loan.money, space))
        return []
