"""Brass: Birmingham events. Each is a fact; :func:`state.apply` folds them.

Stored events keep engine indices (compact, fast to fold); the log clients read comes from
:func:`plugins.brass_birmingham.view.redact`, which names every space, link, merchant,
industry and card and describes ``Awaiting`` steps as decisions.

The shared events (cards, spending, pending decisions, turns, rounds, eras) come from
:mod:`plugins.brass.events`. Card lists in ``Started``, ``Drew`` and ``EraBegan`` are
secret: ``redact`` shows a seat only its own cards and everyone else counts.

Pending step kinds (``Step.kind``) of this game: ``coal`` (``n`` cubes to location ``a``),
``link_coal`` (``n`` cubes to link ``a``), ``iron`` (``n`` cubes), ``beer`` (``n`` barrels
to sell slot ``a`` to merchant space ``b``), ``rail_beer`` (``n`` barrels for the double
rail ending on link ``a``), ``scout`` (take the wild cards), ``produce`` (slot ``a``),
``flip`` (sold slot ``a``), ``bonus`` (merchant space ``b``), and the offers ``more_link``,
``more_sell``, ``more_develop``, ``free_develop``; plus the family's ``discard``.
"""

from __future__ import annotations

import msgspec

from plugins.brass.events import (
    ActionDone,
    Awaiting,
    Discarded,
    Drew,
    EraBegan,
    EraScored,
    GameEnded,
    Paid,
    RoundEnded,
    Step,
)


class Started(msgspec.Struct, tag="started", frozen=True):
    players: int
    order: list[int]
    deck: list[int]
    hands: list[list[int]]
    facedown: list[list[int]]
    merchants: list[int]
    """Merchant tile (index in merchants.json) per merchant space; -1 = space unused."""


class TilePlaced(msgspec.Struct, tag="tile_placed", frozen=True):
    """The seat's lowest ``industry`` tile goes on ``slot`` (replacing what was there)."""

    seat: int
    slot: int
    industry: int
    level: int


class LinkPlaced(msgspec.Struct, tag="link_placed", frozen=True):
    seat: int
    link: int


class TileDeveloped(msgspec.Struct, tag="tile_developed", frozen=True):
    seat: int
    industry: int
    level: int


class CubeTaken(msgspec.Struct, tag="cube_taken", frozen=True):
    """One coal, iron or beer taken from the tile on ``slot``."""

    slot: int


class MarketBought(msgspec.Struct, tag="market_bought", frozen=True):
    resource: str
    count: int


class Produced(msgspec.Struct, tag="produced", frozen=True):
    """A new tile's cubes: ``cubes`` placed, ``sold`` of them sold to the market for
    ``money`` paid to the owner."""

    slot: int
    cubes: int
    sold: int
    money: int


class Flipped(msgspec.Struct, tag="flipped", frozen=True):
    """The tile on ``slot`` flips; its owner advances income by the tile's spaces."""

    slot: int


class MerchantBeerTaken(msgspec.Struct, tag="merchant_beer_taken", frozen=True):
    merchant: int


class BonusGained(msgspec.Struct, tag="bonus_gained", frozen=True):
    seat: int
    money: int = 0
    vp: int = 0
    income: int = 0


class LoanTaken(msgspec.Struct, tag="loan_taken", frozen=True):
    seat: int
    amount: int
    space: int


class Scouted(msgspec.Struct, tag="scouted", frozen=True):
    seat: int


class Liquidated(msgspec.Struct, tag="liquidated", frozen=True):
    """Unpaid negative income: the tile on ``slot`` leaves the board for ``refund``."""

    seat: int
    slot: int
    refund: int


Event = (
    Started | Discarded | Paid | TilePlaced | LinkPlaced | TileDeveloped | CubeTaken
    | MarketBought | Produced | Flipped | MerchantBeerTaken | BonusGained | LoanTaken | Scouted
    | Awaiting | ActionDone | Drew | Liquidated | RoundEnded | EraScored | EraBegan | GameEnded
)  # fmt: skip

__all__ = ["ActionDone", "Awaiting", "Discarded", "Drew", "EraBegan", "EraScored", "Event",
           "GameEnded", "Paid", "RoundEnded", "Step"]  # fmt: skip
