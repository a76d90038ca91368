"""The family engine's rule switches and override points that Birmingham leaves at their
defaults, each turned the other way on Birmingham's board (as Lancashire will): the
engine must follow the Variant, not Birmingham's rule."""

from __future__ import annotations

from random import Random
from typing import Any

import msgspec
import pytest
from bb_helpers import GAME, D, cname, load

from core.errors import IllegalMove
from plugins.brass import events as fev
from plugins.brass import turn
from plugins.brass.actions.loan import Loan
from plugins.brass.facts import Facts
from plugins.brass.turn import TurnResolver
from plugins.brass.variant import LoanOption
from plugins.brass_birmingham import moves as mv
from plugins.brass_birmingham.variant import BirminghamVariant


def variant(**switches: Any) -> BirminghamVariant:
    """Birmingham with some tables or methods replaced (set before the actions are indexed)."""
    v = BirminghamVariant(D, GAME.names)
    for name, value in switches.items():
        setattr(v, name, value)
    v.finish()
    return v


def refusal(v: BirminghamVariant, s: Any, m: Any) -> str:
    with pytest.raises(IllegalMove) as err:
        turn.decide(v, s, s.current, GAME.names.decode(m, s), Random(0))
    assert m not in turn.legal_moves(v, s, s.current)
    return err.value.code


def test_without_first_link_anywhere_a_seat_with_nothing_on_the_board_has_no_link() -> None:
    s = load(hands={0: ["coventry"]})
    m = mv.Network("birmingham~coventry")
    assert m in GAME.legal_moves(s, 0)  # Birmingham: a first link goes anywhere
    v = variant(first_link_anywhere=False)
    assert refusal(v, s, m) == "link_needs_presence"
    assert not [x for x in turn.legal_moves(v, s, 0) if isinstance(x, mv.Network)]


def test_without_the_single_icon_rule_a_shared_space_is_open_beside_an_empty_single_one() -> None:
    s = load(hands={0: ["kidderminster"]})
    m = mv.Build(cname("kidderminster"), "kidderminster:0", "cotton")
    assert m not in GAME.legal_moves(s, 0)  # Birmingham: kidderminster:1 comes first
    v = variant(single_icon_first=False)
    assert m in turn.legal_moves(v, s, 0)
    events = turn.decide(v, s, 0, GAME.names.decode(m, s), Random(0))
    assert any(isinstance(e, fev.TilePlaced) for e in events)


def test_a_tile_that_flips_when_built_is_flipped_in_the_same_action() -> None:
    s = load(hands={0: ["kidderminster"]})
    m = mv.Build(cname("kidderminster"), "kidderminster:1", "cotton")
    v = variant(flips_when_built=lambda ind, level: ind == 0)
    events = turn.decide(v, s, 0, GAME.names.decode(m, s), Random(0))
    placed = next(e for e in events if isinstance(e, fev.TilePlaced))
    assert fev.Flipped(placed.slot) in events


def test_a_loan_refused_by_the_variant_is_neither_listed_nor_decided() -> None:
    s = load(hands={0: ["coventry"]})
    assert mv.Loan() in GAME.legal_moves(s, 0)
    v = variant(loan_refusal=lambda s, seat, loan: ("no_loans_now", "not in these rounds"))
    assert refusal(v, s, mv.Loan()) == "no_loans_now"


class LoanOf(msgspec.Struct, tag="loan", frozen=True):
    """A loan move naming its money, for a variant with several loans on offer."""

    amount: int


def test_several_loans_each_listed_and_the_chosen_one_taken_with_its_levels() -> None:
    s = load(hands={0: ["coventry", "dudley"]}, income=[20, 10])
    options = (LoanOption((10, 1)), LoanOption((20, 2)), LoanOption((30, 3)))
    v = variant(loans=lambda s, seat: options)
    loan = Loan(LoanOf, LoanOf)
    f = Facts(v, s)
    assert loan.options(v, f, 0) == [LoanOf(10), LoanOf(20), LoanOf(30)]
    assert loan.refusal(v, f, 0, LoanOf(25)) == (
        "no_such_loan",
        "the loans on offer are £10, £20, £30",
    )
    r = TurnResolver(v, s, 0)
    loan.start(r, LoanOf(20))
    taken = r.events[0]
    assert isinstance(taken, fev.LoanTaken) and taken.amount == 20
    assert D.income.level(taken.space) == D.income.level(20) - 2
