"""What clients read: the view document, the pending decision in words and the static board
(``CLIENTS.md`` describes both with examples).

Hexes are ``"col,row"`` strings here (moves take ``col`` and ``row`` as two integers); sides
are 0 N, 1 NE, 2 SE, 3 S, 4 SW, 5 NW. The view is built from the state in this module only;
positions (``position.py``) are a separate, complete document for saving and loading.
"""

from __future__ import annotations

import functools
from typing import Any, Literal

import msgspec

from plugins.age_of_steam import flow
from plugins.age_of_steam.data import MAPS, Board, board, components
from plugins.age_of_steam.geometry import SIDES
from plugins.age_of_steam.rules import FIRST_PLACE_FEE, MAX_ENGINE, SHARE_VALUE
from plugins.age_of_steam.state import OWNERLESS, TOWN, State
from plugins.age_of_steam.track import OPEN, network, town_discs_used, town_options

Phase = Literal[
    "first_player", "shares", "auction", "actions", "build", "move", "settle", "production",
    "growth", "over",
]  # fmt: skip

STEP_NAMES: dict[str, str] = {
    "first_player": "Buy the first place",
    "shares": "Issue shares",
    "auction": "Determine player order",
    "actions": "Select actions",
    "build": "Build track",
    "move": "Move goods",
    "settle": "Collect income, pay expenses, reduce income",
    "production": "Production",
    "growth": "Goods growth",
    "over": "Game over",
}
"""Each ``phase`` in the words of the rule book's turn sequence."""


class _Doc(msgspec.Struct, kw_only=True):
    pass


class Decision(_Doc, kw_only=True, omit_defaults=True):
    """Who must choose now and how. ``moves`` are the move types that answer (the legal-move
    list holds the exact moves; ``build`` and ``move_good`` may have no legal instance, in
    which case only the others do). ``prompt`` says it in words; the optional fields give
    the bounds: ``count`` (most shares, tiles left to build, cubes left to place),
    ``min_bid``/``max_bid``, ``options`` (actions still open), ``cube`` (colour to place),
    ``round`` (Move Goods round, 1 or 2)."""

    seat: int | None
    """Who decides (``None``: nobody, the server runs a step or the game is over)."""
    kind: str
    moves: list[str]
    prompt: str
    count: int | None = None
    min_bid: int | None = None
    max_bid: int | None = None
    options: list[str] | None = None
    cube: str | None = None
    round: int | None = None


class PlayerView(_Doc, kw_only=True):
    seat: int
    money: int
    shares: int
    """Shares issued (each costs $1 of expenses per turn)."""
    income: int
    engine: int
    """Links a good may travel (1 to 6)."""
    eliminated: bool
    out_turn: int
    """The turn the player was eliminated in (0 while still playing)."""
    built: bool
    """Whether the player ever laid track (until then its first tile must be a simple one
    leaving a city)."""
    action: str | None
    """The action this player took this turn, if any."""
    engine_raised: bool
    """Whether the engine was raised during this turn's Move Goods (once allowed)."""


class AuctionView(_Doc, kw_only=True):
    bidders: list[int]
    """Bidding order (the player order when the auction began)."""
    active: list[int]
    """Still bidding."""
    high: int
    high_seat: int | None
    bids: dict[str, int]
    """Seat (as a string) -> its last bid."""
    dropped_out: list[int]
    """In the order they dropped out: the first one takes the last place."""
    free_pass_seat: int | None
    """The Turn Order holder while its one free pass (``turn_order_pass``) is unused."""


class CityView(_Doc, kw_only=True):
    hex: str
    name: str
    color: str
    """The colour of goods this city accepts."""
    new_city: str | None
    """The New City letter for an urbanized town, else ``None``."""
    cubes: dict[str, int]
    """Goods waiting here, count per colour."""


class SectionView(_Doc, kw_only=True):
    sides: list[int]
    """The two sides a track joins, or one side for a spoke to the town in the middle."""
    owner: int | None
    """A seat, or ``None`` for ownerless track."""
    laid: int
    """Turn the section was laid (unfinished track is lost after its owner's next build)."""


class TrackView(_Doc, kw_only=True):
    hex: str
    tile: str
    rotation: int
    """The smallest rotation (clockwise sixths) giving this picture; on a town the rotation
    of the tile's exits (board ``on_town``)."""
    town: bool
    sections: list[SectionView]


