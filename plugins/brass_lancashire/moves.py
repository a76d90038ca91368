"""Brass: Lancashire moves, named as clients send them, and the engine forms of its own.

Each move is declared once (:class:`plugins.brass.vocabulary.Declare`): the named form
beside the engine's, ``MOVES`` the pairs :mod:`~plugins.brass_lancashire.names` converts.
Names (``CLIENTS.md``): cards as the hand shows them (``location:bolton``,
``industry:cotton``); industries ``cotton coal iron port shipyard``; build spaces
``<location>:<n>``; links ``<a>~<b>`` (sorted ends); a sale goes ``to`` a port's build
space or ``distant_market``. The engine works on indices: the family's moves
(:mod:`plugins.brass.moves`) plus :class:`DoubleBuildAt`, :class:`LoanOf` and
:class:`DrawDemand` (the chance move, the same in both forms).
"""

from __future__ import annotations

from typing import Annotated, Literal

from msgspec import Meta, Struct

from plugins.brass import moves as fm
from plugins.brass.board_names import board_kinds, board_moves
from plugins.brass.moves import Done, ScoreEra
from plugins.brass.vocabulary import Declare
from plugins.brass_lancashire.data import INDUSTRIES

Target = Annotated[str, Meta(description="a port's build space, or 'distant_market'",
                             examples=["liverpool:1", "distant_market"])]  # fmt: skip


class DrawDemand(Struct, tag="draw_demand", frozen=True, forbid_unknown_fields=True):
    """System, a chance move: the demand tile for the sale in progress (``tile``: spaces
    down, 0 to 4), drawn by the server unless an imported record gives it."""

    tile: int | None = None


class DoubleBuildAt(Struct, tag="double_build", frozen=True):
    slot: int
    industry: int


class LoanOf(Struct, tag="loan", frozen=True):
    amount: int


KINDS = board_kinds(INDUSTRIES, ["location:bolton", "industry:cotton"], "manchester:0",
                    "bolton~manchester")  # fmt: skip
move = Declare(__name__, {**KINDS, "target": Target, "amount": Literal[10, 20, 30]})
SALE = ("space>slot:space", "to>merchant:target")
Develop, Pass, Discard, PickIron, Liquidate, DevelopAlso = board_moves(move)
Build = move(fm.Build, "Build your lowest ``industry`` tile on ``space``, discarding ``card``.",
             "card:card", "space>slot:space", "industry:industry")  # fmt: skip
DoubleBuild = move(DoubleBuildAt, "Both actions: any two cards (chosen next) as a location "
                   "card of ``space``'s town.", "space>slot:space", "industry:industry",
                   name="DoubleBuild")  # fmt: skip
Network = move(fm.Network, "Place one link on ``link`` (Canal Era: a canal; Rail Era: a first "
               "rail).", "link:link")  # fmt: skip
Sell = move(fm.Sell, "Sell your cotton mill on ``space`` through a port or to the distant "
            "market.", *SALE)  # fmt: skip
Loan = move(LoanOf, "Take £10, £20 or £30 (``amount``) for one, two or three income levels.",
            "amount:amount", name="Loan")  # fmt: skip
PickCoal = move(fm.PickCoal, "Take the next coal from the mine on ``space`` (one of the tied "
                "nearest).", "space>slot:space")  # fmt: skip
SecondLink = move(fm.SecondLink, "Rail Era: a second rail on ``link`` in this action (£10 more "
                  "and its coal).", "link:link")  # fmt: skip
SellAlso = move(fm.SellAlso, "Sell one more cotton mill in this Sell action.", *SALE)
MOVES = move.pairs

Move = (
    Build | DoubleBuild | Network | Develop | Sell | Loan | Pass | Discard | PickCoal | PickIron
    | Liquidate | SecondLink | SellAlso | DevelopAlso | Done | ScoreEra | DrawDemand
)  # fmt: skip
__all__ = ["Done", "Move", "ScoreEra"]
