"""Map and component data: JSON files under ``data/`` loaded into Structs and validated.

A map is a data file (hexes, terrain, cities, towns, New City tiles, goods display, bag,
turn counts) plus the named rule overrides in its ``rules`` block; the turn engine reads only
these, so adding a map never touches it. ``components.json`` holds the track tile set, the
tile counts and the build costs shared by every map.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Final, Literal

import msgspec

from plugins.age_of_steam.geometry import (
    SIDE_INDEX,
    TileShape,
    classify,
    make_shape,
    neighbour,
    track,
)

DATA_DIR: Final = Path(__file__).parent / "data"
MAPS: Final = ("rust_belt", "barbados", "st_lucia")

Terrain = Literal["clear", "river", "mountain", "water", "city"]
Colour = Literal["red", "blue", "purple", "yellow", "black"]
Action = Literal[
    "first_move", "first_build", "engineer", "locomotive", "urbanization", "production",
    "turn_order",
]  # fmt: skip
ACTIONS: Final[tuple[str, ...]] = Action.__args__  # type: ignore[attr-defined]


class DataError(ValueError):
    """A data file that contradicts itself or the rules."""


class TileSpec(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    cls: Literal["simple", "crossing", "coexisting", "town"] = msgspec.field(name="class")
    count: int
    tracks: list[tuple[str, str]] = []
    spokes: list[str] = []


class Costs(msgspec.Struct, forbid_unknown_fields=True):
    simple: int
    coexisting: int
    crossing: int
    terrain_extra: dict[str, int]
    town_base: int
    town_per_side: int
    upgrade_crossing: int
    upgrade_coexisting: int
    upgrade_town: int
    redirect: int


class Components(msgspec.Struct, forbid_unknown_fields=True):
    about: str = msgspec.field(name="_about", default="")
    tiles: list[TileSpec] = []
    town_discs: int = 8
    costs: Costs | None = None


class CitySpec(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    col: int
    row: int
    color: Colour
    dice: Literal["light", "dark"]
    die: int
    cubes: int


class TownSpec(msgspec.Struct, forbid_unknown_fields=True):
    name: str
    col: int
    row: int


class NewCitySpec(msgspec.Struct, forbid_unknown_fields=True):
    letter: str
    color: Colour
    dice: Literal["light", "dark"]
    die: int


class DisplaySpec(msgspec.Struct, forbid_unknown_fields=True):
    """One column of the goods display; ``new_city`` names the New City it feeds, otherwise
    it feeds the printed city with the same dice set and number."""

    id: str
    dice: Literal["light", "dark"]
    die: int
    spaces: int
    new_city: str | None = None


class Rules(msgspec.Struct, forbid_unknown_fields=True):
    """Named rule overrides of a map; the defaults are the base game."""

    turn_order: Literal["auction", "first_player_fee", "none"] = "auction"
    """``first_player_fee``: St. Lucia's alternating $5 first-player rule."""
    order_before_shares: bool = False
    actions: list[Action] = msgspec.field(default_factory=lambda: list(ACTIONS))
    action_cycle: bool = False
    """Barbados: an action is taken again only after all of them were taken once."""
    max_shares_per_turn: int | None = None
    growth_dice: Literal["players"] | int = "players"
    display_fill: Literal["full", "top", "none"] = "full"
    display_refuses_own_colour: bool = False
    """Barbados: a New City row never starts with a cube of its own city's colour."""
    goods_on_land: bool = False
    """St. Lucia: a cube on every clear and river hex, deliverable once track is built there."""
    scoring: Literal["standard", "buyback"] = "standard"
    easy_city_cubes: int | None = None
    """Barbados' easier setup: cubes per city when the ``barbados_easy`` option is on."""
    optional_actions: dict[str, str] = {}
    """Action -> match option that must be true for the action to exist (St. Lucia's
    disputed Turn Order action)."""


class MapSpec(msgspec.Struct, forbid_unknown_fields=True):
    id: str
    title: str
    min_players: int
    max_players: int
    turns: dict[str, int]
    bag: dict[Colour, int]
    rules: Rules
    cities: list[CitySpec]
    towns: list[TownSpec]
    new_cities: list[NewCitySpec]
    display: list[DisplaySpec]
    hexes: list[tuple[int, int, Terrain]]

    def players(self) -> str:
        """The player counts it takes, in words: ``3 to 6 players``, ``1 player``."""
        if self.min_players == self.max_players:
            return f"{self.min_players} player{'s' if self.min_players > 1 else ''}"
        return f"{self.min_players} to {self.max_players} players"

    def takes(self) -> str:
        """``Rust Belt takes 3 to 6 players``; ``Barbados takes exactly 1 player``."""
        exactly = "exactly " if self.min_players == self.max_players else ""
        return f"{self.title} takes {exactly}{self.players()}"


class Board(msgspec.Struct, frozen=True):
    """A map precomputed for play: hexes numbered ``0..n-1`` in data order.

    ``nbr[h][s]`` is the hex beyond side ``s`` of hex ``h`` or -1 (off the map).
    ``city_at[h]`` indexes ``spec.cities`` or is -1; ``town_at[h]`` indexes ``spec.towns``.
    """

    spec: MapSpec
    components: Components
    shapes: dict[str, TileShape]
    coords: tuple[tuple[int, int], ...]
    index: dict[tuple[int, int], int]
    terrain: tuple[str, ...]
    nbr: tuple[tuple[int, ...], ...]
    city_at: tuple[int, ...]
    town_at: tuple[int, ...]
    display_ids: tuple[str, ...]
    display_columns: dict[str, tuple[int, int]]
    """Each display column by its id: (its place in the display, its spaces)."""
    total_cubes: int
    city_hexes: tuple[int, ...]

    @property
    def rules(self) -> Rules:
        return self.spec.rules

    def hex_of(self, col: int, row: int) -> int:
        return self.index.get((col, row), -1)

    def label(self, h: int) -> str:
        col, row = self.coords[h]
        return f"({col},{row})"