class LinkView(_Doc, kw_only=True):
    """One stretch of track between cities and towns."""

    owner: int | None
    complete: bool
    """Both ends reach a city or town (a completed link; goods move only along these)."""
    ends: list[str]
    """The city or town hexes it joins (one for unfinished track)."""
    hexes: list[str]
    """The track hexes in order, from ``ends[0]`` (a completed link starts at its west-most
    end, the north-most of two in one column)."""
    open_end: list[Any] | None
    """Unfinished track: ``[hex, side]`` its last tile points out of."""


class ViewDoc(_Doc, kw_only=True):
    game: str = "age-of-steam"
    map: str
    options: dict[str, Any]
    seat: int | None
    """The viewer (``None``: a spectator). Nothing in Age of Steam is hidden."""
    turn: int
    last_turn: int
    phase: Phase
    step: str
    """``phase`` in words."""
    order: list[int]
    """Player order this turn (seats still playing)."""
    to_act: int | None
    decision: Decision
    auction: AuctionView | None
    actions: dict[str, int]
    """Action -> seat that took it this turn."""
    actions_open: list[str]
    cycle_used: list[str]
    """Barbados: actions taken since all four were last taken (they are open again only
    once each was taken); empty on the other maps."""
    turn_order_seat: int | None
    """Who took the Turn Order action last turn: its free pass belongs to this turn's
    auction."""
    first_holder: int
    """St. Lucia: who decides first on buying the first place this turn (once the turn
    ends, the taker of Turn Order or else the other player does next turn)."""
    builds_left: int
    """Tiles the builder may still lay this turn (Build track only)."""
    players: list[PlayerView]
    cities: list[CityView]
    land_goods: dict[str, dict[str, int]]
    """St. Lucia: cubes on land hexes, count per colour (empty on other maps)."""
    display: dict[str, list[str]]
    """Goods display column -> cubes, bottom first (growth moves the last one)."""
    production: list[str]
    """Cubes drawn by Production and not yet placed, next first."""
    track: list[TrackView]
    links: list[LinkView]
    tiles: dict[str, int]
    """Track tiles left in the supply."""
    town_discs_left: int
    bag: dict[str, int]
    """Cubes left in the bag per colour (a bag has no order)."""
    bag_total: int
    final_scores: list[int] | None


# --- the decision ---------------------------------------------------------------------------


def decision(b: Board, state: State, actions_open: list[str], share_cap: int) -> Decision:
    phase = state.phase
    seat = flow.to_act(state)
    if phase == "over":
        return Decision(seat=None, kind="game_over", moves=[], prompt="the game is over")
    if seat is None:
        step = STEP_NAMES[phase].lower()
        return Decision(
            seat=None, kind="system", moves=[], prompt=f"the server runs this step: {step}"
        )
    return _decide(b, state, seat, actions_open, share_cap)


def _decide(b: Board, state: State, seat: int, actions_open: list[str], cap: int) -> Decision:
    phase = state.phase
    p = state.pl[seat]
    if phase == "shares":
        return Decision(seat=seat, kind="issue_shares", moves=["issue_shares"], count=cap,
                        prompt=f"issue 0 to {cap} shares for ${SHARE_VALUE} each (each adds $1 to "
                        "your expenses every turn)")  # fmt: skip
    if phase == "first_player":
        moves = ["buy_first", "decline_first"] if p.money >= FIRST_PLACE_FEE else ["decline_first"]
        prompt = f"pay ${FIRST_PLACE_FEE} to go first this turn, or decline"
        return Decision(seat=seat, kind="first_place", moves=moves, prompt=prompt)
    if phase == "auction":
        a = state.auction
        assert a is not None
        low = max(1, a.high + 1)
        moves = ["bid"] if p.money >= low else []
        moves.append("drop_out")
        if a.pass_seat == seat:
            moves.append("turn_order_pass")
        free = " (or use your one free pass)" if a.pass_seat == seat else ""
        prompt = f"bid ${low} to ${p.money} for the first place, or drop out{free}"
        return Decision(
            seat=seat, kind="bid", moves=moves, min_bid=low, max_bid=p.money, prompt=prompt
        )
    if phase == "actions":
        return Decision(seat=seat, kind="select_action", moves=["select_action"],
                        options=actions_open, prompt="select one of the open actions")  # fmt: skip
    if phase == "build":
        moves = ["urbanize"] if _can_urbanize(b, state) else []
        if state.builds_left > 0:
            moves.append("build")
        moves.append("done_building")
        prompt = f"build up to {state.builds_left} more tile(s), then done_building"
        if moves[0] == "urbanize":
            prompt = "place a New City on a town first if you wish (urbanize); " + prompt
        return Decision(
            seat=seat, kind="build", moves=moves, count=state.builds_left, prompt=prompt
        )
    if phase == "move":
        rnd = state.move_round + 1
        moves = ["move_good"]
        if seat not in state.engine_raised and p.engine < MAX_ENGINE:
            moves.append("raise_engine")
        moves.append("pass_move")
        return Decision(seat=seat, kind="move_goods", moves=moves, round=rnd,
                        prompt=f"Move Goods round {rnd} of 2: move one good up to {p.engine} "
                        "link(s), raise your engine instead, or pass")  # fmt: skip
    assert phase == "production"
    cube = state.production[0]
    return Decision(seat=seat, kind="place_cube", moves=["place_cube"], cube=cube,
                    count=len(state.production),
                    prompt=f"place the drawn {cube} cube on an empty space of the goods "
                    "display")  # fmt: skip


