"""Building Brass: Lancashire positions by name for the rule tests."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from random import Random
from typing import Any

import pytest

from core.errors import IllegalMove
from core.game import SYSTEM
from plugins.brass_lancashire import moves as mv
from plugins.brass_lancashire.data import lancashire
from plugins.brass_lancashire.game import BrassLancashire
from plugins.brass_lancashire.state import State

D = lancashire()
GAME = BrassLancashire()


def cname(name: str) -> str:
    """A card's name from a town id or an industry."""
    for full in (f"location:{name}", f"industry:{name}", name):
        if full in GAME.names.card:
            return full
    raise KeyError(name)


def slot(space: str) -> int:
    loc, i = space.split(":")
    return D.loc_slots[D.loc_index[loc]][int(i)]


def load(players: int = 4, hands: dict[int, list[str]] | None = None, **doc: Any) -> State:
    """A position of ``players`` in which seat ``i`` holds ``hands[i]`` (short names),
    every other card in the deck; ``doc`` overrides the position document's fields
    (``money``, ``income`` and ``mat`` as lists per seat)."""
    hands = hands or {}
    held = {i: [cname(c) for c in hands.get(i, [])] for i in range(players)}
    rest = Counter({GAME.names.card[k]: c for k, c in enumerate(D.deck_copies[players]) if c})
    for cards in held.values():
        rest -= Counter(cards)
    money = doc.pop("money", [30] * players)
    income = doc.pop("income", [10] * players)
    mat = doc.pop("mat", [{}] * players)
    base: dict[str, Any] = {
        "players": players, "order": list(range(players)), "actions_left": 2, "round": 2,
        "seats": [{"money": money[i], "income_space": income[i], "hand": held[i], "mat": mat[i]}
                  for i in range(players)],
        "deck": sorted(rest.elements()), "markets": {"coal": 8, "iron": 8},
    }  # fmt: skip
    return GAME.load_position({**base, **doc})


def act(s: State, seat: int, move: Any, rng: Random | None = None) -> tuple[State, list[Any]]:
    """Decide ``move`` for ``seat`` (the server's draws with ``rng`` first when a system
    task is due afterwards is the caller's) and fold its events."""
    events = GAME.decide(s, seat, move, rng or Random(0))
    new = s.clone()
    for e in events:
        new = GAME.evolve(new, e)
    return new, events


def draw(s: State, tile: int) -> tuple[State, list[Any]]:
    """The server's demand draw, with the tile given."""
    return act(s, SYSTEM, mv.DrawDemand(tile))


def tags(events: list[Any]) -> list[str]:
    return [e.__struct_config__.tag for e in events]


def refused(s: State, seat: int, move: Any) -> str:
    """The code of the refusal of ``move``, which must be refused."""
    with pytest.raises(IllegalMove) as exc:
        GAME.decide(s, seat, move, Random(0))
    return exc.value.code


def tile(space: str, industry: str, owner: int = 0, level: int = 2, **more: Any) -> dict:
    """A tile of a position document (``more``: ``cubes``, ``flipped``)."""
    return {"space": space, "owner": owner, "industry": industry, "level": level, **more}


def era_end(era: str, money: list[int], **doc: Any) -> State:
    """A 2-player position at ``era``'s end, every card played (``doc``: more fields)."""
    cards = sorted(GAME.names.card[k] for k, c in enumerate(D.deck_copies[2]) for _ in range(c))
    seats = [{"money": m, "income_space": 10, "discards": cards[i::2]} for i, m in enumerate(money)]
    return GAME.load_position({"players": 2, "order": [0, 1], "era": era, "phase": "scoring",
                               "round": 11, "seats": seats, "deck": [],
                               "markets": {"coal": 8, "iron": 8}, **doc})  # fmt: skip


def playout(
    players: int,
    seed: int,
    each_move: Callable[[State], None] | None = None,
    each_event: Callable[[State, Any, State], None] | None = None,
) -> tuple[Counter[str], State]:
    """A random game to its end: ``(tags of moves and events, the last state)``. Sales are
    rare at random: seat 0 plays greedy (it builds to sell), the others take a sale
    whenever one is listed, so that every kind of sale is played out. ``each_move`` sees
    the state after every move, ``each_event`` each event with the states around it."""
    rng = Random(seed)
    state: Any = None
    for e in GAME.setup(GAME.Options(), players, rng):
        state = GAME.evolve(state, e)
    tags: Counter[str] = Counter()
    while tasks := GAME.pending_tasks(state):
        task = tasks[0]
        if task.kind == "system":
            move = task.move
            new = GAME.decide(state, SYSTEM, move, rng)
        else:
            legal = GAME.legal_moves(state, task.seat)
            sales = [m for m in legal if m.__struct_config__.tag in ("sell", "sell_also")]
            if task.seat == 0:
                move = GAME.bot_policy(GAME.view(state, 0), legal, rng)
            else:
                move = rng.choice(sales or legal)
            new = GAME.decide(state, task.seat, move, rng)
        tags[move.__struct_config__.tag] += 1
        for e in new:
            tags[e.__struct_config__.tag] += 1
            before, state = (state.clone() if each_event else state), GAME.evolve(state, e)
            if each_event:
                each_event(before, e, state)
        if each_move:
            each_move(state)
    return tags, state