@functools.cache
def components() -> Components:
    comp = _decode(DATA_DIR / "components.json", Components)
    if comp.costs is None or not comp.tiles:
        raise DataError("components.json: tiles and costs are required")
    names = [t.name for t in comp.tiles]
    if len(set(names)) != len(names):
        raise DataError("components.json: duplicate tile names")
    for t in comp.tiles:
        if t.count < 0:
            raise DataError(f"tile {t.name}: negative count")
        sides = [s for tr in t.tracks for s in tr] + list(t.spokes)
        if any(s not in SIDE_INDEX for s in sides):
            raise DataError(f"tile {t.name}: unknown side in {sides}")
        if len(set(sides)) != len(sides):
            raise DataError(f"tile {t.name}: two tracks share a side")
        if t.cls == "town":
            if t.tracks or not t.spokes:
                raise DataError(f"tile {t.name}: a town tile has spokes only")
        else:
            if t.spokes or not t.tracks:
                raise DataError(f"tile {t.name}: a plain tile has tracks only")
            tr = tuple(sorted(track(SIDE_INDEX[a], SIDE_INDEX[b]) for a, b in t.tracks))
            if classify(tr) != t.cls:
                raise DataError(f"tile {t.name}: its tracks make it {classify(tr)}, not {t.cls}")
    for terrain in ("clear", "river", "mountain"):
        if terrain not in comp.costs.terrain_extra:
            raise DataError(f"components.json: no terrain cost for {terrain}")
    return comp


@functools.cache
def board(map_id: str) -> Board:
    if map_id not in MAPS:
        raise DataError(f"unknown map {map_id!r}")
    spec = _decode(DATA_DIR / f"{map_id}.json", MapSpec)
    comp = components()
    shapes = {
        t.name: make_shape(
            t.name, t.cls, t.count,
            [(SIDE_INDEX[a], SIDE_INDEX[b]) for a, b in t.tracks],
            [SIDE_INDEX[s] for s in t.spokes],
        )
        for t in comp.tiles
    }  # fmt: skip
    coords = tuple((c, r) for c, r, _ in spec.hexes)
    index = {xy: i for i, xy in enumerate(coords)}
    if len(index) != len(coords):
        raise DataError(f"{map_id}: a hex is listed twice")
    terrain = tuple(t for _, _, t in spec.hexes)
    nbr = tuple(tuple(index.get(neighbour(c, r, s), -1) for s in range(6)) for c, r in coords)
    city_at = [-1] * len(coords)
    town_at = [-1] * len(coords)
    for i, city in enumerate(spec.cities):
        h = index.get((city.col, city.row), -1)
        if h < 0 or terrain[h] != "city":
            raise DataError(f"{map_id}: city {city.name} is not on a city hex")
        city_at[h] = i
    if terrain.count("city") != len(spec.cities):
        raise DataError(f"{map_id}: a city hex has no city")
    for i, town in enumerate(spec.towns):
        h = index.get((town.col, town.row), -1)
        if h < 0 or terrain[h] != "clear":
            raise DataError(f"{map_id}: town {town.name} is not on a clear hex")
        town_at[h] = i
    _check_rules(map_id, spec)
    return Board(
        spec=spec, components=comp, shapes=shapes, coords=coords, index=index,
        terrain=terrain, nbr=nbr, city_at=tuple(city_at), town_at=tuple(town_at),
        display_ids=tuple(d.id for d in spec.display),
        display_columns={d.id: (i, d.spaces) for i, d in enumerate(spec.display)},
        total_cubes=sum(spec.bag.values()),
        city_hexes=tuple(h for h, c in enumerate(city_at) if c >= 0),
    )  # fmt: skip


def _check_rules(map_id: str, spec: MapSpec) -> None:
    if not 1 <= spec.min_players <= spec.max_players <= 6:
        raise DataError(f"{map_id}: bad player range")
    for n in range(spec.min_players, spec.max_players + 1):
        if str(n) not in spec.turns or spec.turns[str(n)] < 1:
            raise DataError(f"{map_id}: no turn count for {n} players")
    letters = [c.letter for c in spec.new_cities]
    if len(set(letters)) != len(letters):
        raise DataError(f"{map_id}: duplicate New City letters")
    ids = [d.id for d in spec.display]
    if len(set(ids)) != len(ids):
        raise DataError(f"{map_id}: duplicate display columns")
    for d in spec.display:
        if d.new_city is not None and d.new_city not in letters:
            raise DataError(f"{map_id}: display row {d.id} feeds unknown New City")
        if not 1 <= d.die <= 6 or d.spaces < 1:
            raise DataError(f"{map_id}: display column {d.id} is malformed")
    if len(set(spec.rules.actions)) != len(spec.rules.actions):
        raise DataError(f"{map_id}: an action is listed twice")
    if any(a not in spec.rules.actions for a in spec.rules.optional_actions):
        raise DataError(f"{map_id}: an optional action is not one of the map's actions")
    if spec.rules.display_fill != "none" and not spec.display:
        raise DataError(f"{map_id}: the display is filled but has no columns")
    on_map = sum(c.cubes for c in spec.cities)
    display = sum(d.spaces for d in spec.display) if spec.rules.display_fill == "full" else 0
    if on_map + display > sum(spec.bag.values()):
        raise DataError(f"{map_id}: the bag holds too few cubes for setup")


def _decode(path: Path, typ: type) -> object:
    try:
        return msgspec.json.decode(path.read_bytes(), type=typ)
    except (OSError, msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise DataError(f"{path.name}: {exc}") from None
