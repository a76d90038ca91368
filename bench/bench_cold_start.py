"""What a restarted process pays: the reconciler's first scan, and a cold read of a long match.

    python3 bench/bench_cold_start.py [--matches 2000] [--events 10000] [--stores sqlite,...]

For each store (memory, SQLite in a temporary file, Redis on 127.0.0.1:6379 under a fresh
prefix, PostgreSQL database ``test`` in a throwaway schema; each skipped when it does not
answer):

- startup: ``--matches`` Brass: Birmingham matches waiting for people plus 2 waiting for a
  bot are stored; a fresh service's first reconciler scan (what ``ironworks serve`` runs at
  startup) is timed, against loading every stored match (what it did before the stores
  marked the matches waiting for a job);
- cold read: a match of ``--events`` events, or a few more so that its newest snapshot is
  as far behind as it gets (``core.live.SNAPSHOT_EVERY`` - 1 events: a test game whose
  every event bumps a counter, its state carrying a finished Birmingham state so that a
  snapshot weighs what a real one does), is loaded by a fresh service, from its stored
  snapshot and the events after it, and, for comparison, folded from its first event.
  The counter's fold is cheaper than a game's: a Brass event folds in ~2.3 µs more.

Wall-clock medians of a few runs; figures vary with what else runs on the machine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
import uuid
from typing import Any, ClassVar

import msgspec

from core.game import Result, Task
from core.hooks import hookimpl
from core.registry import GameRegistry, default_registry
from core.service import MatchService
from core.store.base import open_store
from core.tasks import NullRunner
from worker.inprocess import InlineRunner
from worker.reconciler import Reconciler

PG = "postgresql://postgres@127.0.0.1:5432/test"


class Options(msgspec.Struct, forbid_unknown_fields=True):
    pass


class Bump(msgspec.Struct, tag="bump"):
    pass


class Started(msgspec.Struct, tag="started"):
    pass


class Counter(msgspec.Struct):
    count: int
    ballast: Any
    """A finished Birmingham state: a snapshot of it weighs what a real match's does."""


class CounterGame:
    """The smallest game with a long stream: every move bumps a counter."""

    id = "counter"
    title = "Counter"
    rules_version = "1"
    min_players = 1
    max_players = 1
    Options: ClassVar[type] = Options
    Move: ClassVar[Any] = Bump
    Event: ClassVar[Any] = Bump | Started
    metadata: ClassVar[dict[str, Any]] = {"hidden_information": False}
    ballast: Any = None

    def setup(self, options: Any, players: int, rng: random.Random) -> list[Any]:
        return [Started()]

    def evolve(self, state: Counter | None, event: Any) -> Counter:
        if state is None:
            return Counter(0, self.ballast)
        return Counter(state.count + 1, state.ballast)

    def decide(self, state: Counter, actor: int, move: Any, rng: random.Random) -> list[Any]:
        return [Bump()]

    def legal_moves(self, state: Counter, seat: int) -> list[Any]:
        return [Bump()]

    def view(self, state: Counter, seat: int | None) -> dict[str, Any]:
        return {"count": state.count}

    def redact(self, event: Any, seat: int | None) -> dict[str, Any]:
        return {}

    def pending_tasks(self, state: Counter) -> list[Task]:
        return [Task(kind="turn", seat=0)]

    def result(self, state: Counter) -> Result | None:
        return None

    def clone(self, state: Counter) -> Counter:
        return Counter(state.count, state.ballast)

    def export_position(self, state: Counter) -> dict[str, Any]:
        return {"count": state.count}

    def load_position(self, doc: dict[str, Any]) -> Counter:
        return Counter(doc["count"], self.ballast)

    def sample_hidden(self, state: Counter, seat: int, rng: random.Random) -> Counter:
        return self.clone(state)


def finished_birmingham_state() -> Any:
    runner = InlineRunner()
    service = MatchService(open_store("memory://"), default_registry(), runner)
    runner.bind(service)
    match = service.create_match("brass-birmingham", 4, seed="ballast")
    for seat in range(4):
        service.hand_to_bot(match.match_id, seat, "random", None)
    return service.load(match.match_id).game_state