def _can_urbanize(b: Board, state: State) -> bool:
    if not state.urbanize_open:
        return False
    towns = any(b.town_at[h] >= 0 and h not in state.new_cities for h in range(len(b.coords)))
    return towns and len(state.new_cities) < len(b.spec.new_cities)


# --- the view -------------------------------------------------------------------------------


def _hex(b: Board, h: int) -> str:
    col, row = b.coords[h]
    return f"{col},{row}"


def _owner(owner: int) -> int | None:
    return None if owner == OWNERLESS else owner


def _counts(cubes: list[str]) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in sorted(cubes):
        out[c] = out.get(c, 0) + 1
    return out


@functools.cache
def _rotation_of(tile: str, on_town: bool) -> dict[tuple[Any, ...], int]:
    """Picture (sorted tracks, or spokes on a town) -> its canonical rotation."""
    shape = components_shapes()[tile]
    if on_town:
        return {spokes: r for r, spokes in town_options(shape).items()}
    return {tracks: r for r, tracks in shape.orientations.items()}


def components_shapes() -> dict[str, Any]:
    return board(MAPS[0]).shapes


def _track(b: Board, state: State) -> list[TrackView]:
    out = []
    for h, ht in sorted(state.track.items(), key=lambda item: b.coords[item[0]]):
        town = b.town_at[h] >= 0
        if town:
            picture: tuple[Any, ...] = tuple(sorted(s[0] for s in ht.sections))
        else:
            picture = tuple(sorted((min(s[0], s[1]), max(s[0], s[1])) for s in ht.sections))
        out.append(TrackView(
            hex=_hex(b, h), tile=ht.tile, rotation=_rotation_of(ht.tile, town)[picture],
            town=town,
            sections=[SectionView(sides=[a] if c == TOWN else [a, c], owner=_owner(o), laid=t)
                      for a, c, o, t in ht.sections],
        ))  # fmt: skip
    return out


def _links(b: Board, state: State) -> list[LinkView]:
    out = []
    for route in network(b, state).routes:
        ends = [e.hex for e in route.ends if e.kind != OPEN]
        hexes = [h for h, _ in route.sections]
        # From the city or town end; a completed link from its west-most (then north-most)
        # end, so the same track always reads the same way.
        if route.ends[0].kind == OPEN or (len(ends) == 2 and b.coords[ends[1]] < b.coords[ends[0]]):
            hexes.reverse()
            ends.reverse()
        gap = route.open_end()
        out.append(LinkView(
            owner=_owner(route.owner), complete=route.complete,
            ends=[_hex(b, h) for h in ends],
            hexes=[_hex(b, h) for h in dict.fromkeys(hexes)],
            open_end=None if gap is None else [_hex(b, gap.hex), gap.side],
        ))  # fmt: skip
    out.sort(key=lambda v: [_coords(x) for x in (*v.ends, *v.hexes)])
    return out


def _coords(key: str) -> tuple[int, ...]:
    return tuple(int(x) for x in key.split(","))


def _cities(b: Board, state: State) -> list[CityView]:
    out = [
        CityView(hex=f"{c.col},{c.row}", name=c.name, color=c.color, new_city=None,
                 cubes=_counts(state.goods.get(b.hex_of(c.col, c.row), [])))
        for c in b.spec.cities
    ]  # fmt: skip
    colours = {c.letter: c.color for c in b.spec.new_cities}
    for h, letter in sorted(state.new_cities.items()):
        out.append(CityView(
            hex=_hex(b, h), name=b.spec.towns[b.town_at[h]].name, color=colours[letter],
            new_city=letter, cubes=_counts(state.goods.get(h, [])),
        ))  # fmt: skip
    return out


