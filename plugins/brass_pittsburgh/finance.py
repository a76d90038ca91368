"""Money and income moves of Pittsburgh expressed on the family income track.

Income rises by spaces and falls by levels (:class:`plugins.brass.income.IncomeTrack`);
nothing may take a player's income level below -10. A loan gives $30 for three levels; a
few tiles (Skyscraper, Locomotive Works) cost income levels as part of their build cost.
At the end of each round but the game's last, each player gains or pays their income
level; a player who cannot pay goes bankrupt (``Bankrupt``: whiskey, 40 VP and its
income level go).

Decision (rulebook silent): a bankrupt player pays none of that round's negative income;
the three bankruptcy steps replace the payment.
"""

from __future__ import annotations

from plugins.brass.income import IncomeTrack


def drop_income(track: IncomeTrack, space: int, levels: int) -> int | None:
    """The income space after losing ``levels`` levels (highest space of the new level),
    or ``None`` when that would go below the track's floor (the action is refused)."""
    return track.drop_levels(space, levels) if levels > 0 else space
