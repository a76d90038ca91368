"""Position documents: the whole state as JSON, and its validated inverse.

Format ``age-of-steam-position/1``: ``map``, ``players`` (count), ``options`` (the match
options), ``turn``/``last_turn``, ``phase``, ``order``, ``queue``, ``players_state`` (per
seat: money, shares, income, engine, eliminated, out_turn, built), ``bag``, ``display``,
``goods``, ``new_cities``, ``track``, ``tiles`` (supply left), the step's bookkeeping
(``auction``, ``actions``, ``builds_left``, ...) and ``final_scores``. Hexes are keyed
``"col,row"``; track sections are
``[side_a, side_b, owner, turn]`` with sides 0 N .. 5 NW, ``side_b = 6`` for a town spoke and
``owner = -1`` for ownerless track. ``display`` maps each display column id to its cubes,
bottom first (growth moves the last one). ``phase`` is one of ``first_player``, ``shares``,
``auction``, ``actions``, ``build``, ``move``, ``settle``, ``production``, ``growth``,
``over``; ``queue`` lists the seats still to act in it. ``bag`` holds cube counts (a bag has
no order: every draw is decided when it happens). Loading refuses any document that breaks
a conservation law or a rule (cube and tile totals, share and engine limits, track shapes,
ownership of links, who is to act).

Every refusal has the code ``invalid_position`` (HTTP 422) and a sentence naming what is
wrong: a malformed document (not an object, unknown fields, wrong types, another format) as
well as an impossible one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from core.errors import InvalidPosition
from plugins.age_of_steam.data import MAPS, Board, DataError, board
from plugins.age_of_steam.rules import MAX_ENGINE, MAX_SHARES
from plugins.age_of_steam.state import OWNERLESS, TOWN, Auction, HexTrack, PlayerState, State
from plugins.age_of_steam.track import OPEN, network, town_options

FORMAT = "age-of-steam-position/1"


class TrackDoc(msgspec.Struct, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """A hex's track: ``sections`` as exported, or the form of a build move (``rotation``,
    one ``owner`` for every section, ``laid`` defaulting to the position's turn)."""

    tile: str
    sections: list[list[int]] | None = None
    rotation: int | None = None
    owner: int | None = None
    laid: int | None = None


