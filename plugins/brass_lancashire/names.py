"""The boundary between client names and engine indices: one table says, per named move,
its engine form and the kind of id of each field, and converts both ways
(:class:`~plugins.brass.client.Ids` refuses an unknown name with a sentence saying what a
valid one looks like)."""

from __future__ import annotations

from functools import cache
from typing import Any

import msgspec

from plugins.brass import moves as fm
from plugins.brass.client import Ids, card_ids, end_era_of
from plugins.brass_lancashire import moves as pm
from plugins.brass_lancashire.data import INDUSTRIES, Lancashire, lancashire

DISTANT_MARKET = "distant_market"
FIELDS: dict[type, tuple[type, tuple[str, ...]]] = {
    pm.Build: (fm.Build, ("card", "space", "industry")),
    pm.DoubleBuild: (pm.DoubleBuildAt, ("space", "industry")),
    pm.Network: (fm.Network, ("link",)),
    pm.Develop: (fm.Develop, ("industry",)),
    pm.Sell: (fm.Sell, ("space", "target")),
    pm.Loan: (pm.LoanOf, ("",)),
    pm.Pass: (fm.Pass, ()),
    pm.Discard: (fm.Discard, ("card",)),
    pm.PickCoal: (fm.PickCoal, ("space",)),
    pm.PickIron: (fm.PickIron, ("space",)),
    pm.Liquidate: (fm.Liquidate, ("space",)),
    pm.SecondLink: (fm.SecondLink, ("link",)),
    pm.SellAlso: (fm.SellAlso, ("space", "target")),
    pm.DevelopAlso: (fm.DevelopAlso, ("industry",)),
}
"""Named move -> (engine move, the id kind of each field in order; "" keeps the value)."""


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
        self._named = {engine: (named, kinds) for named, (engine, kinds) in FIELDS.items()}

    def end_era(self, m: fm.ScoreEra) -> fm.EndEra:
        return end_era_of(self.card, m)

    def encode(self, m: Any) -> Any:
        """The named form of engine move ``m``."""
        found = self._named.get(type(m))
        if found is None:
            return m
        named, kinds = found
        values = msgspec.structs.astuple(m)
        return named(*(getattr(self, k)[v] if k else v for k, v in zip(kinds, values, strict=True)))

    def encode_all(self, moves: list[Any], s: Any = None) -> list[Any]:
        return [self.encode(m) for m in moves]

    def decode(self, m: Any, s: Any = None) -> Any:
        """The engine form of named move ``m``; ``IllegalMove`` for an unknown name."""
        if type(m) is fm.ScoreEra:
            return self.end_era(m)
        found = FIELDS.get(type(m))
        if found is None:
            return m
        engine, kinds = found
        values = msgspec.structs.astuple(m)
        pairs = zip(kinds, values, strict=True)
        return engine(*(getattr(self, k).index_of(v) if k else v for k, v in pairs))


@cache
def shipped_names() -> Names:
    return Names(lancashire())