def view(
    b: Board, state: State, seat: int | None, actions_open: list[str], share_cap: int
) -> dict[str, Any]:
    a = state.auction
    city_hexes = {b.hex_of(c.col, c.row) for c in b.spec.cities} | set(state.new_cities)
    took = {s: name for name, s in state.actions.items()}
    doc = ViewDoc(
        map=state.map_id, options=dict(state.options), seat=seat, turn=state.turn,
        last_turn=state.last_turn, phase=state.phase,  # type: ignore[arg-type]
        step=STEP_NAMES[state.phase], order=list(state.order), to_act=flow.to_act(state),
        decision=decision(b, state, actions_open, share_cap),
        auction=None if a is None else AuctionView(
            bidders=list(a.seats), active=list(a.active), high=a.high, high_seat=a.high_seat,
            bids={str(s): x for s, x in sorted(a.bids.items())}, dropped_out=list(a.out),
            free_pass_seat=a.pass_seat,
        ),
        actions=dict(state.actions), actions_open=actions_open,
        cycle_used=list(state.cycle_used), turn_order_seat=state.turn_order_seat,
        first_holder=state.first_holder,
        builds_left=state.builds_left if state.phase == "build" else 0,
        players=[
            PlayerView(seat=s, money=p.money, shares=p.shares, income=p.income,
                       engine=p.engine, eliminated=p.eliminated, out_turn=p.out_turn,
                       built=p.built, action=took.get(s),
                       engine_raised=s in state.engine_raised)
            for s, p in enumerate(state.pl)
        ],
        cities=_cities(b, state),
        land_goods={_hex(b, h): _counts(c) for h, c in sorted(state.goods.items())
                    if c and h not in city_hexes},
        display={cid: list(state.display[i]) for i, cid in enumerate(b.display_ids)},
        production=list(state.production), track=_track(b, state), links=_links(b, state),
        tiles=dict(state.tiles),
        town_discs_left=b.components.town_discs - town_discs_used(b, state),
        bag=dict(sorted(state.bag.items())), bag_total=sum(state.bag.values()),
        final_scores=None if state.final_scores is None else list(state.final_scores),
    )  # fmt: skip
    return msgspec.to_builtins(doc)


# --- the static board (GET /games metadata) --------------------------------------------------


def _map_board(map_id: str) -> dict[str, Any]:
    b = board(map_id)
    s = b.spec
    return {
        "title": s.title, "min_players": s.min_players, "max_players": s.max_players,
        "turns": dict(s.turns), "bag": dict(s.bag), "actions": list(s.rules.actions),
        "rules": msgspec.to_builtins(s.rules),
        "hexes": [[col, row, terrain] for col, row, terrain in s.hexes],
        "cities": [{"name": c.name, "hex": f"{c.col},{c.row}", "col": c.col, "row": c.row,
                    "color": c.color, "dice": c.dice, "die": c.die} for c in s.cities],
        "towns": [{"name": t.name, "hex": f"{t.col},{t.row}", "col": t.col, "row": t.row}
                  for t in s.towns],
        "new_cities": [{"letter": c.letter, "color": c.color, "dice": c.dice, "die": c.die}
                       for c in s.new_cities],
        "display": [{"column": d.id, "dice": d.dice, "die": d.die, "spaces": d.spaces,
                     "new_city": d.new_city} for d in s.display],
    }  # fmt: skip


@functools.cache
def board_metadata() -> dict[str, Any]:
    """Every map's hexes, cities, towns, New City tiles and display, and the shared tile set
    with each tile's pictures per canonical rotation, by the names the moves use."""
    comp = components()
    shapes = components_shapes()
    assert comp.costs is not None  # checked when the components load
    return {
        "grid": "odd-q, flat-topped: columns west to east, rows north to south, odd columns "
        "half a hex lower",
        "sides": list(SIDES),
        "tiles": [
            {
                "tile": t.name, "class": t.cls, "count": t.count,
                "rotations": [
                    {"rotation": r, "tracks": [list(tr) for tr in tracks]}
                    for r, tracks in shapes[t.name].orientations.items()
                ] if t.cls != "town" else [
                    {"rotation": r, "spokes": list(sp)}
                    for r, sp in shapes[t.name].spoke_orientations.items()
                ],
                "on_town": [{"rotation": r, "spokes": list(sp)}
                            for r, sp in town_options(shapes[t.name]).items()],
            }
            for t in comp.tiles
        ],
        "town_discs": comp.town_discs,
        "costs": msgspec.to_builtins(comp.costs),
        "maps": {m: _map_board(m) for m in MAPS},
    }  # fmt: skip
