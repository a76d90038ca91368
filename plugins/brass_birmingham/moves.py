"""Brass: Birmingham's moves, each declared once (:class:`plugins.brass.vocabulary.Declare`):
the named form clients send, every field a name the view shows, beside the engine form
(indices) the actions work on: the family's (:mod:`plugins.brass.moves`) and Birmingham's
own below. ``MOVES`` are the pairs :class:`~plugins.brass_birmingham.names.Names` converts.

Names (documented with examples in ``CLIENTS.md``):

* cards as the hand shows them: ``location:<town>``, ``industry:<industry>`` (the dual card
  is ``industry:cotton/manufacturer``), ``wild:location``, ``wild:industry``;
* industries: ``cotton``, ``manufacturer``, ``pottery``, ``coal``, ``iron``, ``brewery``;
* build spaces: ``<location>:<n>``, the ``n``-th space of the location from 0 in board order
  (``birmingham:2``); merchant spaces the same way at merchant locations (``oxford:1``);
* links: the line's two ends, sorted and joined by ``~`` (``birmingham~dudley``).
"""

from __future__ import annotations

from typing import Annotated

from msgspec import Meta, Struct

from plugins.brass import moves as fm
from plugins.brass.board_names import board_kinds, board_moves
from plugins.brass.moves import Done, ScoreEra
from plugins.brass.vocabulary import Declare
from plugins.brass_birmingham.data import INDUSTRIES

Merchant = Annotated[str, Meta(description="a merchant space: location id, ':', index from 0",
                               examples=["oxford:0"])]  # fmt: skip


class Scout(Struct, tag="scout", frozen=True):
    """Discard three cards (chosen next) for one wild location and one wild industry card."""


class BeerAt(Struct, tag="pick_beer", frozen=True):
    """Engine form: take the next beer from the brewery on ``slot``."""

    slot: int


class MerchantBeer(Struct, tag="pick_merchant_beer", frozen=True):
    """Engine form: take the next beer from beside the merchant you are selling to."""


class FreeDevelopOf(Struct, tag="free_develop", frozen=True):
    """Engine form: a merchant's free development (Gloucester) on ``industry``."""

    industry: int


KINDS = board_kinds(INDUSTRIES, ["location:cannock", "industry:coal", "wild:location"],
                    "cannock:0", "birmingham~dudley")  # fmt: skip
move = Declare(__name__, {**KINDS, "merchant": Merchant})
SALE = ("space>slot:space", "merchant:merchant")
Develop, Pass, Discard, PickIron, Liquidate, DevelopAlso = board_moves(move)
Build = move(fm.Build, "Build your lowest ``industry`` tile on ``space`` (empty, or an "
             "overbuild),\ndiscarding ``card``.", "card:card", "space>slot:space",
             "industry:industry")  # fmt: skip
Network = move(fm.Network, "Place one link on ``link`` (canal era: a canal; rail era: a first "
               "rail).", "link:link")  # fmt: skip
Sell = move(fm.Sell, "Sell your industry on ``space`` to the merchant on ``merchant``.", *SALE)
Loan = move(fm.Loan, "Take £30 and drop three income levels.")
PickCoal = move(fm.PickCoal, "Take the next coal from the mine on ``space`` (one of the tied "
                "nearest mines).", "space>slot:space")  # fmt: skip
PickBeer = move(BeerAt, "Take the next beer barrel from ``source``: a brewery's build space, "
                "or the merchant\nspace being sold to (its barrel; the merchant's bonus "
                "follows).", "source>slot:space", name="PickBeer",
                source=Annotated[str, Meta(examples=["stafford:0", "oxford:0"])])  # fmt: skip
SecondLink = move(fm.SecondLink, "Rail era: add a second rail on ``link`` to this Network "
                  "action (double rail).", "link:link")  # fmt: skip
SellAlso = move(fm.SellAlso, "Sell one more industry in this Sell action.", *SALE)
FreeDevelop = move(FreeDevelopOf, "Take a merchant's free development (Gloucester) on "
                   "``industry``.", "industry:industry", name="FreeDevelop")  # fmt: skip
MOVES = move.pairs

Move = (
    Build | Network | Develop | Sell | Loan | Scout | Pass | Discard | PickCoal | PickIron
    | PickBeer | Liquidate | SecondLink | SellAlso | DevelopAlso | FreeDevelop | Done | ScoreEra
)  # fmt: skip

__all__ = ["Done", "Move", "ScoreEra"]
