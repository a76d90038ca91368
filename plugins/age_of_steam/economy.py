"""A seat's money to the end of the game, turn by turn, for the bots: what spending now, a
bigger engine or more income later does to its final score.

:func:`final_score` plays the rest of the game on a seat's purse alone: shares are issued
in the share step just as far as this turn's spending and expenses need (the least a
player can do), income grows by the given gains in each Move Goods step, then income is
collected, expenses paid (a shortfall costs income, and income at 0 or below eliminates)
and income reduced, as the game does. The score is the map's: 3 per income less 3 per
share plus track sections, or (Barbados) money less $5 per share.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from plugins.age_of_steam.data import Board
from plugins.age_of_steam.rules import MAX_SHARES, SHARE_VALUE, income_reduction
from plugins.age_of_steam.state import State

ELIMINATED: Final = -100.0
"""The score the simulation gives a seat it sees go bankrupt in this turn's income step,
plus 1 for every income step it pays before: below any real score, since an eliminated
seat ranks below every seat still playing, and higher the later it goes out."""

_BEFORE_SHARES: Final = ("first_player", "shares")
BEFORE_MOVE: Final = ("first_player", "shares", "auction", "actions", "build", "move")
_BEFORE_SETTLE: Final = (*BEFORE_MOVE, "settle")


def settles_left(state: State) -> int:
    """Income steps still to come, this turn's included."""
    return state.last_turn - state.turn + (state.phase in _BEFORE_SETTLE)


def moves_left(state: State) -> int:
    """Move Goods steps still to come, this turn's included."""
    return state.last_turn - state.turn + (state.phase in BEFORE_MOVE)


def can_issue_now(state: State, seat: int) -> bool:
    """Whether this turn's share step is still ahead of the seat."""
    if state.phase == "shares":
        return seat in state.queue
    return state.phase == "first_player"


def final_score(
    b: Board,
    state: State,
    seat: int,
    spend: int = 0,
    spend_next: int = 0,
    engine_up: int = 0,
    gains: Sequence[float] = (),
    sections: int = 0,
    banked: float = 0.0,
) -> tuple[float, int]:
    """(expected final score, shares the share step must issue this turn) for the seat
    spending ``spend`` this turn (and ``spend_next`` the next), raising its engine by
    ``engine_up`` now and gaining ``gains[j]`` income in the ``j``-th Move Goods step still
    to come (0: the next one). ``sections`` are the track sections it will score.

    Gains are hoped for, not sure (another player may deliver the cube first): a turn's
    expenses must be covered without that turn's gains, except ``banked`` (the sure part
    of the next step's, e.g. a delivery being made). Shares are issued to cover them, and
    where they no longer can be, the shortfall is taken as lost income (or elimination)."""
    p = state.pl[seat]
    money, shares, income, engine = float(p.money), p.shares, float(p.income), p.engine + engine_up
    cap = b.rules.max_shares_per_turn or MAX_SHARES
    issue_now = can_issue_now(state, seat)
    offset = 0 if state.phase in BEFORE_MOVE else 1
    issued_now = 0
    for t in range(settles_left(state)):
        need = spend if t == 0 else spend_next if t == 1 else 0
        j = t - offset
        g = gains[j] if 0 <= j < len(gains) else 0.0
        sure = income + (banked if j == 0 else 0.0)
        if t > 0 or issue_now:
            k = 0
            while (
                shares + k < MAX_SHARES
                and k < cap
                and (money + SHARE_VALUE * k < need
                     or money + SHARE_VALUE * k - need + sure < shares + k + engine)
            ):  # fmt: skip
                k += 1
            shares += k
            money += SHARE_VALUE * k
            if t == 0:
                issued_now = k
        money -= need
        if money < 0:
            return ELIMINATED + t, issued_now
        expenses = shares + engine
        short = expenses - money - sure
        income += g
        if short > 0:
            if sure - short <= 0:
                return ELIMINATED + t, issued_now
            income -= short
            money = max(0.0, money + income - expenses)
        else:
            money += income - expenses
        income -= income_reduction(int(income))
    if b.rules.scoring == "buyback":
        return money - SHARE_VALUE * shares, issued_now
    return 3 * income - 3 * shares + sections, issued_now
