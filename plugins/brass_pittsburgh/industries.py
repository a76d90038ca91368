"""Where Pittsburgh's industry tiles may go, and the crown jewels' own rules.

The family's build rules (:mod:`plugins.brass.build`: single-icon spaces first, what a card
may name) apply unchanged; this module adds what Pittsburgh alone has:

* tiles with an upgrade icon (Polyphase Alternator, Locomotive Works) replace one of their
  owner's *flipped* tiles of the indicated path, never an empty space, and that tile scores
  its VP as it leaves;
* the Oil City is built on an oilfield (not a location) joined by a pipeline of anyone to
  the builder's network, one per oilfield; it takes all the oilfield's oil plus its printed
  barrels, and every barrel later added to that oilfield lands on it;
* some tiles are already flipped when built and resolve their rewards at once;
* era icons, and level I tiles leaving the board at the end of era 1.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from plugins.brass.cards import CardDef
from plugins.brass_pittsburgh.board import BuiltPipeline, PittsburghBoard
from plugins.brass_pittsburgh.data import MatTile, PittsburghData


class BuiltIndustry(msgspec.Struct, frozen=True, kw_only=True):
    """What an upgrade needs to know about a tile on the board."""

    owner: int
    tile: str
    flipped: bool


def already_flipped(data: PittsburghData, tile: MatTile) -> bool:
    return data.industries[tile.industry].flip == "already_flipped"


def leaves_at_end_of_era1(tile: MatTile) -> bool:
    """Obsolete industries: every level I tile, flipped or not."""
    return tile.level == 1


def upgrade_targets(
    data: PittsburghData, tile: MatTile, seat: int, built: Sequence[BuiltIndustry | None]
) -> list[int]:
    """Board slots ``tile`` may upgrade: the seat's own flipped tiles of the path its upgrade
    icon shows, at any level. Empty for tiles without an upgrade icon."""
    if tile.upgrade_of is None:
        return []
    return [
        slot
        for slot, b in enumerate(built)
        if b is not None
        and b.owner == seat
        and b.flipped
        and data.industries[data.mat.tiles[b.tile].industry].path == tile.upgrade_of
    ]


def oil_city_sites(
    board: PittsburghBoard,
    network: set[int],
    route_pipeline: Sequence[BuiltPipeline | None],
    oil_city_on: Iterable[int],
) -> list[int]:
    """Oilfields where the seat may build the Oil City: none there yet, and some pipeline
    (of any owner) joins the oilfield to a city of the seat's network."""
    taken = set(oil_city_on)
    return sorted(
        {
            board.route_oilfield[r]
            for r, built in enumerate(route_pipeline)
            if built is not None
            and board.route_city[r] in network
            and board.route_oilfield[r] not in taken
        }
    )


def oil_city_barrels(tile: MatTile, oil_on_field: int) -> int:
    """Barrels placed on a new Oil City: all the oilfield holds plus the printed ones."""
    return oil_on_field + tile.produces.get("oil", 0)


def card_builds(data: PittsburghData, board: PittsburghBoard, card: CardDef) -> set[str]:
    """The industries a card kind may build. An industry card builds every industry of its
    path icon (crown jewels included); a location card builds any industry shown on its
    city's slots, and the upgrade tiles of those industries' paths (an upgrade sits on a
    slot of that city)."""
    names = list(data.industries)
    if card.kind != "location":
        return {names[i] for i in card.industries}
    if card.location < 0:
        return set()
    shown = {i for s in board.city_slots[card.location] for i in board.slot_icons[s]}
    paths = {data.industries[i].path for i in shown}
    upgrades = {t.industry for t in data.mat.tiles.values() if t.upgrade_of in paths}
    return shown | upgrades
