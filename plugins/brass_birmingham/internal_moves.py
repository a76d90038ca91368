"""Moves as the engine works with them: indices into the data tables, not names.

The shared ones are the family's (:mod:`plugins.brass.moves`); this module adds
Birmingham's own (scout, beer, the free development) and re-exports them all. Clients never
see these: they send and receive the named moves of
:mod:`plugins.brass_birmingham.moves`, and :mod:`plugins.brass_birmingham.names` converts
at the boundary. Cards are card-kind indices (``data.cards``); slots, links, merchant
spaces and industries are indices as described in :mod:`plugins.brass_birmingham.data`.
"""

from __future__ import annotations

import msgspec

from plugins.brass.moves import (
    Build,
    Develop,
    DevelopAlso,
    Discard,
    Done,
    Liquidate,
    Loan,
    Network,
    Pass,
    PickCoal,
    PickIron,
    ScoreEra,
    SecondLink,
    Sell,
    SellAlso,
)


class Scout(msgspec.Struct, tag="scout", frozen=True):
    """Discard three cards (chosen next) for one wild location and one wild industry card."""


class PickBeer(msgspec.Struct, tag="pick_beer", frozen=True):
    """Take the next beer from the brewery on ``slot``."""

    slot: int


class PickMerchantBeer(msgspec.Struct, tag="pick_merchant_beer", frozen=True):
    """Take the next beer from beside the merchant you are selling to."""


class FreeDevelop(msgspec.Struct, tag="free_develop", frozen=True):
    """Take a merchant's free development (Gloucester) on ``industry``."""

    industry: int


Move = (
    Build | Network | Develop | Sell | Loan | Scout | Pass | Discard | PickCoal | PickIron
    | PickBeer | PickMerchantBeer | Liquidate | SecondLink | SellAlso | DevelopAlso | FreeDevelop
    | Done | ScoreEra
)  # fmt: skip

__all__ = ["Build", "Develop", "DevelopAlso", "Discard", "Done", "Liquidate", "Loan", "Move",
           "Network", "Pass", "PickCoal", "PickIron", "ScoreEra", "SecondLink", "Sell",
           "SellAlso"]  # fmt: skip
