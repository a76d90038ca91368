"""Brass: Birmingham events. Each is a fact; :func:`state.apply` folds them.

Stored events keep engine indices (compact, fast to fold); the log clients read comes from
:func:`plugins.brass_birmingham.view.redact`, which names every space, link, merchant,
industry and card and describes ``Awaiting`` steps as decisions.

The shared events (cards, spending, pending decisions, turns, rounds, eras, and the board
events of tiles, links, cubes, markets, loans and liquidation) come from
:mod:`plugins.brass.events`; this module adds Birmingham's own and re-exports them all
(module ``__getattr__``).
Card lists in ``Started``, ``Drew`` and ``EraBegan`` are secret: ``redact`` shows a seat
only its own cards and everyone else counts.

Pending step kinds (``Step.kind``) of this game: ``coal`` (``n`` cubes to location ``a``),
``link_coal`` (``n`` cubes to link ``a``), ``iron`` (``n`` cubes), ``beer`` (``n`` barrels
to sell slot ``a`` to merchant space ``b``), ``rail_beer`` (``n`` barrels for the double
rail ending on link ``a``), ``scout`` (take the wild cards), ``produce`` (slot ``a``),
``flip`` (sold slot ``a``), ``bonus`` (merchant space ``b``), and the offers ``more_link``,
``more_sell``, ``more_develop``, ``free_develop``; plus the family's ``discard``.
"""

from __future__ import annotations

from typing import Any

import msgspec

from plugins.brass import events as fev


class Started(fev.Started, frozen=True):
    merchants: list[int]
    """Merchant tile (index in merchants.json) per merchant space; -1 = space unused."""


class MerchantBeerTaken(msgspec.Struct, tag="merchant_beer_taken", frozen=True):
    merchant: int


class BonusGained(msgspec.Struct, tag="bonus_gained", frozen=True):
    seat: int
    money: int = 0
    vp: int = 0
    income: int = 0


class Scouted(msgspec.Struct, tag="scouted", frozen=True):
    seat: int


Event = (
    Started | fev.Discarded | fev.Paid | fev.TilePlaced | fev.LinkPlaced | fev.TileDeveloped
    | fev.CubeTaken | fev.MarketBought | fev.Produced | fev.Flipped | MerchantBeerTaken
    | BonusGained | fev.LoanTaken | Scouted | fev.Awaiting | fev.ActionDone | fev.Drew
    | fev.Liquidated | fev.RoundEnded | fev.EraScored | fev.EraBegan | fev.GameEnded
)  # fmt: skip


def __getattr__(name: str) -> Any:
    """The family's events, re-exported: ``events.TilePlaced`` and so on."""
    return getattr(fev, name)