class PositionDoc(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    format: str = FORMAT
    map: str
    players: int
    options: dict[str, Any] = {}
    turn: int
    last_turn: int | None = None
    """Default: the map's number of turns for the player count."""
    phase: str
    order: list[int]
    queue: list[int] = []
    move_round: int = 0
    builds_left: int = 0
    urbanize_open: bool = False
    auction: Auction | None = None
    actions: dict[str, int] = {}
    cycle_used: list[str] = []
    turn_order_seat: int | None = None
    first_holder: int = 0
    engine_raised: list[int] = []
    production: list[str] = []
    production_drawn: bool = False
    pl: list[PlayerState] = msgspec.field(name="players_state", default_factory=list)
    bag: dict[str, int] | None = None
    """Default: every cube of the map not on the board, the display or in production."""
    display: dict[str, list[str]] = {}
    """Columns left out are empty."""
    goods: dict[str, list[str]] = {}
    new_cities: dict[str, str] = {}
    track: dict[str, TrackDoc] = {}
    tiles: dict[str, int] | None = None
    """Supply left of each tile kind; default: the box's count minus the tiles on the map."""
    final_scores: list[int] | None = None


def _key(b: Board, h: int) -> str:
    col, row = b.coords[h]
    return f"{col},{row}"


def export(b: Board, state: State) -> dict[str, Any]:
    doc = PositionDoc(
        map=state.map_id, players=state.players, options=dict(state.options), turn=state.turn,
        last_turn=state.last_turn, phase=state.phase, order=list(state.order),
        queue=list(state.queue), move_round=state.move_round, builds_left=state.builds_left,
        urbanize_open=state.urbanize_open, auction=state.auction, actions=dict(state.actions),
        cycle_used=list(state.cycle_used), turn_order_seat=state.turn_order_seat,
        first_holder=state.first_holder, engine_raised=list(state.engine_raised),
        production=list(state.production), production_drawn=state.production_drawn,
        pl=state.pl, bag=dict(sorted(state.bag.items())),
        display={cid: list(state.display[i]) for i, cid in enumerate(b.display_ids)},
        goods={_key(b, h): sorted(c) for h, c in sorted(state.goods.items()) if c},
        new_cities={_key(b, h): x for h, x in sorted(state.new_cities.items())},
        track={
            _key(b, h): TrackDoc(tile=ht.tile, sections=[list(s) for s in ht.sections])
            for h, ht in sorted(state.track.items())
        },
        tiles=dict(state.tiles), final_scores=state.final_scores,
    )  # fmt: skip
    return msgspec.to_builtins(doc, str_keys=True)


def _bad(message: str) -> InvalidPosition:
    return InvalidPosition("invalid_position", message)


def load(doc: dict[str, Any], sequence: Callable[[Board], list[str]], options_type: type) -> State:
    try:
        d = msgspec.convert(doc, PositionDoc, strict=False)
        options = msgspec.convert({"map": d.map, **d.options}, options_type, strict=True)
    except msgspec.ValidationError as exc:
        raise _bad(f"not an Age of Steam position: {exc}") from None
    if options.map != d.map:
        raise _bad("options.map must name the position's map")
    if d.format != FORMAT:
        raise _bad(f"unknown position format {d.format!r}; expected {FORMAT}")
    if d.map not in MAPS:
        raise _bad(f"unknown map {d.map!r}")
    try:
        b = board(d.map)
    except DataError as exc:  # pragma: no cover - shipped data is checked by tests
        raise _bad(str(exc)) from None
    spec = b.spec
    if not spec.min_players <= d.players <= spec.max_players:
        raise _bad(f"{spec.takes()}, not {d.players}")
    if d.last_turn is None:
        d.last_turn = spec.turns[str(d.players)]
    if d.last_turn != spec.turns[str(d.players)] or not 1 <= d.turn <= d.last_turn:
        raise _bad("turn or last_turn does not fit the map and player count")
    if len(d.pl) != d.players:
        raise _bad("players_state needs one entry per player")
    seats = set(range(d.players))
    for s, p in enumerate(d.pl):
        if p.money < 0 or not 0 <= p.shares <= MAX_SHARES or not 1 <= p.engine <= MAX_ENGINE:
            raise _bad(f"player {s}: money, shares (0-15) or engine (1-6) out of range")
        if p.income < 0 and not p.eliminated:
            raise _bad(f"player {s}: income below 0 for a player still in the game")
    live = {s for s in seats if not d.pl[s].eliminated}
    if set(d.order) != live or len(d.order) != len(live):
        raise _bad("order must list every player still in the game once")
    phases = [*sequence(b), "over"]
    if d.phase not in phases:
        raise _bad(f"phase {d.phase!r} is not a step of this map's turn")
    if any(s not in live for s in d.queue):
        raise _bad("queue names a seat that is not playing")
    if d.phase in ("shares", "actions", "build", "move", "first_player") and not d.queue:
        raise _bad(f"nobody is left to act in the {d.phase} step")
    if (d.phase == "auction") != (d.auction is not None):
        raise _bad("an auction state belongs to the auction step, and only there")
    if d.auction is not None:
        a = d.auction
        if not set(a.active) <= live or a.to_act not in a.active or len(a.active) < 2:
            raise _bad("auction: bad bidders")
    if not 0 <= d.builds_left <= 4 or d.move_round not in (0, 1) or len(d.production) > 2:
        raise _bad("builds_left (0-4), move_round (0-1) or production (2 cubes) out of range")
    if d.turn_order_seat not in (None, *seats) or d.first_holder not in seats:
        raise _bad("turn_order_seat or first_holder is not a seat")
    if any(a not in spec.rules.actions for a in d.cycle_used) or not set(d.engine_raised) <= seats:
        raise _bad("cycle_used or engine_raised names something that does not exist")
    for name, seat in d.actions.items():
        if name not in spec.rules.actions or seat not in seats:
            raise _bad(f"action {name!r} is not on this map or has no valid holder")
    index_of: dict[str, int] = {}

    def hex_at(key: str) -> int:
        try:
            col, row = (int(x) for x in key.split(","))
        except ValueError:
            raise _bad(f"bad hex key {key!r}; use 'col,row'") from None
        h = b.hex_of(col, row)
        if h < 0:
            raise _bad(f"hex {key} is not on the map")
        index_of[key] = h
        return h

    new_cities = {hex_at(k): v for k, v in d.new_cities.items()}
    letters = [c.letter for c in spec.new_cities]
    for h, letter in new_cities.items():
        if b.town_at[h] < 0 or letter not in letters:
            raise _bad(f"New City {letter} must be a map's New City on a town")
    if len(set(new_cities.values())) != len(new_cities):
        raise _bad("a New City tile is placed twice")
    goods = {hex_at(k): list(v) for k, v in d.goods.items() if v}
    for h in goods:
        city = b.city_at[h] >= 0 or h in new_cities
        land = spec.rules.goods_on_land and b.terrain[h] in ("clear", "river")
        if not (city or land):
            raise _bad(f"goods cannot lie on {b.label(h)}")
    if not set(d.display) <= set(b.display_ids):
        raise _bad(f"display columns are {', '.join(b.display_ids)}")
    display = [list(d.display.get(cid, [])) for cid in b.display_ids]
    for i, col in enumerate(spec.display):
        if len(display[i]) > col.spaces:
            raise _bad(f"display column {col.id} holds more than {col.spaces} cubes")
    counts: dict[str, int] = {c: 0 for c in spec.bag}
    cubes = [*(c for v in goods.values() for c in v), *(c for v in display for c in v)]
    cubes += d.production
    if d.bag is None:
        placed = {c: cubes.count(c) for c in spec.bag}
        d.bag = {c: n - placed[c] for c, n in spec.bag.items()}
    for c, n in d.bag.items():
        if n < 0:
            raise _bad("negative cube count in the bag")
        cubes += [c] * n
    for c in cubes:
        if c not in counts:
            raise _bad(f"no {c} cubes in this game")
        counts[c] += 1
    if counts != dict(spec.bag):
        raise _bad(f"cubes are not conserved: {counts} instead of {dict(spec.bag)}")
    track: dict[int, HexTrack] = {}
    on_board: dict[str, int] = {}
    for key, td in d.track.items():
        h = hex_at(key)
        sections = _sections(b, h, td, d.turn)
        _check_hex_track(b, h, td.tile, sections, seats, d.turn, new_cities)
        track[h] = HexTrack(tile=td.tile, sections=sections)
        on_board[td.tile] = on_board.get(td.tile, 0) + 1
    if d.tiles is None:
        d.tiles = {t.name: t.count - on_board.get(t.name, 0) for t in b.components.tiles}
    for t in b.components.tiles:
        left = d.tiles.get(t.name, -1)
        if left < 0 or left + on_board.get(t.name, 0) != t.count:
            raise _bad(f"{t.name} tiles are not conserved (supply + board must be {t.count})")
    if set(d.tiles) != {t.name for t in b.components.tiles}:
        raise _bad("tiles must list every tile kind")
    if sum(1 for h in track if b.town_at[h] >= 0) > b.components.town_discs:
        raise _bad("more towns carry track than there are town discs")
    state = State(
        map_id=d.map, players=d.players, options=msgspec.to_builtins(options), turn=d.turn,
        last_turn=d.last_turn, phase=d.phase, order=list(d.order), queue=list(d.queue),
        move_round=d.move_round, builds_left=d.builds_left, urbanize_open=d.urbanize_open,
        auction=d.auction, actions=dict(d.actions), cycle_used=list(d.cycle_used),
        turn_order_seat=d.turn_order_seat, first_holder=d.first_holder,
        engine_raised=list(d.engine_raised), production=list(d.production),
        production_drawn=d.production_drawn, pl=list(d.pl), bag=dict(d.bag),
        display=display, goods=goods, new_cities=new_cities, track=track,
        tiles=dict(d.tiles), final_scores=d.final_scores,
    )  # fmt: skip
    net = network(b, state)
    if sum(len(r.sections) for r in net.routes) != sum(len(t.sections) for t in track.values()):
        raise _bad("track forms a loop with no city or town")
    for route in net.routes:
        owners = {track[h].sections[k][2] for h, k in route.sections}
        if len(owners) != 1:
            raise _bad("one stretch of track between cities and towns has several owners")
        if all(e.kind == OPEN for e in route.ends):
            raise _bad("track that reaches no city or town")
        if route.complete and route.ends[0].hex == route.ends[1].hex:
            raise _bad(
                f"track leads from {b.label(route.ends[0].hex)} back to the city or town it "
                "starts from (a loop, which building refuses)"
            )
        if route.owner >= 0 and d.pl[route.owner].eliminated:
            raise _bad("an eliminated player still owns track")
    return state


def _sections(b: Board, h: int, td: TrackDoc, turn: int) -> list[list[int]]:
    """The hex's sections, from either form of :class:`TrackDoc`."""
    where = b.label(h)
    if td.sections is not None:
        if td.rotation is not None or td.owner is not None or td.laid is not None:
            raise _bad(f"{where}: give sections, or rotation and owner, not both")
        return [list(s) for s in td.sections]
    shape = b.shapes.get(td.tile)
    if shape is None:
        raise _bad(f"{where}: unknown tile {td.tile!r}")
    if td.rotation is None or td.owner is None:
        raise _bad(f"{where}: track needs sections, or a rotation and an owner")
    laid = turn if td.laid is None else td.laid
    if b.town_at[h] >= 0:
        spokes = town_options(shape).get(td.rotation)
        if spokes is None:
            raise _bad(
                f"{where}: {td.tile} on a town takes rotations {sorted(town_options(shape))}"
            )
        return [[side, TOWN, td.owner, laid] for side in spokes]
    tracks = shape.orientations.get(td.rotation)
    if tracks is None:
        raise _bad(f"{where}: {td.tile} takes rotations {sorted(shape.orientations)}")
    return [[a, c, td.owner, laid] for a, c in tracks]


def _check_hex_track(
    b: Board,
    h: int,
    tile: str,
    sections: list[list[int]],
    seats: set[int],
    turn: int,
    new_cities: dict[int, str],
) -> None:
    where = b.label(h)
    if b.city_at[h] >= 0 or h in new_cities or b.terrain[h] == "water":
        raise _bad(f"track cannot lie on {where}")
    shape = b.shapes.get(tile)
    if shape is None:
        raise _bad(f"{where}: unknown tile {tile!r}")
    if any(len(sec) != 4 for sec in sections):
        raise _bad(f"{where}: a section is [side_a, side_b, owner, turn]")
    for a, c, owner, laid in sections:
        if owner not in seats and owner != OWNERLESS:
            raise _bad(f"{where}: bad owner {owner}")
        if not 1 <= laid <= turn:
            raise _bad(f"{where}: track laid in turn {laid}")
        if not 0 <= a <= 5 or not (0 <= c <= 5 or c == TOWN) or a == c:
            raise _bad(f"{where}: bad sides {a},{c}")
    if b.town_at[h] >= 0:
        if any(c != TOWN for _, c, _, _ in sections):
            raise _bad(f"{where}: a town carries spokes only")
        spokes = tuple(sorted(a for a, _, _, _ in sections))
        if spokes not in town_options(shape).values():
            raise _bad(f"{where}: {tile} cannot give the town these spokes")
        return
    tracks = tuple(sorted((min(a, c), max(a, c)) for a, c, _, _ in sections))
    if any(c == TOWN for _, c, _, _ in sections) or tracks not in shape.orientations.values():
        raise _bad(f"{where}: the sections do not match tile {tile}")
