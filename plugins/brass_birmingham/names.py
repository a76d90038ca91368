"""The boundary between client names and engine indices.

Clients read and write names (``CLIENTS.md``); the engine keeps compact integer state for
speed. :class:`Names` holds both directions of every table and converts the moves declared
in :mod:`~plugins.brass_birmingham.moves` by the kind of id each field carries
(:mod:`plugins.brass.vocabulary`), refusing an unknown name with an
:class:`~core.errors.IllegalMove` whose sentence says what a valid name looks like.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from core.errors import IllegalMove
from plugins.brass.board_names import BoardNames
from plugins.brass.client import Ids, numbered
from plugins.brass_birmingham import moves as pm
from plugins.brass_birmingham.data import INDUSTRIES, Birmingham, birmingham
from plugins.brass_birmingham.state import State


class Names(BoardNames):
    """The board's ids (:class:`~plugins.brass.board_names.BoardNames`) and the merchant
    spaces."""

    def __init__(self, d: Birmingham) -> None:
        super().__init__(d, INDUSTRIES, ("location:cannock", "industry:coal", "wild:location"),
                         "birmingham:2", "birmingham~dudley")  # fmt: skip
        self.merchant = Ids(
            numbered(self.location[loc] for loc in d.merchant_loc), "unknown_merchant",
            "there is no merchant space {name}; merchant spaces are '<location>:<n>' as the "
            "view's merchants list them ('oxford:0')")  # fmt: skip
        self.convert(pm.MOVES, merchant=self.merchant)

    def encode_all(self, moves: list[Any], s: State) -> list[Any]:
        """The named form of the engine's answers to the pending step (``s`` supplies the
        merchant being sold to, for merchant beer)."""
        enc = self.vocabulary.encoders
        out = [enc[type(m)](m) if type(m) in enc else m for m in moves]
        if s.pending and s.pending[0].kind == "beer":
            barrel = pm.PickBeer(self.merchant[s.pending[0].b])
            out = [barrel if type(m) is pm.MerchantBeer else m for m in out]
        return out

    def decode(self, m: Any, s: State) -> Any:
        """The engine form of named move ``m``; raises ``IllegalMove`` for unknown names."""
        if type(m) is pm.PickBeer:
            return self._beer_source(m.source, s)
        return super().decode(m)

    def _beer_source(self, source: str, s: State) -> Any:
        if source in self.space:
            return pm.BeerAt(self.space.index_of(source))
        if source in self.merchant:
            step = s.pending[0] if s.pending else None
            if step is None or step.kind != "beer" or self.merchant.index_of(source) != step.b:
                raise IllegalMove("beer_source", "merchant beer comes only from the merchant "
                                  f"you are selling to, not {source!r}")  # fmt: skip
            return pm.MerchantBeer()
        raise IllegalMove("unknown_source", f"there is no beer source {source!r}; name a "
                          "brewery's build space ('stafford:0') or the merchant space you sell "
                          "to ('oxford:0')")  # fmt: skip


@cache
def shipped_names() -> Names:
    """The names of the shipped data, built once per process."""
    return Names(birmingham())
