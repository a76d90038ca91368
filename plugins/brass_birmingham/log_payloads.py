"""What Birmingham's log serves for each stored event (``BrassBirmingham.LogPayloads``):
the family's shapes plus its own events with ids as client names, as
:func:`plugins.brass_birmingham.view.redact` writes them."""

from __future__ import annotations

import msgspec

from plugins.brass.log_payloads import _Payload, family_payloads, served
from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham.view import Decision


class StartedLog(_Payload, kw_only=True):
    players: int
    order: list[int]
    merchants: dict[str, str]
    """Merchant space -> the merchant tile on it (spaces left empty at this count absent)."""
    deck_count: int
    hand_counts: list[int]
    facedown_counts: list[int]
    hand: list[str] | None


_SPACE = {"slot": "space"}
PAYLOADS: dict[str, type[msgspec.Struct]] = {
    **family_payloads(Decision),
    "started": StartedLog,
    "tile_placed": served(ev.TilePlaced, _SPACE, {"space": str, "industry": str}),
    "link_placed": served(ev.LinkPlaced, retyped={"link": str}),
    "tile_developed": served(ev.TileDeveloped, retyped={"industry": str}),
    "cube_taken": served(ev.CubeTaken, _SPACE, {"space": str}),
    "market_bought": served(ev.MarketBought),
    "produced": served(ev.Produced, _SPACE, {"space": str}),
    "flipped": served(ev.Flipped, _SPACE, {"space": str}),
    "merchant_beer_taken": served(ev.MerchantBeerTaken, retyped={"merchant": str}),
    "bonus_gained": served(ev.BonusGained),
    "loan_taken": served(ev.LoanTaken, {"space": "income_space"}),
    "scouted": served(ev.Scouted),
    "liquidated": served(ev.Liquidated, _SPACE, {"space": str}),
}
