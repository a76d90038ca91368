"""Helpers for the Age of Steam tests: a game driver that puts a state at a given step."""

from __future__ import annotations

import random
from typing import Any

from core.game import SYSTEM
from plugins.age_of_steam.data import Board, board
from plugins.age_of_steam.game import AgeOfSteam, Options
from plugins.age_of_steam.state import State

GAME = AgeOfSteam()

# Evansville -(9,8)- Indianapolis (town) -(11,7)- Cincinnati, both cities blue.
EVANSVILLE, INDIANAPOLIS, CINCINNATI = (9, 9), (10, 8), (12, 8)


class Match:
    """A state plus the rng, applying moves through decide/evolve like the service."""

    def __init__(self, map_id: str = "rust_belt", players: int = 3, seed: int = 1,
                 **options: Any) -> None:  # fmt: skip
        self.rng = random.Random(seed)
        self.events: list[Any] = list(GAME.setup(Options(map=map_id, **options), players, self.rng))
        state = None
        for e in self.events:
            state = GAME.evolve(state, e)
        assert state is not None
        self.state: State = state

    @property
    def board(self) -> Board:
        return board(self.state.map_id)

    def hex(self, col: int, row: int) -> int:
        return self.board.hex_of(col, row)

    def do(self, seat: int, move: Any) -> list[Any]:
        events = GAME.decide(self.state, seat, move, self.rng)
        for e in events:
            self.state = GAME.evolve(self.state, e)
        self.events += events
        return events

    def system(self) -> list[Any]:
        (task,) = GAME.pending_tasks(self.state)
        assert task.kind == "system", task
        return self.do(SYSTEM, task.move)

    def legal(self, seat: int) -> list[Any]:
        return GAME.legal_moves(self.state, seat)

    def at_build(self, seat: int, money: int = 50, builds: int = 3) -> None:
        """Make it ``seat``'s build turn (then Move Goods follows)."""
        s = self.state
        s.phase = "build"
        s.queue = [seat]
        s.builds_left = builds
        s.urbanize_open = s.actions.get("urbanization") == seat
        s.pl[seat].money = money

    def at_move(self, seat: int, engine: int = 1) -> None:
        """Make it ``seat``'s last goods move of the turn."""
        s = self.state
        s.phase = "move"
        s.queue = [seat]
        s.move_round = 1
        s.pl[seat].engine = engine

    def lay(self, seat: int, *builds: tuple[int, int, str, int]) -> None:
        """Build tiles for ``seat`` through the real rules (money topped up)."""
        from plugins.age_of_steam.moves import Build, DoneBuilding

        self.at_build(seat, money=max(50, self.state.pl[seat].money), builds=len(builds))
        self.state.pl[seat].built = True
        for col, row, tile, rot in builds:
            self.do(seat, Build(col, row, tile, rot))
        self.do(seat, DoneBuilding())

    def put_goods(self, col: int, row: int, cubes: list[str]) -> None:
        """Place cubes from the bag on a hex (keeps cubes conserved)."""
        h = self.hex(col, row)
        for c in self.state.goods.pop(h, []):
            self.state.bag[c] += 1
        for c in cubes:
            assert self.state.bag[c] > 0
            self.state.bag[c] -= 1
        if cubes:
            self.state.goods[h] = list(cubes)

    def evansville_to_cincinnati(self, seat: int) -> None:
        """Two completed links: Evansville-Indianapolis and Indianapolis-Cincinnati."""
        self.lay(seat, (9, 8, "gentle", 1), (10, 8, "straight", 1), (11, 7, "gentle", 2))


def cube_total(state: State) -> int:
    return (
        sum(state.bag.values())
        + sum(len(c) for c in state.display)
        + sum(len(c) for c in state.goods.values())
        + len(state.production)
    )


def raw(m: Match, col: int, row: int, tile: str, sections: list[list[int]]) -> None:
    """Put track on the board without the build rules (to set up a test position)."""
    from plugins.age_of_steam.state import HexTrack

    h = m.hex(col, row)
    m.state.track[h] = HexTrack(tile=tile, sections=[list(s) for s in sections])
    m.state.tiles[tile] -= 1
    m.state.net = None
    for sec in sections:
        if sec[2] >= 0:
            m.state.pl[sec[2]].built = True


def cost_of(m: Match, seat: int, col: int, row: int, tile: str, rot: int) -> int:
    from plugins.age_of_steam.track import Plan, plan

    result = plan(m.board, m.state, seat, m.hex(col, row), tile, rot)
    assert isinstance(result, Plan), result
    return result.cost


