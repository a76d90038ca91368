"""Brass: Pittsburgh events: facts that :func:`.state.apply` folds into the state.

The family's events (:mod:`plugins.brass.events`: cards, spending, steps, turns, rounds,
eras) come first in the union; these are Pittsburgh's board and player-board facts: its
``Started`` adds its setup's draws to the family's first deal, and ``CubeTaken`` is the
family's (same tag and field).

Secret parts: the deck order, every hand but the viewer's, the face-down discards and the
face-down oilfield tiles. :meth:`.game.BrassPittsburgh.redact` hides them in the log.
"""

from __future__ import annotations

import msgspec

from plugins.brass import events as fev
from plugins.brass.events import CubeTaken as CubeTaken  # the family's, as the engine emits it


class Started(fev.Started, frozen=True, kw_only=True):
    """Setup, with every random draw written down (the order: the shuffled character tiles;
    one face-down discard per seat, for era 1)."""

    side: str
    """The board side in play (``two_player`` or ``main``)."""
    data_version: str
    merchant_tiles: list[str]
    """Per merchant space of the side: its tile, or "" for a space this player count leaves
    empty."""
    oilfield_tiles: list[str]
    """Per oilfield of the side: its face-down tile, or "" for an unused oilfield."""
    quality_rewards: list[str]
    """The Quality Rewards drawn face up; the others went back to the box."""


class Gained(msgspec.Struct, tag="gained", frozen=True, kw_only=True):
    """A reward: money, income spaces (up the track), VP, whiskey (up to the cap)."""

    seat: int
    money: int = 0
    income_spaces: int = 0
    vp: int = 0
    whiskey: int = 0


class IncomeSet(msgspec.Struct, tag="income_set", frozen=True):
    """The income marker moves to ``space`` (a loan or an income cost: down by levels)."""

    seat: int
    space: int


class WhiskeySpent(msgspec.Struct, tag="whiskey_spent", frozen=True):
    seat: int
    count: int


class Bankrupt(msgspec.Struct, tag="bankrupt", frozen=True):
    """The seat could not pay its income: its whiskey goes, its marker goes to level 0
    (the 40 VP are in the round's ``RoundEnded.vp_lost``)."""

    seat: int


class TileTaken(msgspec.Struct, tag="tile_taken", frozen=True):
    """The top tile of mat ``space`` leaves the seat's mat (built or developed); links
    locked above an emptied space move to the personal supply."""

    seat: int
    space: int


class TilePlaced(msgspec.Struct, tag="tile_placed", frozen=True, kw_only=True):
    """The tile of mat ``space`` is on ``slot`` (replacing any tile there), holding
    ``cubes`` of what it produces; ``flipped`` for tiles already flipped when built."""

    seat: int
    space: int
    slot: int
    cubes: int
    flipped: bool


class TileRemoved(msgspec.Struct, tag="tile_removed", frozen=True):
    """The tile on ``slot`` leaves the board (replaced by an upgrade)."""

    slot: int


class TileFlipped(msgspec.Struct, tag="tile_flipped", frozen=True):
    slot: int


class OilCityBuilt(msgspec.Struct, tag="oil_city_built", frozen=True):
    """The Oil City (mat ``space``) is on ``oilfield``: its oil and ``barrels`` more are on
    the tile, and so is every barrel later added to that oilfield."""

    seat: int
    space: int
    oilfield: int
    barrels: int


class OilCityFlipped(msgspec.Struct, tag="oil_city_flipped", frozen=True):
    oilfield: int


class CargoTaken(msgspec.Struct, tag="cargo_taken", frozen=True):
    """One resource consumed from the resource heavy train on ``line``."""

    line: int


class MarketBought(msgspec.Struct, tag="market_bought", frozen=True):
    market: int
    resource: str


class CubesSold(msgspec.Struct, tag="cubes_sold", frozen=True):
    """``count`` cubes move from the tile on ``slot`` into ``market``'s ladder."""

    slot: int
    market: int
    resource: str
    count: int


class OilTaken(msgspec.Struct, tag="oil_taken", frozen=True):
    """One barrel out of ``oilfield`` (or its Oil City)."""

    oilfield: int


class TrainPlaced(msgspec.Struct, tag="train_placed", frozen=True, kw_only=True):
    seat: int
    line: int
    link: str
    cargo: int
    """Resources loaded on a resource heavy train."""


class TrainReplaced(msgspec.Struct, tag="train_replaced", frozen=True):
    """A replacement train removes the light train on ``line``; it goes back to its owner
    (who scores it: a ``Gained`` event)."""

    line: int


class PipelinePlaced(msgspec.Struct, tag="pipeline_placed", frozen=True, kw_only=True):
    seat: int
    route: int
    pipeline: str
    oil_added: int
    """Barrels the route's icons (and a reserve pipeline) add to its oilfield."""


class OilfieldRevealed(msgspec.Struct, tag="oilfield_revealed", frozen=True, kw_only=True):
    """The first pipeline to ``oilfield`` flips its ``tile``: ``oil_now`` barrels on it now
    (era 2), ``oil_later`` under it until era 1 ends."""

    oilfield: int
    tile: str
    oil_now: int
    oil_later: int


class MerchantFlipped(msgspec.Struct, tag="merchant_flipped", frozen=True):
    space: int


class QualityClaimed(msgspec.Struct, tag="quality_claimed", frozen=True):
    index: int


class BoardCleared(msgspec.Struct, tag="board_cleared", frozen=True, kw_only=True):
    """End of an era, after scoring: trains that leave, level I tiles (era 1), and the oil
    under the oilfields released (era 1)."""

    lines: list[int]
    slots: list[int]
    oil_released: list[int]


Event = (
    Started | fev.Discarded | fev.Paid | fev.Awaiting | fev.ActionDone | fev.Drew
    | fev.RoundEnded | fev.EraScored | fev.EraBegan | fev.GameEnded | Gained | IncomeSet
    | WhiskeySpent | Bankrupt | TileTaken | TilePlaced | TileRemoved | TileFlipped
    | OilCityBuilt | OilCityFlipped | CubeTaken | CargoTaken | MarketBought | CubesSold
    | OilTaken | TrainPlaced | TrainReplaced | PipelinePlaced | OilfieldRevealed
    | MerchantFlipped | QualityClaimed | BoardCleared
)  # fmt: skip
