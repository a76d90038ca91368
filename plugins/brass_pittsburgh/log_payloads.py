"""What Pittsburgh's log serves for each stored event (``BrassPittsburgh.LogPayloads``):
the family's shapes plus its own events with ids as client names, as
:func:`plugins.brass_pittsburgh.view.redact` writes them (renames from its ``_RENAMED``)."""

from __future__ import annotations

import msgspec

from plugins.brass.log_payloads import _Payload, family_payloads, served
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh.view import _RENAMED, Decision


class StartedLog(_Payload, kw_only=True):
    players: int
    side: str
    data_version: str
    order: list[int]
    deck_count: int
    hand_counts: list[int]
    facedown_counts: list[int]
    hand: list[str] | None
    merchants: dict[str, str]
    """Merchant space -> the merchant tile on it (spaces left empty at this count absent)."""
    oilfields_in_play: list[str]
    quality_rewards: list[str]


class BoardClearedLog(_Payload, kw_only=True):
    lines: list[str]
    spaces: list[str]
    oil_released: dict[str, int]
    """Oilfield -> barrels it gets back (oilfields getting none absent)."""


def _served(stored: type[msgspec.Struct], **retyped: type) -> type[msgspec.Struct]:
    return served(stored, _RENAMED.get(stored, {}), retyped)


PAYLOADS: dict[str, type[msgspec.Struct]] = {
    **family_payloads(Decision),
    "started": StartedLog,
    "board_cleared": BoardClearedLog,
    "gained": _served(ev.Gained),
    "income_set": _served(ev.IncomeSet),
    "whiskey_spent": _served(ev.WhiskeySpent),
    "bankrupt": _served(ev.Bankrupt),
    "tile_taken": _served(ev.TileTaken, tile=str),
    "tile_placed": _served(ev.TilePlaced, tile=str, space=str),
    "tile_removed": _served(ev.TileRemoved, space=str),
    "tile_flipped": _served(ev.TileFlipped, space=str),
    "oil_city_built": _served(ev.OilCityBuilt, tile=str, oilfield=str),
    "oil_city_flipped": _served(ev.OilCityFlipped, oilfield=str),
    "cube_taken": _served(ev.CubeTaken, space=str),
    "cargo_taken": _served(ev.CargoTaken, line=str),
    "market_bought": _served(ev.MarketBought, market=str),
    "cubes_sold": _served(ev.CubesSold, space=str, market=str),
    "oil_taken": _served(ev.OilTaken, oilfield=str),
    "train_placed": _served(ev.TrainPlaced, line=str),
    "train_replaced": _served(ev.TrainReplaced, line=str),
    "pipeline_placed": _served(ev.PipelinePlaced, route=str),
    "oilfield_revealed": _served(ev.OilfieldRevealed, oilfield=str),
    # The merchant space's name replaces its index; the claimed tile's id comes with a
    # quality space the match has a reward for.
    "merchant_flipped": _served(ev.MerchantFlipped, merchant=str),
    "quality_claimed": served(
        ev.QualityClaimed, _RENAMED[ev.QualityClaimed], added={"reward": str}
    ),
}