def refusal(m: Match, seat: int, col: int, row: int, tile: str, rot: int) -> str:
    from plugins.age_of_steam.track import Refusal, plan

    result = plan(m.board, m.state, seat, m.hex(col, row), tile, rot)
    assert isinstance(result, Refusal), result
    return result.code


def thrifty_choice(state: State, seat: int, legal: list[Any], rng: random.Random) -> Any:
    """A legal move chosen at random but with some sense (keeps money for expenses, prefers
    deliveries and town builds), so playouts reach the later rules."""
    from plugins.age_of_steam import moves as mv

    p = state.pl[seat]
    reserve = p.shares + p.engine + 2
    first = legal[0]
    if isinstance(first, mv.IssueShares):
        want = max(0, -(-(reserve + 8 - p.money) // 5))
        return legal[min(len(legal) - 1, want)]
    if any(isinstance(m, mv.DropOut) for m in legal):
        bids = [
            m for m in legal
            if isinstance(m, mv.Bid) and m.amount <= 2 and p.money - m.amount > reserve + 6
        ]  # fmt: skip
        if bids and rng.random() < 0.5:
            return rng.choice(bids)
        passes = [m for m in legal if isinstance(m, mv.TurnOrderPass)]
        return passes[0] if passes else mv.DropOut()
    moves = [m for m in legal if isinstance(m, mv.MoveGood)]
    if moves:
        return rng.choice(moves)
    if mv.RaiseEngine() in legal and p.income > p.engine + 1 and rng.random() < 0.5:
        return mv.RaiseEngine()
    builds = [m for m in legal if isinstance(m, mv.Build | mv.Urbanize)]
    b = board(state.map_id)
    if builds and p.money > reserve + 4:
        completing = _completing_builds(state, seat, builds, rng)
        if completing:
            return rng.choice(completing)
        towns = [m for m in builds if b.town_at[b.hex_of(m.col, m.row)] >= 0]
        if towns and rng.random() < 0.6:
            return rng.choice(towns)
        if rng.random() < 0.9:
            return rng.choice(builds)
    rest = [m for m in legal if not isinstance(m, mv.Build | mv.Urbanize | mv.RaiseEngine)]
    return rng.choice(rest or legal)


def playout(map_id: str, players: int, seed: int, thrifty: bool = True,
            on_step: Any = None) -> tuple[State, list[Any]]:  # fmt: skip
    """A full random game; ``on_step(state, events)`` is called after every decision."""
    rng = random.Random(seed)
    # St. Lucia's disputed first-section income varies with the seed; other maps refuse it.
    income = {"st_lucia_first_section_income": 1 + seed % 2} if map_id == "st_lucia" else {}
    options = Options(map=map_id, **income)
    events = list(GAME.setup(options, players, rng))
    state = None
    for e in events:
        state = GAME.evolve(state, e)
    assert state is not None
    for _ in range(5000):
        tasks = GAME.pending_tasks(state)
        if not tasks:
            return state, events
        (task,) = tasks
        if task.kind == "system":
            new = GAME.decide(state, SYSTEM, task.move, rng)
        else:
            legal = GAME.legal_moves(state, task.seat)
            assert legal, (state.phase, task)
            move = thrifty_choice(state, task.seat, legal, rng) if thrifty else rng.choice(legal)
            new = GAME.decide(state, task.seat, move, rng)
        for e in new:
            state = GAME.evolve(state, e)
        events += new
        if on_step is not None:
            on_step(state, new)
    raise AssertionError("game did not end in 5000 decisions")


def _completing_builds(state: State, seat: int, builds: list[Any], rng: random.Random) -> list[Any]:
    """Builds (of a sample) after which the seat owns more completed links."""
    import copy

    from plugins.age_of_steam import moves as mv
    from plugins.age_of_steam.state import HexTrack
    from plugins.age_of_steam.track import Plan, _build_net, plan

    b = board(state.map_id)

    def completed(s: State) -> int:
        return sum(1 for r in _build_net(b, s).routes if r.complete and r.owner == seat)

    now = completed(state)
    out = []
    for move in rng.sample(builds, min(40, len(builds))):
        if not isinstance(move, mv.Build):
            continue
        h = b.hex_of(move.col, move.row)
        result = plan(b, state, seat, h, move.tile, move.rotation)
        if not isinstance(result, Plan):
            continue
        light = copy.copy(state)
        light.track = dict(state.track)
        light.track[h] = HexTrack(tile=move.tile, sections=result.sections)
        light.net = None
        if completed(light) > now:
            out.append(move)
    return out
