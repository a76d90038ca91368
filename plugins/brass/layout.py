"""Where a Brass board's places are drawn: the layout file a game ships for web clients.

A layout gives 0..1 frame coordinates (x right, y down; ``aspect`` is the frame's width over
its height) to every location, build space, merchant space and link line of one board,
keyed by the ids the moves and views use. Rules never read it; it is loaded, checked
against the board's own ids (nothing missing, nothing unknown, every point inside the
frame) and served with the board metadata of ``GET /games``. A bad file raises
:class:`plugins.brass.data.DataError`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import msgspec

from plugins.brass.data import load, require

Point = tuple[float, float]
Box = tuple[float, float, float, float]
"""``[x, y, width, height]`` of a printed frame, top-left corner first."""


class _Strict(
    msgspec.Struct, forbid_unknown_fields=True, frozen=True, omit_defaults=True, kw_only=True
):
    pass


class LocationPlace(_Strict):
    label: Point
    """Where the name is written."""
    centre: Point
    """Where links end (the middle of the spaces, or a merchant's emblem)."""


class SpacePlace(_Strict):
    xy: Point
    box: Box


class MerchantSpacePlace(_Strict):
    tile: Point
    tile_box: Box
    beer: Point | None = None
    beer_box: Box | None = None


class LinkPlace(_Strict):
    route: list[Point]
    """The line drawn, end to end, through ``tile``."""
    tile: Point
    """Where a built link tile lies."""
    angle: float
    """The tile's long axis, degrees clockwise from +x (SVG ``rotate``)."""
    branch: list[Point] = []
    """A spur of the same line to a third place (Birmingham's southern farm brewery)."""


class MarkerPlace(_Strict):
    """A round thing drawn on the board: an oilfield, a market's emblem."""

    xy: Point
    r: float


class Sizes(_Strict):
    slot: tuple[float, float]
    merchant_tile: tuple[float, float]
    beer: tuple[float, float]
    link_tile: tuple[float, float]


class Layout(_Strict):
    """One board face. The Pittsburgh-only parts (``oilfields``, ``pipeline_routes``,
    ``markets``) are empty for a board without them."""

    aspect: float
    sizes: Sizes
    locations: dict[str, LocationPlace]
    spaces: dict[str, SpacePlace]
    merchant_spaces: dict[str, MerchantSpacePlace]
    links: dict[str, LinkPlace]
    oilfields: dict[str, MarkerPlace] = {}
    pipeline_routes: dict[str, LinkPlace] = {}
    markets: dict[str, MarkerPlace] = {}
    header: dict[str, Any] = msgspec.field(default_factory=dict, name="_")
    """What the file is and where its facts come from."""


def check_layout(layout: Layout, ids: Mapping[str, Iterable[str]], file: str) -> None:
    """Refuse ``layout`` unless it places exactly the ids of each kind in ``ids`` (keys are
    :class:`Layout` field names) and every point and box lies inside the frame."""
    for kind, expected in ids.items():
        placed: dict[str, Any] = getattr(layout, kind)
        want = set(expected)
        missing, unknown = sorted(want - placed.keys()), sorted(placed.keys() - want)
        require(not missing, file, f"{kind} without a position: {', '.join(missing)}")
        require(not unknown, file, f"{kind} the board does not have: {', '.join(unknown)}")
    require(0.2 <= layout.aspect <= 5, file, f"aspect {layout.aspect} is not a board shape")
    for kind in ("locations", "spaces", "merchant_spaces", "links", "oilfields",
                 "pipeline_routes", "markets"):  # fmt: skip
        for name, place in getattr(layout, kind).items():
            for point in _points(place):
                require(_inside(point), file, f"{kind} {name}: {list(point)} is off the board")
            for box in _boxes(place):
                x, y, w, h = box
                require(w > 0 and h > 0 and _inside((x, y)) and _inside((x + w, y + h)), file,
                        f"{kind} {name}: box {list(box)} is off the board")  # fmt: skip
            if isinstance(place, LinkPlace):
                require(len(place.route) >= 2, file, f"{kind} {name}: a route needs two points")


def _inside(point: Point) -> bool:
    return all(0.0 <= v <= 1.0 for v in point)


def _points(place: Any) -> list[Point]:
    if isinstance(place, LocationPlace):
        return [place.label, place.centre]
    if isinstance(place, SpacePlace):
        return [place.xy]
    if isinstance(place, MerchantSpacePlace):
        return [place.tile] + ([place.beer] if place.beer else [])
    if isinstance(place, LinkPlace):
        return [*place.route, place.tile, *place.branch]
    assert isinstance(place, MarkerPlace)
    return [place.xy]


def _boxes(place: Any) -> list[Box]:
    if isinstance(place, SpacePlace):
        return [place.box]
    if isinstance(place, MerchantSpacePlace):
        return [place.tile_box] + ([place.beer_box] if place.beer_box else [])
    return []


def load_layout(path: Path, ids: Mapping[str, Iterable[str]]) -> Layout:
    """Read and check one board face's layout file (:func:`check_layout`)."""
    layout = load(path, Layout)
    check_layout(layout, ids, path.name)
    return layout


def served(layout: Layout) -> dict[str, Any]:
    """The layout as JSON for ``GET /games`` metadata (without the file's header)."""
    out: dict[str, Any] = msgspec.json.decode(msgspec.json.encode(layout))  # tuples as lists
    out.pop("_", None)
    return out
