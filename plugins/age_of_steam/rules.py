"""Small rule helpers shared by ``decide``, ``legal_moves`` and ``evolve``."""

from __future__ import annotations

from random import Random
from typing import Final

from plugins.age_of_steam.data import Board
from plugins.age_of_steam.state import Auction, State
from plugins.age_of_steam.track import network

SHARE_VALUE: Final = 5
MAX_SHARES: Final = 15
MAX_ENGINE: Final = 6
FIRST_PLACE_FEE: Final = 5
"""St. Lucia: the price of going first."""

# (income above, reduction), highest bracket first: the rule text's income reduction table.
REDUCTION: Final = ((50, 10), (40, 8), (30, 6), (20, 4), (10, 2))


def income_reduction(income: int) -> int:
    for above, cut in REDUCTION:
        if income > above:
            return cut
    return 0


def draw(bag: dict[str, int], rng: Random) -> str | None:
    """One cube from the bag, uniformly at random (the bag's content is public; its order
    never exists: each draw is decided when it happens)."""
    total = sum(bag.values())
    if total == 0:
        return None
    pick = rng.randrange(total)
    for colour in sorted(bag):
        if pick < bag[colour]:
            bag[colour] -= 1
            return colour
        pick -= bag[colour]
    raise AssertionError("unreachable")


def next_bidder(a: Auction, after: int, order: list[int]) -> int | None:
    """The next seat to act in the auction after ``after``, skipping the high bidder."""
    n = len(order)
    i = order.index(after)
    for k in range(1, n + 1):
        s = order[(i + k) % n]
        if s in a.active and s != a.high_seat:
            return s
    return None


def auction_payments(a: Auction, order: list[int]) -> tuple[list[int], dict[int, int]]:
    """Final order and payment per seat once one bidder is left.

    The first to drop out is last and pays nothing; the last two pay their full bid; every
    other drop-out pays half its last bid, rounded up.
    """
    winner = a.active[0]
    places = [winner, *reversed(a.out)]
    pays: dict[int, int] = {winner: a.bids.get(winner, 0)}
    for i, s in enumerate(a.out):
        bid = a.bids.get(s, 0)
        if i == 0:
            pays[s] = 0
        elif i == len(a.out) - 1:
            pays[s] = bid
        else:
            pays[s] = (bid + 1) // 2
    return places, pays


def score_sections(board: Board, state: State) -> list[int]:
    """Track sections each seat owns in completed links."""
    net = network(board, state)
    counts = [0] * state.players
    for route in net.routes:
        if route.complete and route.owner >= 0:
            counts[route.owner] += len(route.sections)
    return counts


def final_scores(board: Board, state: State) -> list[int]:
    if board.rules.scoring == "buyback":
        return [p.money - SHARE_VALUE * p.shares for p in state.pl]
    sections = score_sections(board, state)
    return [3 * p.income - 3 * p.shares + sections[s] for s, p in enumerate(state.pl)]


def ranking(state: State, scores: list[int]) -> list[int]:
    """Places, 1 = best. Players still in are ranked by score, ties shared; eliminated
    players come after them, the later out ahead, ties (same turn) shared."""
    live = [s for s in range(state.players) if not state.pl[s].eliminated]
    out = [s for s in range(state.players) if state.pl[s].eliminated]
    places = [0] * state.players
    for s in live:
        places[s] = 1 + sum(scores[t] > scores[s] for t in live)
    for s in out:
        places[s] = 1 + len(live) + sum(state.pl[t].out_turn > state.pl[s].out_turn for t in out)
    return places
