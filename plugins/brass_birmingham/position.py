"""Position documents: the full state as JSON with names instead of indices.

The form is documented in the "Positions" section of ``CLIENTS.md``. :func:`load` validates
a document and refuses an impossible one with :class:`core.errors.InvalidPosition` (code +
sentence).
"""

from __future__ import annotations

from collections.abc import Iterable
from random import Random
from typing import Any, Literal

import msgspec

from plugins.brass import board_docs as bd
from plugins.brass_birmingham.data import INDUSTRIES, Birmingham
from plugins.brass_birmingham.names import Names
from plugins.brass_birmingham.state import State

FORMAT = "brass-birmingham/1"
LEGACY_CARD_NAMES = {"wild_location": "wild:location", "wild_industry": "wild:industry"}
"""Wild card names of the first release, still read so stored matches replay."""
WILD_KINDS = ("location", "industry")
"""The keys of the view's ``wild_cards`` and ``wild_supply``."""


class MerchantDoc(bd.Doc, kw_only=True):
    location: str
    tile: str | None
    beer: int = 0


class WildDoc(bd.Doc, kw_only=True):
    location: int
    industry: int


class PositionDoc(bd.BoardPositionDoc, kw_only=True):
    """The family's board document (:mod:`plugins.brass.board_docs`) with the wild cards'
    supply and the merchants."""

    format: Literal["brass-birmingham/1"] = FORMAT
    actions_left: int | None = None
    """Actions left in the current seat's turn; default: a full turn of this round."""
    wild_supply: WildDoc | None = None
    merchants: list[MerchantDoc]
    """One entry per merchant space, in board order (``tile`` null on an unused space)."""


def export(d: Birmingham, s: State) -> dict[str, Any]:
    tile_ids = [t.id for t in d.merchant_tiles]
    doc = PositionDoc(
        **bd.export_fields(d, s, INDUSTRIES),
        wild_supply=WildDoc(location=s.wild_supply[0], industry=s.wild_supply[1]),
        merchants=[
            MerchantDoc(location=d.locations[d.merchant_loc[m]].id,
                        tile=None if t < 0 else tile_ids[t], beer=s.merchant_beer[m])
            for m, t in enumerate(s.merchant_tile)
        ],
    )  # fmt: skip
    return msgspec.to_builtins(doc)


def load(d: Birmingham, raw: dict[str, Any], step_kinds: Iterable[str]) -> State:
    """The state of position document ``raw``, checked by the family's loader
    (:func:`plugins.brass.board_docs.load_fields`) with Birmingham's wild cards and, as
    its own part of the board, the merchants."""
    doc = bd.load_doc(raw, PositionDoc, "Brass: Birmingham")
    wild = doc.wild_supply
    return State(**bd.load_fields(
        d, doc, INDUSTRIES, step_kinds, "Brass: Birmingham", aliases=LEGACY_CARD_NAMES,
        wild_supply=None if wild is None else (wild.location, wild.industry),
        board_extra=lambda: _merchants(d, doc)))  # fmt: skip


def _merchants(d: Birmingham, doc: PositionDoc) -> dict[str, list[int]]:
    """One tile per merchant space the player count uses, each tile once and of that
    count, a barrel only beside a tile buying goods."""
    n, check = doc.players, bd.check
    check(len(doc.merchants) == d.n_merchants, "bad_merchants",
          f"merchants must list all {d.n_merchants} merchant spaces")  # fmt: skip
    tile_ids = {t.id: i for i, t in enumerate(d.merchant_tiles)}
    merchant_tile, merchant_beer, used = [], [], set()
    for m, md in enumerate(doc.merchants):
        at = d.locations[d.merchant_loc[m]].id
        check(md.location == at, "bad_merchants", f"merchant space {m} is at {at}")
        active = d.merchant_min_players[m] <= n
        tile = -1 if md.tile is None else tile_ids.get(md.tile, -1)
        if md.tile is None:
            check(not active, "bad_merchants", f"merchant space {m} at {md.location} needs a tile")
        else:
            check(tile >= 0 and tile not in used, "bad_merchants",
                  f"unknown or repeated merchant tile {md.tile!r}")  # fmt: skip
            check(active and d.merchant_tiles[tile].min_players <= n, "bad_merchants",
                  f"merchant tile {md.tile} is not used with {n} players")  # fmt: skip
            used.add(tile)
        barrel = md.beer in (0, 1) and not (md.beer and (tile < 0 or not d.merchant_accepts[tile]))
        check(barrel, "bad_merchants", "only a non-blank merchant tile has a beer barrel (0 or 1)")
        merchant_tile.append(tile)
        merchant_beer.append(md.beer)
    return {"merchant_tile": merchant_tile, "merchant_beer": merchant_beer}


def from_view(d: Birmingham, names: Names, view: dict[str, Any], rng: Random) -> dict[str, Any]:
    """The position document of a state ``view`` (a seat's) cannot tell from the real one,
    its hidden cards drawn with ``rng`` (``Game.determinize``, for the search bot). The
    wild cards in a hand are public (the view counts them), so they stay where they are."""
    wild = list(zip((d.cards.wild_location, d.cards.wild_industry), WILD_KINDS, strict=True))
    merchants = {m["merchant"]: m for m in view["merchants"]}
    return {
        "format": FORMAT,
        **bd.fields_from_view(d, view, rng, INDUSTRIES, lambda p: [
            w for w, key in wild for _ in range(p["wild_cards"][key])]),
        "wild_supply": view["wild_supply"],
        "merchants": [
            {"location": d.locations[loc].id,
             "tile": merchants[m]["tile"] if m in merchants else None,
             "beer": int(merchants[m]["beer"]) if m in merchants else 0}
            for m, loc in zip(names.merchant, d.merchant_loc, strict=True)
        ],
    }  # fmt: skip
