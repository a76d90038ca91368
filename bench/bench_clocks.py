"""How late timeouts are recorded after their deadlines, through the in-process runner, and
what a clock costs a fold.

    python3 bench/bench_clocks.py [--matches 20] [--turn-seconds 1] [--game highcard]

Lateness: ``--matches`` highcard matches on the memory store, every seat claimed and none
ever moving, with ``--turn-seconds`` a turn and ``on_timeout: bot``, so every turn times
out and the stand-in bot plays it. Prints, over every ``core.turn_timed_out``, how far its
stored timestamp lies past its deadline (p50, p95, max) and whether any came early (none
should). Fold cost: a Birmingham match played by bots to the end, folded from its events
with and without a clock (the clock's cost: the game's ``pending_tasks`` once an append).
Wall-clock figures: on a shared machine they vary with what else
runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import msgspec

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "highcard_dist"))

from core.clock import TimeControl
from core.match import MatchCreated, core_encoder, fold
from core.registry import GameRegistry
from core.seating import BotChoice, MatchRules
from core.service import MatchService
from core.store.memory import MemoryStore
from worker.inprocess import InlineRunner, InProcessRunner


def lateness(registry: GameRegistry, matches: int, turn_seconds: int) -> None:
    runner = InProcessRunner(threads=4)
    service = MatchService(MemoryStore(), registry, runner)
    runner.bind(service)
    rules = MatchRules(
        clock=TimeControl(turn_seconds=turn_seconds), stand_in=BotChoice(bot="random")
    )
    ids = []
    for i in range(matches):
        match = service.create_match("highcard", 2, {"rounds": 2}, seed=f"b{i}", rules=rules)
        for seat in (0, 1):
            service.claim_seat(match.match_id, seat)
        ids.append(match.match_id)
    limit = time.monotonic() + 4 * turn_seconds * 2 + 30
    while not all(service.result(service.load(m)) for m in ids):
        if time.monotonic() > limit:
            print("some matches did not finish", file=sys.stderr)
            break
        time.sleep(0.1)
    runner.close()
    late = []
    for match_id in ids:
        for event in service.store.read(match_id):
            if event.type == "core.turn_timed_out":
                late.append(event.timestamp - msgspec.json.decode(event.data)["deadline"])
    late.sort()
    print(
        f"timeouts: {len(late)} over {matches} matches, {turn_seconds} s a turn; "
        f"late by p50 {statistics.median(late) * 1000:.0f} ms, "
        f"p95 {late[int(0.95 * (len(late) - 1))] * 1000:.0f} ms, max {late[-1] * 1000:.0f} ms; "
        f"early: {sum(x < 0 for x in late)}"
    )


def fold_cost(registry: GameRegistry) -> None:
    """A Birmingham match played to the end by random bots, folded from its events as
    stored and with a clock in its first event (every append then ticks the clock)."""
    runner = InlineRunner()
    service = MatchService(MemoryStore(), registry, runner)
    runner.bind(service)
    match = service.create_match("brass-birmingham", 2, seed="fold")
    for seat in (0, 1):
        service.hand_to_bot(match.match_id, seat, "random", None)
    stored = service.store.read(match.match_id)
    first = msgspec.json.decode(stored[0].data, type=MatchCreated)
    timed = msgspec.structs.replace(first, rules=MatchRules(clock=TimeControl(turn_seconds=60)))
    clocked = [msgspec.structs.replace(stored[0], data=core_encoder.encode(timed)), *stored[1:]]
    for label, stream in (("no clock", stored), ("a clock", clocked)):
        started = time.perf_counter()
        for _ in range(10):
            fold(registry, stream)
        took = (time.perf_counter() - started) / 10
        print(f"fold of {len(stream)} events with {label}: {took * 1000:.1f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=20)
    parser.add_argument("--turn-seconds", type=int, default=1)
    args = parser.parse_args()
    registry = GameRegistry()
    registry.load_entry_points()
    lateness(registry, args.matches, args.turn_seconds)
    fold_cost(registry)
    return 0


if __name__ == "__main__":
    sys.exit(main())
