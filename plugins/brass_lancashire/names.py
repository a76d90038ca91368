"""The boundary between client names and engine indices: Lancashire's moves declared once
in both forms (:mod:`plugins.brass.vocabulary`), converted by the kind of id each field
carries; an unknown name is refused with a sentence saying what a valid one looks like."""

from __future__ import annotations

from plugins.brass.board_names import BoardNames
from plugins.brass.client import Ids
from plugins.brass.vocabulary import Same
from plugins.brass_lancashire import moves as pm
from plugins.brass_lancashire.data import INDUSTRIES, Lancashire

DISTANT_MARKET = "distant_market"


class Names(BoardNames):
    """The board's ids (:class:`~plugins.brass.board_names.BoardNames`) and sale targets."""

    def __init__(self, d: Lancashire) -> None:
        super().__init__(d, INDUSTRIES, ("location:bolton", "industry:cotton"))
        self.target = Ids([*self.space, DISTANT_MARKET], "unknown_target", "cotton is sold to "
                          "a port's build space or to 'distant_market', not {name}")  # fmt: skip
        self.convert(pm.MOVES, target=self.target, amount=Same())
