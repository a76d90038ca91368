"""Brass: Pittsburgh moves as clients send them: every field is a name the view or the board
metadata shows (``CLIENTS.md``).

Names:

* cards as the hand shows them: ``location:<city>`` or ``industry:<icon>``
  (``location:pittsburgh``, ``industry:iron_steel``);
* mat spaces by their tile id in the data (``K1``, ``C2``, ``OC``);
* build spaces ``<city>:<n>``, the ``n``-th industry space of the city from 0 (``erie:0``);
* oilfields, markets, quality rewards by their data ids (``oil_creek``, ``ci_franklin``,
  ``QR_3_VP``); merchant spaces ``<merchant>:<n>`` (``chicago:0``);
* railroad lines by their two ends sorted and joined by ``~`` (``erie~meadville``), pipeline
  routes ``<oilfield>~<city>`` (``oil_creek~titusville``);
* link tiles by their data ids: ``LT`` (a light train), heavy trains ``HT_…``, pipelines
  ``PL_…``.

The engine works on indices (:mod:`.internal_moves`); :mod:`.names` converts both ways and
refuses unknown names.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from plugins.brass.moves import Done, ScoreEra

Card = Annotated[
    str,
    msgspec.Meta(
        description="a card as the hand shows it",
        examples=["location:pittsburgh", "industry:coal"],
    ),
]
Tile = Annotated[
    str,
    msgspec.Meta(description="a player-mat space by its tile id", examples=["K1", "C2", "OC"]),
]
Space = Annotated[
    str,
    msgspec.Meta(description="an industry space: city id, ':', index from 0", examples=["erie:0"]),
]
Merchant = Annotated[
    str,
    msgspec.Meta(
        description="a merchant space: merchant id, ':', index from 0", examples=["chicago:0"]
    ),
]
LinkTile = Annotated[
    str,
    msgspec.Meta(
        description="a link tile: LT (light train), a heavy train or a pipeline id",
        examples=["LT", "HT_COKE", "PL_MONEY1"],
    ),
]
Site = Annotated[
    str,
    msgspec.Meta(
        description="a railroad line (its ends sorted, joined by '~') for a train, or a "
        "pipeline route ('<oilfield>~<city>') for a pipeline",
        examples=["erie~meadville", "oil_creek~titusville"],
    ),
]
Resource = Literal["coal", "iron", "steel", "coke", "oil"]
Source = Literal["train", "tile", "market", "vanderbilt", "pipeline"]


class Build(msgspec.Struct, tag="build", frozen=True, kw_only=True, omit_defaults=True):
    """Build the top tile of mat space ``tile`` on industry ``space`` (the Oil City: on
    ``oilfield`` instead), discarding ``card``. With ``whiskey`` a whiskey makes the card
    any card: ``card`` is then absent and chosen by the next decision (discard)."""

    card: Card | None = None
    tile: Tile
    space: Space | None = None
    oilfield: str | None = None
    whiskey: bool = False


class Network(msgspec.Struct, tag="network", frozen=True):
    """Place link tile ``link`` on ``site`` (a line for trains, a route for pipelines)."""

    link: LinkTile
    site: Site


class SecondLink(msgspec.Struct, tag="second_link", frozen=True):
    """Pay $10 more and place a second link in this Network action."""

    link: LinkTile
    site: Site


class Develop(msgspec.Struct, tag="develop", frozen=True):
    """Remove the top tile of mat space ``tile`` (a second may follow)."""

    tile: Tile


class DevelopAlso(msgspec.Struct, tag="develop_also", frozen=True):
    """Develop a second tile in this Develop action."""

    tile: Tile


class FreeDevelop(msgspec.Struct, tag="free_develop", frozen=True):
    """Use a free develop (line bonus, merchant, Locomotive Works) on mat space ``tile``."""

    tile: Tile


class Sell(msgspec.Struct, tag="sell", frozen=True):
    """Sell your tile on ``space`` to the merchant tile on merchant space ``merchant``."""

    space: Space
    merchant: Merchant


class SellAlso(msgspec.Struct, tag="sell_also", frozen=True):
    """Sell one more tile in this Sell action."""

    space: Space
    merchant: Merchant


class BonusSell(msgspec.Struct, tag="bonus_sell", frozen=True):
    """The bonus sell (Skyscraper, some flips): sell ``space`` to ``merchant``, no card."""

    space: Space
    merchant: Merchant


class Loan(msgspec.Struct, tag="loan", frozen=True):
    """Take $30 and drop three income levels (never below -10)."""


class Pass(msgspec.Struct, tag="pass", frozen=True):
    """Gain a whiskey (beyond three, it is ignored)."""


class Discard(msgspec.Struct, tag="discard", frozen=True):
    """Discard ``card`` to pay for the action just chosen."""

    card: Card


class Pay(msgspec.Struct, tag="pay", frozen=True, omit_defaults=True):
    """Take the next ``resource`` from ``source``, at ``at``: a resource train's line
    (``train``), a tile's industry space (``tile``), a market id (``market``), a pipeline
    route (``pipeline``, for oil); Vanderbilt (``vanderbilt``) has no ``at``."""

    resource: Resource
    source: Source
    at: str | None = None


class SellProduced(msgspec.Struct, tag="sell_produced", frozen=True):
    """Split the new tile's cubes among the connected markets: ``plan`` maps market ids to
    cubes (a connected market left out gets none)."""

    plan: dict[str, int]


class ClaimQuality(msgspec.Struct, tag="claim_quality", frozen=True):
    """Claim the face-up Quality Rewards tile ``reward``, spending the whiskey it needs
    beyond the sale's stars."""

    reward: str


Move = (
    Build | Network | SecondLink | Develop | DevelopAlso | FreeDevelop | Sell | SellAlso
    | BonusSell | Loan | Pass | Pay | SellProduced | ClaimQuality | Discard | Done | ScoreEra
)  # fmt: skip

__all__ = ["Done", "Move", "ScoreEra"]
