"""The boundary between client names and engine indices.

Clients read and write names (``CLIENTS.md``); the engine keeps compact integer state for
speed. :class:`Names` holds both directions of every table, converts named moves
(:mod:`~plugins.brass_birmingham.moves`) to engine moves
(:mod:`~plugins.brass_birmingham.internal_moves`) and back, and refuses an unknown name
with an :class:`~core.errors.IllegalMove` whose sentence says what a valid name looks like.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from core.errors import IllegalMove
from plugins.brass import moves as fm
from plugins.brass.client import Ids, card_ids, end_era_of
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
        # answers to pending steps; first moves are built named (each Action.options)
        self._encoders: dict[type, Callable[[Any, State], Any]] = {
            fm.Discard: lambda m, s: pm.Discard(self.card[m.card]),
            im.PickCoal: lambda m, s: pm.PickCoal(self.space[m.slot]),
            im.PickIron: lambda m, s: pm.PickIron(self.space[m.slot]),
            im.PickBeer: lambda m, s: pm.PickBeer(self.space[m.slot]),
            im.PickMerchantBeer: lambda m, s: pm.PickBeer(self.merchant[s.pending[0].b]),
            im.Liquidate: lambda m, s: pm.Liquidate(self.space[m.slot]),
            im.SecondLink: lambda m, s: pm.SecondLink(self.link[m.link]),
            im.SellAlso: lambda m, s: pm.SellAlso(self.space[m.slot], self.merchant[m.merchant]),
            im.DevelopAlso: lambda m, s: pm.DevelopAlso(self.industry[m.industry]),
            im.FreeDevelop: lambda m, s: pm.FreeDevelop(self.industry[m.industry]),
        }
        # field-less moves only change class (Done is shared by both forms)
        self._same = {pm.Loan: im.Loan(), pm.Scout: im.Scout(), pm.Pass: im.Pass()}

    # --- moves ------------------------------------------------------------------------

    def end_era(self, m: fm.ScoreEra) -> fm.EndEra:
        """The engine form of the era's end; a deal naming an unknown card is refused."""
        return end_era_of(self.card, m)

    def encode_all(self, moves: list[Any], s: State) -> list[Any]:
        """The named form of the engine's answers to the pending step (``s`` supplies the
        merchant being sold to, for merchant beer)."""
        enc = self._encoders
        return [enc[type(m)](m, s) if type(m) in enc else m for m in moves]

    def decode(self, m: Any, s: State) -> Any:
        """The engine form of named move ``m``; raises ``IllegalMove`` for unknown names."""
        t = type(m)
        if t is pm.Build:
            return im.Build(
                self.card.index_of(m.card),
                self.space.index_of(m.space),
                self.industry.index_of(m.industry),
            )
        if t is pm.Network:
            return im.Network(self.link.index_of(m.link))
        if t is pm.Develop:
            return im.Develop(self.industry.index_of(m.industry))
        if t is pm.Sell:
            return im.Sell(self.space.index_of(m.space), self.merchant.index_of(m.merchant))
        if t is pm.Discard:
            return fm.Discard(self.card.index_of(m.card))
        if t is pm.PickCoal:
            return im.PickCoal(self.space.index_of(m.space))
        if t is pm.PickIron:
            return im.PickIron(self.space.index_of(m.space))
        if t is pm.PickBeer:
            return self._beer_source(m.source, s)
        if t is pm.Liquidate:
            return im.Liquidate(self.space.index_of(m.space))
        if t is pm.SecondLink:
            return im.SecondLink(self.link.index_of(m.link))
        if t is pm.SellAlso:
            return im.SellAlso(self.space.index_of(m.space), self.merchant.index_of(m.merchant))
        if t is pm.DevelopAlso:
            return im.DevelopAlso(self.industry.index_of(m.industry))
        if t is pm.FreeDevelop:
            return im.FreeDevelop(self.industry.index_of(m.industry))
        if t is fm.ScoreEra:
            return self.end_era(m)
        return self._same.get(t, m)

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
