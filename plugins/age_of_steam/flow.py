"""Folding events: the order of the steps of a turn and what each event changes.

``evolve`` is total: every handler trusts the facts its event carries (``decide`` checked
them) and only moves the turn on, so replaying a log never decides anything again.

A hex's :class:`HexTrack`, a hex's list of goods and a display column are never changed
in place: a handler that changes one puts a new one in its place. So a copy of the state
may share them (:func:`plugins.age_of_steam.lookahead.clone` copies only the dicts and
lists that hold them).
"""

from __future__ import annotations

from typing import Any

from plugins.age_of_steam import events as ev
from plugins.age_of_steam.data import Board, board
from plugins.age_of_steam.rules import FIRST_PLACE_FEE, MAX_ENGINE, SHARE_VALUE, next_bidder
from plugins.age_of_steam.state import OWNERLESS, Auction, HexTrack, PlayerState, State
from plugins.age_of_steam.track import Extended, Net, disowned


def _or(seat: int | None, default: int) -> int:
    return default if seat is None else seat


def first(order: list[int], seat: int | None) -> list[int]:
    """``order`` with ``seat`` (an action holder) moved to the front."""
    if seat is None or seat not in order:
        return list(order)
    return [seat, *[s for s in order if s != seat]]


def _printed_city(b: Board, dice: str, die: int) -> int:
    for c in b.spec.cities:
        if c.dice == dice and c.die == die:
            return b.hex_of(c.col, c.row)
    return -1


def sequence(b: Board) -> list[str]:
    """The steps of one turn on this map, in order (system steps included)."""
    rules = b.rules
    seq = ["shares", "actions", "build", "move", "settle", "production", "growth"]
    if rules.turn_order == "auction":
        seq.insert(1, "auction")
    elif rules.turn_order == "first_player_fee":
        seq.insert(0 if rules.order_before_shares else 1, "first_player")
    return seq


def to_act(state: State) -> int | None:
    """The seat whose decision the game waits for, if any."""
    if state.auction is not None:
        return state.auction.to_act
    if state.phase == "production" and not state.production_drawn:
        return None
    return state.queue[0] if state.queue else None


def apply(b: Board, state: State, event: Any) -> None:
    """Fold one event (other than ``Started``) into ``state``."""
    HANDLERS[type(event)](b, state, event)


def started(e: ev.Started) -> State:
    b = board(e.map)
    bag = dict(b.spec.bag)
    goods: dict[int, list[str]] = {}
    for col, row, cubes in e.goods:
        goods[b.hex_of(col, row)] = list(cubes)
        for c in cubes:
            bag[c] -= 1
    for cubes in e.display:
        for c in cubes:
            bag[c] -= 1
    st_lucia_holder = e.order[0]
    state = State(
        map_id=e.map, players=e.players, options=dict(e.options),
        last_turn=b.spec.turns[str(e.players)], phase="", order=list(e.order),
        pl=[PlayerState() for _ in range(e.players)], bag=bag,
        display=[list(c) for c in e.display], goods=goods,
        tiles={t.name: t.count for t in b.components.tiles}, first_holder=st_lucia_holder,
    )  # fmt: skip
    _start_turn(b, state)
    return state


# flow ---------------------------------------------------------------------------------


def _start_turn(b: Board, state: State) -> None:
    state.actions = {}
    state.engine_raised = []
    state.production = []
    state.production_drawn = False
    enter(b, state, sequence(b)[0])


def _next_phase(b: Board, state: State) -> None:
    seq = sequence(b)
    i = seq.index(state.phase)
    enter(b, state, seq[i + 1] if i + 1 < len(seq) else "end")


def enter(b: Board, state: State, phase: str) -> None:
    """Begin step ``phase``: set who acts, and skip a step nobody has to act in."""
    state.phase = phase
    state.queue = []
    state.auction = None
    order = [s for s in state.order if not state.pl[s].eliminated]
    state.order = order
    if phase == "first_player":
        if len(order) < 2:
            return _next_phase(b, state)
        holder = state.first_holder if state.first_holder in order else order[0]
        other = [s for s in order if s != holder]
        state.order = [holder, *other]
        state.queue = list(state.order)
    elif phase == "shares":
        state.queue = list(order)
    elif phase == "auction":
        if len(order) < 2:
            return _next_phase(b, state)
        tos = state.turn_order_seat
        state.auction = Auction(
            seats=list(order), active=list(order), to_act=order[0],
            pass_seat=tos if tos in order else None,
        )  # fmt: skip
        return None
    elif phase == "actions":
        state.queue = list(order)
    elif phase == "build":
        state.queue = first(order, state.actions.get("first_build"))
        _start_builder(state)
    elif phase == "move":
        state.queue = first(order, state.actions.get("first_move"))
        state.move_round = 0
    elif phase == "production":
        holder = state.actions.get("production")
        if holder is None or state.pl[holder].eliminated:
            return _next_phase(b, state)
        state.queue = [holder]
    if not state.queue and phase not in ("settle", "growth", "production", "end", "over"):
        return _next_phase(b, state)
    return None