def median_ms(call: Any, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def startup(url: str, matches: int) -> str:
    registry = default_registry()
    store = open_store(url)
    service = MatchService(store, registry, NullRunner())
    for n in range(matches):
        match = service.create_match("brass-birmingham", 2, seed=f"idle-{n}")
        service.claim_seat(match.match_id, 0)
    for n in range(2):
        match = service.create_match("brass-birmingham", 2, seed=f"bot-{n}")
        for seat in range(2):  # nothing runs the jobs: the bots wait to move
            service.hand_to_bot(match.match_id, seat, "random", None)

    def first_scan() -> None:
        fresh = MatchService(store, registry, NullRunner())
        assert Reconciler(fresh).scan() == 2

    def load_all() -> None:
        fresh = MatchService(store, registry, NullRunner())
        offset = 0
        while page := store.list_streams(offset, 500):
            offset += len(page)
            for info in page:
                fresh.load(info.stream_id)

    scan = median_ms(first_scan)
    everything = median_ms(load_all, runs=1)
    store.close()
    return f"first scan {scan:8.1f} ms   (loading all {matches + 2}: {everything:8.0f} ms)"


def cold_read(url: str, events: int, ballast: Any) -> str:
    game = CounterGame()
    game.ballast = ballast
    registry = GameRegistry()
    registry.register(_Plugin(game), "counter")
    assert not registry.problems, registry.problems
    store = open_store(url)
    service = MatchService(store, registry, NullRunner())
    match = service.create_match("counter", 1)
    token = service.claim_seat(match.match_id, 0)
    version = service.load(match.match_id).version
    # The worst case: the newest snapshot as far behind as it gets, every - 1 events.
    every = service.snapshots.every
    events += (every - 1 - events) % every
    while version < events:
        version = service.submit(match.match_id, token, Bump(), version).version

    def snapshot_load() -> None:
        MatchService(store, registry, NullRunner()).load(match.match_id)

    def full_fold() -> None:
        fresh = MatchService(store, registry, NullRunner(), snapshot_every=10**9)
        # no snapshot found (``load_steps`` is what a load asks; ``load`` is not on its way)
        fresh.snapshots.load_steps = lambda match_id: iter(())  # type: ignore[method-assign]
        fresh.load(match.match_id)

    from_snapshot = median_ms(snapshot_load)
    folded = median_ms(full_fold, runs=3)
    store.close()
    return (
        f"cold read of {version} events: {from_snapshot:6.1f} ms from the snapshot "
        f"{version % every} events behind ({folded:6.0f} ms folded from the start)"
    )


class _Plugin:
    def __init__(self, game: CounterGame) -> None:
        self.game = game

    @hookimpl
    def ironworks_games(self) -> list[Any]:
        return [self.game]


def store_urls(kinds: list[str]) -> list[str]:
    urls = []
    tag = uuid.uuid4().hex[:8]
    for kind in kinds:
        if kind == "memory":
            urls.append("memory://")
        elif kind == "sqlite":
            urls.append(f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3")
        elif kind == "redis":
            try:
                import redis

                redis.Redis(host="127.0.0.1", port=6379, socket_timeout=1).ping()
                urls.append(f"redis://127.0.0.1:6379/0?prefix=iwbench-{tag}")
            except Exception:
                print("redis: no server on 127.0.0.1:6379, skipped")
        elif kind == "postgres":
            try:
                import psycopg

                psycopg.connect(PG, connect_timeout=2).close()
                urls.append(f"{PG}?schema=iwbench_{tag}")
            except Exception:
                print(f"postgresql: no server at {PG}, skipped")
    return urls


def clean(url: str) -> None:
    if url.startswith("redis"):
        import redis

        client = redis.Redis(host="127.0.0.1", port=6379)
        for key in client.scan_iter(match=f"{url.rsplit('=', 1)[1]}:*", count=1000):
            client.delete(key)
    elif url.startswith("postgresql"):
        import psycopg

        with psycopg.connect(PG, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA IF EXISTS {url.rsplit('=', 1)[1]} CASCADE")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=2000, help="idle matches stored")
    parser.add_argument("--events", type=int, default=10_000, help="events of the long match")
    parser.add_argument("--stores", default="memory,sqlite,redis,postgres")
    args = parser.parse_args()
    ballast = finished_birmingham_state()
    for url in store_urls(args.stores.split(",")):
        kind = url.split(":", 1)[0]
        try:
            first = startup(url, args.matches)
            print(f"{kind:10} {cold_read(url, args.events, ballast)}   {first}", flush=True)
        finally:
            clean(url)


if __name__ == "__main__":
    main()
