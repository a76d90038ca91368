"""The boundary between client names and engine indices.

Clients read and write names (``CLIENTS.md``); the engine keeps compact integer state for
speed. :class:`Names` holds both directions of every table, converts named moves
(:mod:`~plugins.brass_birmingham.moves`) to engine moves
(:mod:`~plugins.brass_birmingham.internal_moves`) and back by one declaration per move
(:mod:`plugins.brass.vocabulary`), and refuses an unknown name
with an :class:`~core.errors.IllegalMove` whose sentence says what a valid name looks like.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from core.errors import IllegalMove
from plugins.brass import moves as fm
from plugins.brass.client import Ids, card_ids, end_era_of
from plugins.brass.vocabulary import MovePair, Vocabulary, fields
from plugins.brass_birmingham import internal_moves as im
from plugins.brass_birmingham import moves as pm
from plugins.brass_birmingham.data import INDUSTRIES, Birmingham, birmingham
from plugins.brass_birmingham.state import State


class Names:
    """Every id a client sees, by engine index, and the reverse lookups."""

    def __init__(self, d: Birmingham) -> None:
        self.industry = Ids(
            INDUSTRIES,
            "unknown_industry",
            f"there is no industry named {{name}}; industries are {', '.join(INDUSTRIES)}",
        )
        self.card = card_ids(
            (d.cards.name(k) for k in range(len(d.cards))),
            ("location:cannock", "industry:coal", "wild:location"),
        )
        self.location = tuple(loc.id for loc in d.locations)
        self.space = Ids(
            (d.slot_name(slot) for slot in range(d.n_slots)),
            "unknown_space",
            "there is no build space {name}; spaces are '<location>:<n>' as the view's "
            "board lists them ('birmingham:2')",
        )
        self.merchant = Ids(
            (
                f"{self.location[loc]}:{d.merchant_loc[:m].count(loc)}"
                for m, loc in enumerate(d.merchant_loc)
            ),
            "unknown_merchant",
            "there is no merchant space {name}; merchant spaces are '<location>:<n>' as the "
            "view's merchants list them ('oxford:0')",
        )
        self.link = Ids(
            d.link_names,
            "unknown_link",
            "there is no link line {name}; lines are their two location ids sorted and "
            "joined by '~' ('birmingham~dudley')",
        )
        self.vocabulary = Vocabulary(
            {"card": self.card, "space": self.space, "link": self.link,
             "industry": self.industry, "merchant": self.merchant},
            [
                MovePair(pm.Build, im.Build, fields("card:card", "space>slot:space",
                                                     "industry:industry")),
                MovePair(pm.Network, im.Network, fields("link:link")),
                MovePair(pm.Develop, im.Develop, fields("industry:industry")),
                MovePair(pm.Sell, im.Sell, fields("space>slot:space", "merchant:merchant")),
                MovePair(pm.Loan, im.Loan),
                MovePair(pm.Scout, im.Scout),
                MovePair(pm.Pass, im.Pass),
                MovePair(pm.Discard, fm.Discard, fields("card:card")),
                MovePair(pm.PickCoal, im.PickCoal, fields("space>slot:space")),
                MovePair(pm.PickIron, im.PickIron, fields("space>slot:space")),
                MovePair(pm.Liquidate, im.Liquidate, fields("space>slot:space")),
                MovePair(pm.SecondLink, im.SecondLink, fields("link:link")),
                MovePair(pm.SellAlso, im.SellAlso, fields("space>slot:space",
                                                          "merchant:merchant")),
                MovePair(pm.DevelopAlso, im.DevelopAlso, fields("industry:industry")),
                MovePair(pm.FreeDevelop, im.FreeDevelop, fields("industry:industry")),
                MovePair(pm.PickBeer, im.PickBeer, fields("source>slot:space")),
            ],
        )  # fmt: skip

    # --- moves ------------------------------------------------------------------------

    def end_era(self, m: fm.ScoreEra) -> fm.EndEra:
        """The engine form of the era's end; a deal naming an unknown card is refused."""
        return end_era_of(self.card, m)

    def encode_all(self, moves: list[Any], s: State) -> list[Any]:
        """The named form of the engine's answers to the pending step (``s`` supplies the
        merchant being sold to, for merchant beer)."""
        enc = self.vocabulary.encoders
        out = [enc[type(m)](m) if type(m) in enc else m for m in moves]
        if s.pending and s.pending[0].kind == "beer":
            barrel = pm.PickBeer(self.merchant[s.pending[0].b])
            out = [barrel if type(m) is im.PickMerchantBeer else m for m in out]
        return out

    def decode(self, m: Any, s: State) -> Any:
        """The engine form of named move ``m``; raises ``IllegalMove`` for unknown names."""
        t = type(m)
        if t is pm.PickBeer:
            return self._beer_source(m.source, s)
        if t is fm.ScoreEra:
            return self.end_era(m)
        return self.vocabulary.decode(m)

    def _beer_source(self, source: str, s: State) -> Any:
        if source in self.space:
            return im.PickBeer(self.space.index_of(source))
        if source in self.merchant:
            step = s.pending[0] if s.pending else None
            if step is None or step.kind != "beer" or self.merchant.index_of(source) != step.b:
                raise IllegalMove(
                    "beer_source",
                    f"merchant beer comes only from the merchant you are selling to, "
                    f"not {source!r}",
                )
            return im.PickMerchantBeer()
        raise IllegalMove(
            "unknown_source",
            f"there is no beer source {source!r}; name a brewery's build space "
            "('stafford:0') or the merchant space you sell to ('oxford:0')",
        )


@cache
def shipped_names() -> Names:
    """The names of the shipped data, built once per process."""
    return Names(birmingham())