def _start_builder(state: State) -> None:
    if not state.queue:
        return
    seat = state.queue[0]
    state.builds_left = 4 if state.actions.get("engineer") == seat else 3
    state.urbanize_open = state.actions.get("urbanization") == seat


def _advance(b: Board, state: State) -> None:
    state.queue.pop(0)
    if state.phase == "build":
        _start_builder(state)
    if state.queue:
        return
    if state.phase == "move" and state.move_round == 0:
        state.move_round = 1
        state.queue = first(
            [s for s in state.order if not state.pl[s].eliminated],
            state.actions.get("first_move"),
        )
        if state.queue:
            return
    _next_phase(b, state)


# event handlers -------------------------------------------------------------------------


def _on_shares(b: Board, state: State, e: ev.SharesIssued) -> None:
    p = state.pl[e.seat]
    p.shares += e.count
    p.money += SHARE_VALUE * e.count
    _advance(b, state)


def _on_first_bought(b: Board, state: State, e: ev.FirstBought) -> None:
    state.pl[e.seat].money -= FIRST_PLACE_FEE
    state.order = list(e.order)
    _next_phase(b, state)


def _on_first_declined(b: Board, state: State, e: ev.FirstDeclined) -> None:
    if e.order is not None:
        state.order = list(e.order)
        _next_phase(b, state)
    else:
        state.queue.pop(0)


def _on_bid(b: Board, state: State, e: ev.BidPlaced) -> None:
    a = state.auction
    assert a is not None
    a.high, a.high_seat = e.amount, e.seat
    a.bids[e.seat] = e.amount
    a.to_act = _or(next_bidder(a, e.seat, a.seats), e.seat)


def _on_passed(b: Board, state: State, e: ev.PassedOnce) -> None:
    a = state.auction
    assert a is not None
    a.pass_seat = None
    a.to_act = _or(next_bidder(a, e.seat, a.seats), e.seat)


def _on_dropped(b: Board, state: State, e: ev.DroppedOut) -> None:
    a = state.auction
    assert a is not None
    a.active.remove(e.seat)
    a.out.append(e.seat)
    if e.seat == a.pass_seat:
        a.pass_seat = None
    nxt = next_bidder(a, e.seat, a.seats)
    a.to_act = nxt if nxt is not None else a.active[0]


def _on_order(b: Board, state: State, e: ev.OrderDecided) -> None:
    for s, paid in enumerate(e.paid):
        state.pl[s].money -= paid
    state.order = list(e.order)
    _next_phase(b, state)


def _on_action(b: Board, state: State, e: ev.ActionSelected) -> None:
    state.actions[e.action] = e.seat
    if e.action == "locomotive":
        p = state.pl[e.seat]
        p.engine = min(MAX_ENGINE, p.engine + 1)
    if b.rules.action_cycle:
        state.cycle_used.append(e.action)
        if len(state.cycle_used) >= len(b.rules.actions):
            state.cycle_used = []
    _advance(b, state)


def _on_urbanized(b: Board, state: State, e: ev.Urbanized) -> None:
    h = b.hex_of(e.col, e.row)
    state.new_cities[h] = e.city
    old = state.track.pop(h, None)
    if old is not None:
        state.tiles[old.tile] += 1
    state.urbanize_open = False
    state.net = None


def _on_built(b: Board, state: State, e: ev.TrackBuilt) -> None:
    h = b.hex_of(e.col, e.row)
    state.track[h] = HexTrack(tile=e.tile, sections=[list(s) for s in e.sections])
    state.tiles[e.tile] -= 1
    if e.returned is not None:
        state.tiles[e.returned] += 1
    for col, row, side in e.claimed:
        _set_owner(state, b.hex_of(col, row), side, e.seat)
    p = state.pl[e.seat]
    p.money -= e.cost
    p.built = True
    state.builds_left -= 1
    state.urbanize_open = False
    # A plain tile on an empty hex (the common build) or a town tile on a town with no
    # track, claiming nothing: the network may be extended from the one before (see
    # track.network).
    old = state.net
    simple = (
        type(old) is Net and e.kind in ("place", "town") and not e.claimed and e.returned is None
    )
    state.net = Extended(old, h) if simple else None


def _set_owner(state: State, h: int, side: int, owner: int) -> None:
    """Give the section of hex ``h`` that starts at ``side`` to ``owner`` (a new HexTrack)."""
    ht = state.track[h]
    sections = [[a, c, owner if a == side else o, t] for a, c, o, t in ht.sections]
    state.track[h] = HexTrack(tile=ht.tile, sections=sections)


def _on_building_done(b: Board, state: State, e: ev.BuildingDone) -> None:
    net = state.net
    freed: set[int] = set()
    for col, row, side in e.abandoned:
        h = b.hex_of(col, row)
        if type(net) is Net:
            k = next(k for k, sec in enumerate(state.track[h].sections) if sec[0] == side)
            freed.add(net.sec_route[h, k])
        _set_owner(state, h, side, OWNERLESS)
    # The network is the track's alone: unchanged track keeps it, abandoned track only
    # changes its routes' owner.
    if e.abandoned:
        state.net = disowned(net, freed) if type(net) is Net else None
    state.builds_left = 0
    state.urbanize_open = False
    _advance(b, state)


