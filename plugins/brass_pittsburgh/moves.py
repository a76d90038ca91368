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

Each move is declared once (:class:`plugins.brass.vocabulary.Declare`): the named form
made from the engine's (:mod:`.internal_moves`, indices). ``MOVES`` are the pairs
:mod:`.names` converts by field kind; it converts links, payments, production plans and
Quality Rewards itself (``convert=False``), and refuses unknown names.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec

from plugins.brass.board_names import card_kind
from plugins.brass.moves import Done, ScoreEra
from plugins.brass.vocabulary import Declare
from plugins.brass_pittsburgh import internal_moves as im

CARD_EXAMPLES = ("location:pittsburgh", "industry:coal")
"""Cards as a hand shows them, for the OpenAPI document and the refusal sentence."""
Card = card_kind(CARD_EXAMPLES)
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


move = Declare(__name__, {"card": Card, "card?": Card | None, "tile": Tile, "space": Space,
                          "space?": Space | None, "oilfield?": str | None, "same": bool,
                          "merchant": Merchant, "link": LinkTile, "site": Site})  # fmt: skip
LINK = ("link:link", "site:site")
SALE = ("space>slot:space", "merchant:merchant")
Build = move(
    im.Build, "Build the top tile of mat space ``tile`` on industry ``space`` (the Oil City: on\n"
    "``oilfield`` instead), discarding ``card``. With ``whiskey`` a whiskey makes the card\n"
    "any card: ``card`` is then absent and chosen by the next decision (discard).",
    "card:card?", "tile>space:tile", "space>slot:space?", "oilfield:oilfield?", "whiskey:same",
    defaults={"card": None, "space": None, "oilfield": None, "whiskey": False},
    options={"kw_only": True, "omit_defaults": True},
)  # fmt: skip
Network = move(im.Network, "Place link tile ``link`` on ``site`` (a line for trains, a route "
               "for pipelines).", *LINK, convert=False)  # fmt: skip
SecondLink = move(im.SecondLink, "Pay $10 more and place a second link in this Network "
                  "action.", *LINK, convert=False)  # fmt: skip
Develop = move(im.Develop, "Remove the top tile of mat space ``tile`` (a second may follow).",
               "tile>space:tile")  # fmt: skip
DevelopAlso = move(im.DevelopAlso, "Develop a second tile in this Develop action.",
                   "tile>space:tile")  # fmt: skip
FreeDevelop = move(im.FreeDevelop, "Use a free develop (line bonus, merchant, Locomotive "
                   "Works) on mat space ``tile``.", "tile>space:tile")  # fmt: skip
Sell = move(im.Sell, "Sell your tile on ``space`` to the merchant tile on merchant space "
            "``merchant``.", *SALE)  # fmt: skip
SellAlso = move(im.SellAlso, "Sell one more tile in this Sell action.", *SALE)
BonusSell = move(im.BonusSell, "The bonus sell (Skyscraper, some flips): sell ``space`` to "
                 "``merchant``, no card.", *SALE)  # fmt: skip
Loan = move(im.Loan, "Take $30 and drop three income levels (never below -10).")
Pass = move(im.Pass, "Gain a whiskey (beyond three, it is ignored).")
Discard = move(im.Discard, "Discard ``card`` to pay for the action just chosen.", "card:card")
Pay = move(
    im.Pay, "Take the next ``resource`` from ``source``, at ``at``: a resource train's line\n"
    "(``train``), a tile's industry space (``tile``), a market id (``market``), a pipeline\n"
    "route (``pipeline``, for oil); Vanderbilt (``vanderbilt``) has no ``at``.",
    "resource:same", "source:same", "at>index:at", resource=Resource, source=Source,
    at=str | None, defaults={"at": None}, options={"omit_defaults": True}, convert=False,
)  # fmt: skip
SellProduced = move(
    im.SellProduced, "Split the new tile's cubes among the connected markets: ``plan`` maps "
    "market ids to\ncubes (a connected market left out gets none).", "plan:plan",
    plan=dict[str, int], convert=False,
)  # fmt: skip
ClaimQuality = move(
    im.ClaimQuality, "Claim the face-up Quality Rewards tile ``reward``, spending the whiskey "
    "it needs\nbeyond the sale's stars.", "reward>index:reward", reward=str, convert=False,
)  # fmt: skip
MOVES = move.pairs

Move = (
    Build | Network | SecondLink | Develop | DevelopAlso | FreeDevelop | Sell | SellAlso
    | BonusSell | Loan | Pass | Pay | SellProduced | ClaimQuality | Discard | Done | ScoreEra
)  # fmt: skip

__all__ = ["Done", "Move", "ScoreEra"]
