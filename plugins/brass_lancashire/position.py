"""Position documents (``CLIENTS.md`` "Positions"): the family's board document
(:mod:`plugins.brass.board_docs`) plus the distant market; and a state from a seat's view
alone (``determinize``, for the search bot)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from random import Random
from typing import Any, Literal

import msgspec

from plugins.brass import board_docs as bd
from plugins.brass_lancashire.data import INDUSTRIES, Lancashire
from plugins.brass_lancashire.state import State

FORMAT = "brass-lancashire/1"


class DistantDoc(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    marker: int = 0
    tiles_left: list[int] | None = None
    """Default: every demand tile of the player count."""


class PositionDoc(bd.BoardPositionDoc, kw_only=True):
    format: Literal["brass-lancashire/1"] = FORMAT
    distant_market: DistantDoc = msgspec.field(default_factory=DistantDoc)


def export(d: Lancashire, s: State) -> dict[str, Any]:
    dm = DistantDoc(marker=s.demand, tiles_left=list(s.demand_left))
    doc = PositionDoc(**bd.export_fields(d, s, INDUSTRIES), distant_market=dm)
    return msgspec.to_builtins(doc)


def load(d: Lancashire, raw: Any, step_kinds: Iterable[str]) -> State:
    doc = bd.load_doc(raw, PositionDoc, "Brass: Lancashire")
    board = bd.load_fields(
        d,
        doc,
        INDUSTRIES,
        step_kinds,
        "Brass: Lancashire",
        one_per_location=d.rules.canal_one_own_industry_per_location,
    )
    n, dm = doc.players, doc.distant_market
    left = sorted(d.demand_tiles[n] if dm.tiles_left is None else dm.tiles_left)
    bd.check(not Counter(left) - Counter(d.demand_tiles[n]), "bad_distant_market",
             "demand tiles must be some of the player count's")  # fmt: skip
    bd.check(0 <= dm.marker <= len(d.distant_market.income_spaces), "bad_distant_market",
             "the marker is off the track")  # fmt: skip
    return State(**board, demand=dm.marker, demand_left=left)


def from_view(d: Lancashire, names: Any, view: dict[str, Any], rng: Random) -> dict[str, Any]:
    """The position document of a state ``view`` (a seat's) cannot tell from the real one,
    its hidden cards drawn with ``rng``."""
    dm = view["distant_market"]
    return {**bd.fields_from_view(d, view, rng, INDUSTRIES), "format": FORMAT,
            "distant_market": {"marker": dm["marker"], "tiles_left": dm["tiles_left"]}}  # fmt: skip
