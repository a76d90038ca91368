"""What Birmingham's log serves for each stored event (``BrassBirmingham.LogPayloads``):
the family's board shapes (:func:`plugins.brass.board_docs.board_payloads`) plus its own
events with ids as client names, as :func:`plugins.brass_birmingham.view.redact` writes
them."""

from __future__ import annotations

import msgspec

from plugins.brass import board_docs as bd
from plugins.brass.log_payloads import _Payload, served
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


_OWN: dict[str, type[msgspec.Struct]] = {
    "started": StartedLog,
    "merchant_beer_taken": served(ev.MerchantBeerTaken, retyped={"merchant": str}),
    "bonus_gained": served(ev.BonusGained),
    "scouted": served(ev.Scouted),
}
_BOARD = bd.board_payloads(Decision)
_AFTER = {"merchant_beer_taken": "flipped", "bonus_gained": "merchant_beer_taken",
          "scouted": "loan_taken"}  # fmt: skip
"""Where each new event stands in the listing (the OpenAPI document's union follows it)."""


def _listed() -> dict[str, type[msgspec.Struct]]:
    order = [tag for tag in _BOARD]
    for tag, after in _AFTER.items():
        order.insert(order.index(after) + 1, tag)
    return {tag: _OWN.get(tag) or _BOARD[tag] for tag in order}


PAYLOADS = _listed()
