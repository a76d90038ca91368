"""The boundary between client names and engine indices: Lancashire's moves declared once
in both forms (:mod:`plugins.brass.vocabulary`), converted by the kind of id each field
carries; an unknown name is refused with a sentence saying what a valid one looks like."""

from __future__ import annotations

from functools import cache
from typing import Any

from plugins.brass import moves as fm
from plugins.brass.client import Ids, card_ids, end_era_of
from plugins.brass.vocabulary import MovePair, Vocabulary, fields
from plugins.brass_lancashire import moves as pm
from plugins.brass_lancashire.data import INDUSTRIES, Lancashire, lancashire

DISTANT_MARKET = "distant_market"
SALE = fields("space>slot:space", "to>merchant:target")
MOVES = (
    MovePair(pm.Build, fm.Build, fields("card:card", "space>slot:space", "industry:industry")),
    MovePair(pm.DoubleBuild, pm.DoubleBuildAt, fields("space>slot:space", "industry:industry")),
    MovePair(pm.Network, fm.Network, fields("link:link")),
    MovePair(pm.Develop, fm.Develop, fields("industry:industry")),
    MovePair(pm.Sell, fm.Sell, SALE),
    MovePair(pm.Loan, pm.LoanOf, fields("amount:amount")),
    MovePair(pm.Pass, fm.Pass),
    MovePair(pm.Discard, fm.Discard, fields("card:card")),
    MovePair(pm.PickCoal, fm.PickCoal, fields("space>slot:space")),
    MovePair(pm.PickIron, fm.PickIron, fields("space>slot:space")),
    MovePair(pm.Liquidate, fm.Liquidate, fields("space>slot:space")),
    MovePair(pm.SecondLink, fm.SecondLink, fields("link:link")),
    MovePair(pm.SellAlso, fm.SellAlso, SALE),
    MovePair(pm.DevelopAlso, fm.DevelopAlso, fields("industry:industry")),
)


class _Same:
    """A field whose value is the same in both forms (a loan's amount)."""

    def index_of(self, value: Any) -> Any:
        return value

    def __getitem__(self, value: Any) -> Any:
        return value


class Names:
    """Every id a client sees, by engine index, and the reverse lookups."""

    def __init__(self, d: Lancashire) -> None:
        self.industry = Ids(INDUSTRIES, "unknown_industry", "there is no industry named "
                            f"{{name}}; industries are {', '.join(INDUSTRIES)}")  # fmt: skip
        self.card = card_ids((d.cards.name(k) for k in range(len(d.cards))),
                             ("location:bolton", "industry:cotton"))  # fmt: skip
        self.location = tuple(loc.id for loc in d.locations)
        spaces = [d.slot_name(slot) for slot in range(d.n_slots)]
        self.space = Ids(spaces, "unknown_space", "there is no build space {name}; spaces "
                         "are '<location>:<n>' as the view's board lists them")  # fmt: skip
        self.target = Ids([*spaces, DISTANT_MARKET], "unknown_target", "cotton is sold to "
                          "a port's build space or to 'distant_market', not {name}")  # fmt: skip
        self.link = Ids(d.link_names, "unknown_link", "there is no link line {name}; lines "
                        "are their two location ids sorted and joined by '~'")  # fmt: skip
        ids = {"card": self.card, "space": self.space, "target": self.target, "link": self.link,
               "industry": self.industry, "amount": _Same()}  # fmt: skip
        self.vocabulary = Vocabulary(ids, MOVES)  # type: ignore[arg-type]

    def encode_all(self, moves: list[Any], s: Any = None) -> list[Any]:
        return [self.vocabulary.encode(m) for m in moves]

    def decode(self, m: Any, s: Any = None) -> Any:
        """The engine form of named move ``m``; ``IllegalMove`` for an unknown name."""
        if type(m) is fm.ScoreEra:
            return end_era_of(self.card, m)
        return self.vocabulary.decode(m)


@cache
def shipped_names() -> Names:
    return Names(lancashire())