def _on_moved(b: Board, state: State, e: ev.GoodMoved) -> None:
    h = b.hex_of(e.col, e.row)
    cubes = list(state.goods[h])
    cubes.remove(e.color)
    if cubes:
        state.goods[h] = cubes
    else:
        del state.goods[h]
    state.bag[e.color] = state.bag.get(e.color, 0) + 1
    for seat, gain in e.income:
        state.pl[seat].income += gain
    _advance(b, state)


def _on_engine(b: Board, state: State, e: ev.EngineRaised) -> None:
    p = state.pl[e.seat]
    p.engine = min(MAX_ENGINE, p.engine + 1)
    state.engine_raised.append(e.seat)
    _advance(b, state)


def _on_move_passed(b: Board, state: State, e: ev.MovePassed) -> None:
    _advance(b, state)


def _on_income(b: Board, state: State, e: ev.IncomeCollected) -> None:
    for s, amount in enumerate(e.amounts):
        state.pl[s].money += amount


def _on_expenses(b: Board, state: State, e: ev.ExpensesPaid) -> None:
    for s in range(state.players):
        state.pl[s].money -= e.paid[s]
        state.pl[s].income -= e.income_lost[s]
    for s in e.eliminated:
        p = state.pl[s]
        p.eliminated = True
        p.out_turn = state.turn
        for h, ht in list(state.track.items()):
            if any(sec[2] == s for sec in ht.sections):
                sections = [[a, c, OWNERLESS if o == s else o, t] for a, c, o, t in ht.sections]
                state.track[h] = HexTrack(tile=ht.tile, sections=sections)
    if e.eliminated:
        state.order = [s for s in state.order if s not in e.eliminated]
        net = state.net
        if type(net) is Net:  # the players' routes are ownerless now, the track the same
            out = set(e.eliminated)
            state.net = disowned(net, {i for i, r in enumerate(net.routes) if r.owner in out})
        else:
            state.net = None


def _on_reduced(b: Board, state: State, e: ev.IncomeReduced) -> None:
    for s, cut in enumerate(e.amounts):
        state.pl[s].income -= cut
    _next_phase(b, state)


def _on_drawn(b: Board, state: State, e: ev.ProductionDrawn) -> None:
    for c in e.cubes:
        state.bag[c] -= 1
    state.production = list(e.cubes)
    state.production_drawn = True
    if not state.production:
        _next_phase(b, state)


def _on_placed(b: Board, state: State, e: ev.CubePlaced) -> None:
    i = b.display_ids.index(e.column)
    state.display[i] = [*state.display[i], e.color]
    state.production.pop(0)
    if not state.production:
        _next_phase(b, state)


def _on_grown(b: Board, state: State, e: ev.GoodsGrown) -> None:
    placed = {letter: h for h, letter in state.new_cities.items()}
    for dice, rolls in (("light", e.light), ("dark", e.dark)):
        for die in rolls:
            for i, col in enumerate(b.spec.display):
                if col.dice != dice or col.die != die or not state.display[i]:
                    continue
                if col.new_city is None:
                    dest = _printed_city(b, dice, die)
                else:
                    dest = placed.get(col.new_city, -1)
                if dest < 0:
                    continue
                column = state.display[i]
                state.display[i] = column[:-1]
                state.goods[dest] = [*state.goods.get(dest, ()), column[-1]]


def _on_turn_ended(b: Board, state: State, e: ev.TurnEnded) -> None:
    if e.game_over:
        state.phase = "over"
        state.queue = []
        state.final_scores = list(e.scores or [])
        return
    taker = state.actions.get("turn_order")
    state.turn_order_seat = taker
    if b.rules.turn_order == "first_player_fee":
        if taker is not None:
            state.first_holder = taker
        else:
            others = [s for s in range(state.players) if s != state.first_holder]
            state.first_holder = others[0] if others else state.first_holder
    state.turn += 1
    _start_turn(b, state)


HANDLERS: dict[type, Any] = {
    ev.SharesIssued: _on_shares,
    ev.FirstBought: _on_first_bought,
    ev.FirstDeclined: _on_first_declined,
    ev.BidPlaced: _on_bid,
    ev.PassedOnce: _on_passed,
    ev.DroppedOut: _on_dropped,
    ev.OrderDecided: _on_order,
    ev.ActionSelected: _on_action,
    ev.Urbanized: _on_urbanized,
    ev.TrackBuilt: _on_built,
    ev.BuildingDone: _on_building_done,
    ev.GoodMoved: _on_moved,
    ev.EngineRaised: _on_engine,
    ev.MovePassed: _on_move_passed,
    ev.IncomeCollected: _on_income,
    ev.ExpensesPaid: _on_expenses,
    ev.IncomeReduced: _on_reduced,
    ev.ProductionDrawn: _on_drawn,
    ev.CubePlaced: _on_placed,
    ev.GoodsGrown: _on_grown,
    ev.TurnEnded: _on_turn_ended,
}
