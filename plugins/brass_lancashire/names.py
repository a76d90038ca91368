"""The boundary between client names and engine indices: Lancashire's moves declared once
in both forms (:mod:`plugins.brass.vocabulary`), converted by the kind of id each field
carries; an unknown name is refused with a sentence saying what a valid one looks like."""

from __future__ import annotations

from functools import cache
from typing import Any

from plugins.brass import moves as fm
from plugins.brass.client import Ids, card_ids, end_era_of
from plugins.brass.vocabulary import Same, Vocabulary
from plugins.brass_lancashire import moves as pm
from plugins.brass_lancashire.data import INDUSTRIES, Lancashire, lancashire

DISTANT_MARKET = "distant_market"


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
               "industry": self.industry, "amount": Same()}  # fmt: skip
        self.vocabulary = Vocabulary(ids, pm.MOVES)  # type: ignore[arg-type]

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
