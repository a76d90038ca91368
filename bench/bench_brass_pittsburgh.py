"""Brass: Pittsburgh speed figures, single process.

* random full games per second and decisions per second for 2, 3 and 4 players, driven as
  the service drives a match (system tasks with the SYSTEM actor, otherwise a uniformly
  random legal move; each decision costs one ``legal_moves`` + ``decide`` + ``evolve``),
  by wall time and by CPU time (compare the CPU figure when the machine is shared; the
  target is 15 four-player games per second on one core);
* CPU microseconds of one ``legal_moves`` call over every decision state of
  ``--legal-games`` seeded random games, and of games played by the search bot's playout
  policy (the states its playouts visit), worked out afresh (see
  ``bench_brass_legal_moves.py``; 0 skips it); ``--listing`` prints only these, and with
  ``--baseline DIR`` the same measured on another checkout (alternated) and the ratio;
* data load + validation, setup + evolve of a new match;
* connectivity labels (worked out, and as a board remembers them) and cube / oil sourcing
  for one consumer (the hot calls of legal-move listing).

    PYTHONPATH=$PWD python3 bench/bench_brass_pittsburgh.py [--games N] [--rounds N]
        [--profile] [--legal-games N] [--listing [--baseline DIR]]

Listing figures (us per call, 2 games per figure, best of 3, 3 alternated rounds
(``--listing --baseline DIR --alternations 3``, DIR a ``git archive`` of 4c3f824^);
2026-12-02 16:45, the shared 2-core machine at load average 4.3-7; the states played by
this checkout and listed by both)::

                 now    4c3f824^ (before the listing work)
    2p random    42.6    94.9   2.23x
    2p playout   39.2    94.4   2.41x
    3p random    45.0    91.9   2.04x
    3p playout   50.7    80.0   1.58x
    4p random    45.8    70.9   1.55x
    4p playout   45.7    75.2   1.65x

    At that load the baseline's figures swung by a third against the 14:54 run (58-65 us
    then); the instruction counts below are the figure to compare. The harness favours
    the baseline: it lists in a fresh process, this checkout in the one that played the
    games (likely its larger heap). Main 35b8972 against this checkout, run both ways round at once
    (3 rounds each): 0.86-1.00x with this checkout listing in-process, 1.10-1.16x with main
    in-process; the two orientations together 1.00-1.07x faster, as the counts (-5 to -6%).

    On a shared machine the timed figures move by 10% run to run; the instruction counts
    below hardly do. The best of 3 repeats lists every state a second time, when the facts
    kept by content (free slots, buildable tiles, connectivity, names) are warm. Counted by
    callgrind (``PYTHONHASHSEED=0``), CPU instructions a call over the 300 playout states of
    2, 3 and 4 players each that ``brass_playout_instructions.py collect`` saves (a run
    listing them all less a run listing none): 4c3f824^ 626k / 667k / 754k, main 7d05e0f
    395k / 461k / 528k, main 5c57e34 343k / 398k / 443k, main 68846ef 343k / 396k / 440k,
    main e83d6e9 321k / 352k / 387k, main 35b8972 304k / 316k / 351k, main 0f911b8 288k /
    295k / 330k (2.24x over the three), ``bplist6`` 275k / 278k / 315k (2.36x; see
    ``plugins/brass/ENGINE_PLAN.md``, "Session 11"), main 0150695 274k / 272k / 309k,
    main 5d243e2 265k / 265k / 299k (``bplist7``: "Session 12" there, with where a call
    goes by C function and state kind, and why one run moves by ~10k a call), main
    914a7dc 253k / 244k / 278k (``bplist8``, "Session 13": no listing key), 236k /
    224k / 253k (``bplist9``: build moves by card and mat space, develop moves and link
    costs kept by content; 2.87x over the three), 226k / 218k / 248k (``bplist10``,
    "Session 14": a tile or link over a bound of its cubes' price anywhere dropped without
    pricing it site by site; 2.96x over the three), now 206k / 195k / 236k (``bplist11``:
    action listings and the discard and second-link answers read already named from
    per-side move tables; 3.22x over the three). The 3x target (209k / 222k / 251k) is
    reached at every player count. A garbage
    collection more or less in a run moves these by up to ~8k a call: with the collector
    off (``gc.disable()`` before the same run's listings), 5c57e34 340k / 385k / 427k,
    e83d6e9 317k / 347k / 384k, 35b8972 301k / 312k / 350k. Between e83d6e9 and 35b8972
    a tile's places are looked for only in the cities the hand's cards reach (their cities,
    the network's; all for a whiskey or a card building anywhere: ``BuildScene.reach``), and
    a location card's builds are read from its city's places gathered once (collector off,
    3 players: 347k -> 325k -> 323k -> 312k, the third the reached cities' places picked by
    ``map``/``filter``). Measured worse on the way: the
    reach worked out per industry (a set of cities each: 2p +2k, and +15k where only its
    cost was paid), and that kept by hand content (+3k to +9k more). Where a 3-player call
    went at 358k, before that (callgrind, each part measured by a copy of this checkout
    that stops there): the listing key ~28k (46k per state that keys); the build listing
    ~150k (the scene 6k; the payment table, first asked by it and shared by the links, 21k;
    the places of each tile, ``BuildScene.sites``: the board's free slots and era 1's one
    tile per city, 41k; the cost checks 2k; the cards times tiles loop 39k; the moves' lists 21k;
    their names and the remembered tuple 16k); the link listing ~48k; the rest (develops,
    sales, loan, pass, steps, names) ~130k. Each is a few Python loops over the board or the
    candidates; in CPython 3.11 a call or a comprehension costs about as much as a short
    loop, so picking things out in C (``map``/``compress``) or keeping more by content did
    not pay: measured worse were empty slots picked out with ``compress`` (+15k), build
    moves handed out through ``map`` (+6k), city cards reaching no affordable city skipped
    through a set of the places' cities (+7k), era 1's cities cut out of the places by
    ``bisect`` (+2k), market offers kept by content (+2k), pipeline routes from the
    network's cities (+1k) (with the collector on, so the smaller ones within its noise; the
    first also timed slower alone). The listing key pays for itself where a service lists a
    state and then decides a move on it (callgrind, 3 players, list + playout policy +
    decide: 1,590k with the remembered listings, 1,609k without), so it stayed until
    ``bplist8`` made decide's own checks cheaper than the key (3 players: 1,259k -> 1,240k
    a playout decision without it).

    Since 35b8972 (3 players, callgrind as above): a listing's first-seen builds are named
    by a written-out encoder instead of the vocabulary's keyword table (14k -> 8k a
    build; 316k -> 308k), the seat's slots and lines are found once per listing
    (``Facts.slots``/``lines``) for the network, the build scene's era-1 cities, the sales
    and the payment table's trains (308k -> 297k), and the sales read the listing's
    connectivity (-> 295k). Why scans matter: comparing Python ints costs ~100
    instructions an element in CPython 3.11, so one ``positions`` over the 55 slots is
    ~15k and a connectivity lookup by the lines' content ~10k. Where a 3-player call
    went at 35b8972 (averaged over the 300 states, each part listed alone): the key 32k
    (47k a key: msgspec's ~80 instructions an element, 201 states key, 11 hit); naming
    37k (17k with every move named before; the rest the ~2 first-seen moves a state);
    the action listings 207k (132 states: Build 122k, the Facts 13k; Network, Develop,
    Sell, Loan, Pass the rest); the pending steps 50k, of which the ``more_link`` offer
    35k (39 states at 266k each: its own network 53k, a payment table 122k after the new
    link changed the connectivity). Measured worse and left: the key as one flat tuple
    of the state's fields (80k a key against msgpack's 47k), the seat's slots by
    ``array('b')`` and ``bytes.find`` (26k a scan against 15k) or an ``enumerate``
    comprehension (+13%), the ``more_link`` offer listed through a ``Facts`` (+0.4k: it
    looks the connectivity up even when no price is asked). The structural changes the
    issue names were not made here: the facts (network, free slots, connectivity) kept
    by the reducer would need them in the state (a stored and position format) or a
    side table keyed by content, whose key costs as much as the scans it saves; a
    listing cached per part by the content it depends on hardly repeats (of 132 action
    states at 3 players, 124 differ in what the build listing reads, 96 in the seat's
    board alone).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from random import Random
from typing import Any

import msgspec
from bench_brass_legal_moves import decision_states, us_per_call

from core.playout import playout
from plugins.brass_pittsburgh.board import BuiltPipeline
from plugins.brass_pittsburgh.data import DATA_DIR, load_data
from plugins.brass_pittsburgh.game import BrassPittsburgh, Options
from plugins.brass_pittsburgh.markets import market_ladders
from plugins.brass_pittsburgh.rules import default_rules
from plugins.brass_pittsburgh.sourcing import cube_sources, oil_sources
from plugins.brass_pittsburgh.state import State


def rate(label: str, runs: int, fn: Callable[[int], object]) -> None:
    start = time.perf_counter()
    for i in range(runs):
        fn(i)
    took = time.perf_counter() - start
    print(f"{label:<44} {runs / took:>10.0f} /s  ({took / runs * 1e6:8.1f} us each)")


def play(game: BrassPittsburgh, players: int, seed: int) -> int:
    """One random game to the end; returns the number of decisions taken."""
    return playout(game, Options(), players, Random(seed))[1]


def full_games(game: BrassPittsburgh, players: int, games: int, profile: bool) -> None:
    profiler = cProfile.Profile() if profile else None
    start, cpu = time.perf_counter(), time.process_time()
    if profiler:
        profiler.enable()
    decisions = sum(play(game, players, seed) for seed in range(games))
    if profiler:
        profiler.disable()
    took, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(
        f"{players} players: {games / took:6.2f} games/s, {decisions / took:8.0f} decisions/s "
        f"({decisions / games:.0f} decisions per game); CPU {cpu / games * 1e3:6.1f} ms "
        f"per game = {games / cpu:6.2f} games/s"
    )
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(15)


def listing_states(games: int) -> dict[str, list[tuple[Any, int]]]:
    """The decision states of random and playout-policy games, 2 to 4 players."""
    game = BrassPittsburgh()
    return {
        f"{players}p {kind}": [
            x
            for seed in range(games)
            for x in decision_states(game, players, seed, playouts=kind == "playout")
        ]
        for players in (2, 3, 4)
        for kind in ("random", "playout")
    }


def listing_figures(states: dict[str, list[tuple[Any, int]]]) -> dict[str, float]:
    """us per ``legal_moves`` call over each set of states."""
    game = BrassPittsburgh()
    return {key: us_per_call(game, found, repeat=3) for key, found in states.items()}


def listing(games: int, baseline: str | None, rounds: int) -> None:
    ours: dict[str, float] = {}
    base: dict[str, float] = {}
    # The states are played here and listed on both sides: a baseline older than the
    # playout policy lists the very states this code's playouts visit.
    states = listing_states(games)
    with tempfile.NamedTemporaryFile(suffix=".msgpack") as saved:
        saved.write(
            msgspec.msgpack.encode({k: [(seat, st) for st, seat in v] for k, v in states.items()})
        )
        saved.flush()
        for _ in range(rounds if baseline else 1):
            if baseline:  # alternated, so that both sides see the same load
                command = [sys.executable, os.path.abspath(__file__), "--states", saved.name]
                env = {**os.environ, "PYTHONPATH": os.path.abspath(baseline)}
                done = subprocess.run(
                    command, cwd=baseline, env=env, capture_output=True, text=True, check=True
                )
                for k, v in json.loads(done.stdout.splitlines()[-1]).items():
                    base[k] = min(base.get(k, v), v)
            for k, v in listing_figures(states).items():
                ours[k] = min(ours.get(k, v), v)
    for key, us in ours.items():
        line = f"{key:<12} {us:7.1f} us per legal_moves call"
        if base:
            line += f"   baseline {base[key]:7.1f} us   {base[key] / us:5.2f}x faster"
        print(line)


def load_states(path: str) -> dict[str, list[tuple[Any, int]]]:
    """States saved by :func:`listing`, read as this checkout's ``State``."""
    with open(path, "rb") as f:
        saved = msgspec.msgpack.decode(f.read(), type=dict[str, list[tuple[int, State]]])
    return {k: [(st, seat) for seat, st in v] for k, v in saved.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--profile", action="store_true", help="profile the full games")
    parser.add_argument("--legal-games", type=int, default=2, help="games for us per listing")
    parser.add_argument("--listing", action="store_true", help="only us per listing")
    parser.add_argument("--baseline", help="--listing: another checkout, measured alike")
    parser.add_argument("--alternations", type=int, default=2, help="--baseline: rounds")
    parser.add_argument("--states", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.states:
        print(json.dumps(listing_figures(load_states(args.states))))
        return
    if args.listing:
        listing(args.legal_games, args.baseline, args.alternations)
        return
    for players in (2, 3, 4):
        full_games(BrassPittsburgh(), players, args.games, args.profile)
    figures = listing_figures(listing_states(args.legal_games)) if args.legal_games else {}
    for players, kind in figures.items():
        print(f"{players}: {kind:6.1f} us per legal_moves call")
    n = args.rounds
    rate("data load + validation", max(1, n // 100), lambda _: load_data(DATA_DIR))
    game = BrassPittsburgh()
    for players in (2, 3, 4):

        def new_match(seed: int, players: int = players) -> object:
            (event,) = game.setup(Options(), players, Random(seed))
            return game.evolve(None, event)

        rate(f"setup + evolve, {players} players", n, new_match)
    rules = default_rules()
    board = rules.board_of("main")
    rng = Random(1)
    boards = []
    for _ in range(64):
        owner = [rng.choice((-1, 0, 1, 2, 3)) for _ in board.lines]
        pipes = [
            BuiltPipeline(rng.randrange(4), "PL_MONEY1") if rng.random() < 0.5 else None
            for _ in board.routes
        ]
        boards.append((owner, pipes))
    rate(
        "connected locations from scratch, main side",
        n,
        lambda i: board.graph.components(boards[i % 64][0]),
    )
    rate("connected locations remembered, main side", n, lambda i: board.labels(boards[i % 64][0]))
    ladders = market_ladders(board.markets)
    cubes = [{r: lad.initial for r, lad in m.items()} for m in ladders]
    slots = len(board.slot_node)
    slot_resource = ["coal" if i % 3 == 0 else "" for i in range(slots)]
    slot_cubes = [i % 2 for i in range(slots)]
    oil = [2] * len(board.oilfields)

    def source(i: int) -> object:
        owner, pipes = boards[i % 64]
        labels = board.labels(owner)
        node = i % board.n_cities
        cube_sources(
            board, labels, [node], "coal", slot_resource=slot_resource, slot_cubes=slot_cubes,
            own_trains={}, ladders=ladders, market_cubes=cubes,
        )  # fmt: skip
        return oil_sources(board, labels, node, oil=oil, route_pipeline=pipes, own_oil_trains={})

    rate("labels + coal and oil sources for one tile", n, source)


if __name__ == "__main__":
    main()
