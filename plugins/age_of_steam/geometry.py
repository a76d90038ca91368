"""Hex sides, tile shapes and their rotations.

Hexes are flat-topped in an "odd-q" offset grid: columns run west to east, rows north to
south, odd columns sit half a hex lower. A hex has six sides numbered clockwise from north:
0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW. Rotating a tile by ``r`` turns every side ``s`` into
``(s + r) % 6``. A plain tile is a set of tracks, each joining two sides; a town tile is a set
of spokes, each joining the town in the middle to one side.
"""

from __future__ import annotations

from typing import Final, Literal

import msgspec

SIDES: Final = ("N", "NE", "SE", "S", "SW", "NW")
SIDE_INDEX: Final = {name: i for i, name in enumerate(SIDES)}

# (dcol, drow) per side, for even and odd columns of the odd-q grid.
_EVEN_STEPS: Final = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 0), (-1, -1))
_ODD_STEPS: Final = ((0, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))

TileClass = Literal["simple", "crossing", "coexisting", "town"]
Track = tuple[int, int]
"""Two sides joined by one track, smaller side first."""


def opposite(side: int) -> int:
    return (side + 3) % 6


def neighbour(col: int, row: int, side: int) -> tuple[int, int]:
    dc, dr = (_ODD_STEPS if col % 2 else _EVEN_STEPS)[side]
    return col + dc, row + dr


def track(a: int, b: int) -> Track:
    return (a, b) if a < b else (b, a)


def rotate_tracks(tracks: tuple[Track, ...], r: int) -> tuple[Track, ...]:
    return tuple(sorted(track((a + r) % 6, (b + r) % 6) for a, b in tracks))


def rotate_spokes(spokes: tuple[int, ...], r: int) -> tuple[int, ...]:
    return tuple(sorted((s + r) % 6 for s in spokes))


def tracks_cross(t1: Track, t2: Track) -> bool:
    """Whether two tracks on one hex cross (their chords intersect) rather than coexist."""
    a, b = t1
    inside = [a < s < b for s in t2]
    return inside[0] != inside[1]


class TileShape(msgspec.Struct, frozen=True):
    """One kind of track tile with its distinct orientations.

    ``orientations`` maps each rotation that gives a new picture (the smallest such rotation
    is canonical) to its tracks (plain tiles) or spokes (town tiles). ``exits`` is, per
    canonical rotation, the set of sides the tile touches: town tiles built from a plain tile
    (2 or 4 exits) use it.
    """

    name: str
    cls: TileClass
    count: int
    orientations: dict[int, tuple[Track, ...]]
    spoke_orientations: dict[int, tuple[int, ...]]
    exits: dict[int, tuple[int, ...]]


def make_shape(
    name: str, cls: TileClass, count: int, tracks: list[tuple[int, int]], spokes: list[int]
) -> TileShape:
    orientations: dict[int, tuple[Track, ...]] = {}
    spoke_or: dict[int, tuple[int, ...]] = {}
    exits: dict[int, tuple[int, ...]] = {}
    seen: set[object] = set()
    base_tracks = tuple(track(a, b) for a, b in tracks)
    base_spokes = tuple(spokes)
    for r in range(6):
        if cls == "town":
            key: object = rotate_spokes(base_spokes, r)
            if key in seen:
                continue
            spoke_or[r] = key  # type: ignore[assignment]
            exits[r] = key  # type: ignore[assignment]
        else:
            key = rotate_tracks(base_tracks, r)
            if key in seen:
                continue
            orientations[r] = key  # type: ignore[assignment]
            exits[r] = tuple(sorted({s for t in key for s in t}))  # type: ignore[attr-defined]
        seen.add(key)
    return TileShape(name, cls, count, orientations, spoke_or, exits)


def classify(tracks: tuple[Track, ...]) -> TileClass:
    """The class a set of one or two tracks belongs to."""
    if len(tracks) == 1:
        return "simple"
    return "crossing" if tracks_cross(tracks[0], tracks[1]) else "coexisting"
