"""Loan: pay a card, take money from the bank, and move the income marker down.

The rule ("Loan: levels, not spaces" in the Birmingham rule text): any card pays; the loan
gives its money and costs income *levels*, the marker landing on the highest space of the
lower level. It may never take the marker below the track's lowest level, and it is never
repaid. Which loans are on offer is the variant's (:meth:`Variant.loans`: Birmingham one
of £30 for three levels, Lancashire £10/£20/£30 for one to three), and so is any further
ban (:meth:`Variant.loan_refusal`: Lancashire none once the Rail Era's deck is empty).
With one loan on offer the move has no field; with several it names the loan's money
(``amount``), and the listing offers each allowed one, smallest first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from plugins.brass.actions import Action, Refusal
from plugins.brass.events import Step

if TYPE_CHECKING:
    from plugins.brass.facts import Facts
    from plugins.brass.turn import TurnResolver
    from plugins.brass.variant import LoanOption, Variant


def chosen(v: Variant, s: Any, seat: int, m: Any) -> LoanOption | None:
    """The loan move ``m`` takes: the only one, or the one of its ``amount``."""
    loans = v.loans(s, seat)
    amount = getattr(m, "amount", None)
    if amount is None:
        return loans[0] if len(loans) == 1 else None
    return next((loan for loan in loans if loan.money == amount), None)


class Loan(Action):
    tag = "loan"

    def refusal(self, v: Variant, f: Facts, seat: int, m: Any) -> Refusal:
        loan = chosen(v, f.s, seat, m)
        if loan is None:
            offered = ", ".join(f"£{x.money}" for x in v.loans(f.s, seat))
            return ("no_such_loan", f"the loans on offer are {offered}")
        return v.loan_refusal(f.s, seat, loan)

    def options(self, v: Variant, f: Facts, seat: int) -> list[Any]:
        s, loans = f.s, v.loans(f.s, seat)
        if len(loans) == 1:
            return [self.named()] if v.loan_refusal(s, seat, loans[0]) is None else []
        return [self.named(x.money) for x in sorted(loans) if v.loan_refusal(s, seat, x) is None]

    def start(self, r: TurnResolver, m: Any) -> list[Step]:
        seat, loan = r.seat, chosen(r.v, r.s, r.seat, m)
        assert loan is not None
        space = r.d.income.drop_levels(r.s.income[seat], loan.levels)
        assert space is not None
        r.v.take_loan(r, seat, loan, space)
        return []
