"""What money and income are worth in VP at a point of a Brass game.

The greedy bot (:mod:`plugins.brass.bot`) weighs moves and the search hooks' ``evaluate``
weighs positions in one currency, VP; both convert money and income levels with these
figures, so a move the bot likes is one that raises its seat's evaluation.

Money is worth VP only through what it still buys: about :data:`MONEY_VP` while there are
rounds left to spend it, less in the last rounds and nothing once the game is over. An
income level is money at every round end still to come (none after the game's last round),
each payment discounted by :data:`PAYMENT_DISCOUNT` a round.
"""

from __future__ import annotations

from typing import NamedTuple

MONEY_VP = 0.4
"""VP a pound (or dollar) buys mid-game: a rail-era tile turns £20-30 into 10-20 VP and
income, a canal-era one less directly."""
LATE_MONEY_VP = (0.0, 0.15, 0.3)
"""Money's worth with 0, 1 or 2 rounds left in the game (the last rounds buy little)."""
ACTION_PRICE = 8
"""Money an action spends on average: what the seat's remaining actions will want."""
MIN_SCARCITY, MAX_SCARCITY = 0.3, 1.0
"""How far the seat's purse against its remaining actions moves money's worth."""
PAYMENT_DISCOUNT = 0.95
"""A payment one round later is worth this much of one now: money in hand builds the
income that pays the rounds after it."""


class Outlook(NamedTuple):
    """How much game is left for a seat's money and income."""

    rounds_era: int
    """Rounds left in this era, the current one included."""
    rounds_after: int
    """Rounds of the eras still to come."""
    payments: int
    """Income payments still to come (every round end but the game's last)."""
    money_vp: float
    """VP per unit of money."""
    income_vp: float
    """VP per income level (its payments, at money's worth)."""


def rounds_left(cards_left: int, players: int, actions_per_round: int = 2) -> int:
    """Rounds left in the era from the cards still to play (deck and hands): each round
    plays ``actions_per_round`` cards per seat."""
    per_round = actions_per_round * players
    return -(-cards_left // per_round) if cards_left > 0 else 0


def outlook(rounds_era: int, rounds_after: int, money: int, income_level: int) -> Outlook:
    """The worth of money and income for a seat holding ``money`` on ``income_level``, with
    ``rounds_era`` rounds left in this era (the current one included) and ``rounds_after``
    in the eras to come."""
    total = rounds_era + rounds_after
    payments = max(0, total - 1)
    base = LATE_MONEY_VP[total] if total < len(LATE_MONEY_VP) else MONEY_VP
    # Money is worth what it buys: dear while the seat's actions outrun its purse, cheap
    # once more will come in than its remaining actions can spend.
    purse = max(1, money + max(0, income_level) * payments)
    scarcity = min(MAX_SCARCITY, max(MIN_SCARCITY, ACTION_PRICE * 2 * total / purse))
    d = PAYMENT_DISCOUNT
    income_vp = MONEY_VP * d * (1 - d**payments) / (1 - d)
    return Outlook(rounds_era, rounds_after, payments, base * scarcity, income_vp)
