"""Bot tournaments in memory: seat-rotated matches between bot kinds, with the figures that
tell whether one is stronger (win rates with Wilson intervals, score margins, game length,
eliminations, move times).

Every bot plays exactly as it does in the service: it is handed the seat's view, its legal
moves and a per-decision rng, nothing else. Matches run in several processes when asked; each
match is reproducible from the tournament seed and its number.
"""

from __future__ import annotations

import functools
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from random import Random
from typing import Any

import msgspec

from core.bots import bot_view, checked_choice, think_ms_refusal
from core.errors import BadRequest
from core.game import SYSTEM
from worker.bots import get_bot

CLOCKS: dict[str, Callable[[], float]] = {"cpu": time.process_time, "wall": time.perf_counter}
"""What a search bot's think budget counts in a tournament. ``cpu`` (the default): the
thinking process's CPU seconds, so a ladder run on a busy, shared machine measures the same
bots as on a quiet one. ``wall``: elapsed seconds, as the service counts them."""


class Entrant(msgspec.Struct, frozen=True):
    """One bot of a tournament: ``kind`` and, for the search bot, its level."""

    kind: str
    level: str | None = None
    think_ms: int | None = None

    @property
    def label(self) -> str:
        return self.kind if self.level is None else f"{self.kind}:{self.level}"


def parse_entrants(text: str) -> list[Entrant]:
    """``search:hard,greedy`` → entrants; ``search@500`` thinks 500 ms a decision. Each is
    checked as the API checks a seat's bot (:func:`core.bots.checked_choice`), with the same
    sentence: a bot the service would refuse is not played here either."""
    out = []
    for item in (part.strip() for part in text.split(",")):
        think = None
        if "@" in item:
            item, ms = item.split("@", 1)
            if not ms.strip().isdigit():
                raise ValueError(think_ms_refusal(ms))
            think = int(ms)
        kind, _, level = item.partition(":")
        try:
            out.append(Entrant(*checked_choice(kind, level or None, think)))
        except BadRequest as exc:
            raise ValueError(exc.message) from None
    if not out:
        raise ValueError("name at least one bot")
    return out


class SeatRecord(msgspec.Struct):
    entrant: str
    score: float
    rank: int
    tied: int
    """Seats sharing this seat's place (1 when alone)."""
    margin: float
    """Score minus the best other seat's score."""
    eliminated: bool
    negative_income: bool
    move_times: list[float]
    """Seconds each of its decisions with a real choice took, on the tournament's clock."""


class MatchRecord(msgspec.Struct):
    number: int
    decisions: int
    seats: list[SeatRecord]
    code: str | None = None
    """Which code played it (see :func:`code_version`), so a ladder continued over several
    sessions says which of its matches each version played."""


def seating(entrants: list[Entrant], players: int, number: int) -> list[Entrant]:
    """Who sits where in match ``number``: the entrants cycled over the seats, rotated by
    one seat a match, so every entrant plays every seat equally often."""
    return [entrants[(seat + number) % len(entrants)] for seat in range(players)]


def play_match(
    game_id: str, players: int, entrants: list[Entrant], number: int, seed: str,
    options: dict[str, Any] | None = None, max_decisions: int = 20_000, clock: str = "cpu",
) -> MatchRecord:  # fmt: skip
    game = _registry().get(game_id)
    seats = seating(entrants, players, number)
    tick = CLOCKS[clock]
    bots = [get_bot(e.kind, game, e.level, e.think_ms, clock=tick) for e in seats]
    rng = Random(f"{seed}/{number}")
    opts = msgspec.convert(options or {}, game.Options)
    state = None
    for event in game.setup(opts, players, rng):
        state = game.evolve(state, event)
    times: list[list[float]] = [[] for _ in range(players)]
    decisions = 0
    while (tasks := game.pending_tasks(state)) and decisions < max_decisions:
        task = tasks[0]
        if task.kind == "system":
            events = game.decide(state, SYSTEM, task.move, rng)
        else:
            seat = task.seat
            legal = game.legal_moves(state, seat)
            started = tick()
            move = bots[seat].choose(bot_view(game, state, seat), legal, Random(rng.random()))
            if len(legal) > 1:
                times[seat].append(tick() - started)
            events = game.decide(state, seat, move, rng)
        decisions += 1
        for event in events:
            state = game.evolve(state, event)
    result = game.result(state)
    if result is None:
        raise RuntimeError(f"match {number} did not end within {max_decisions} decisions")
    final = game.view(state, None)
    eliminated = result.details.get("eliminated_turn") or [None] * players
    records = []
    for seat in range(players):
        others = [s for i, s in enumerate(result.scores) if i != seat]
        panel = (final.get("players") or [{}] * players)[seat]
        income = panel.get("income_level") if isinstance(panel, dict) else None
        records.append(SeatRecord(
            entrant=seats[seat].label, score=result.scores[seat], rank=result.ranking[seat],
            tied=result.ranking.count(result.ranking[seat]),
            margin=result.scores[seat] - max(others) if others else result.scores[seat],
            eliminated=eliminated[seat] is not None,
            negative_income=isinstance(income, int) and income < 0,
            move_times=times[seat],
        ))  # fmt: skip
    return MatchRecord(number=number, decisions=decisions, seats=records)


@functools.cache
def _registry() -> Any:
    from core.registry import default_registry

    return default_registry()


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95 % by default)."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def _quantile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def summarize(records: list[MatchRecord], entrants: list[Entrant]) -> dict[str, Any]:
    """Per entrant: seats played, wins (a shared first place counts as a share of a win),
    win rate with its Wilson interval, mean score and margin, eliminations, negative
    income at the end, move time p50/p95; and the mean game length."""
    out: dict[str, Any] = {"matches": len(records), "entrants": {}}
    out["mean_decisions"] = statistics.fmean(r.decisions for r in records) if records else 0
    for label in dict.fromkeys(e.label for e in entrants):
        seats = [s for r in records for s in r.seats if s.entrant == label]
        # In a match where an entrant holds several seats, it wins once if any of them wins.
        wins = 0.0
        appearances = 0
        for r in records:
            mine = [s for s in r.seats if s.entrant == label]
            if not mine:
                continue
            appearances += 1
            firsts = [s for s in mine if s.rank == 1]
            if firsts:
                wins += len(firsts) / firsts[0].tied
        low, high = wilson(wins, appearances)
        moves = [t for s in seats for t in s.move_times]
        out["entrants"][label] = {
            "matches": appearances,
            "seats": len(seats),
            "wins": wins,
            "win_rate": wins / appearances if appearances else 0.0,
            "win_rate_95": [low, high],
            "mean_score": statistics.fmean(s.score for s in seats) if seats else 0.0,
            "mean_margin": statistics.fmean(s.margin for s in seats) if seats else 0.0,
            "eliminated": sum(s.eliminated for s in seats),
            "negative_income": sum(s.negative_income for s in seats),
            "decisions_timed": len(moves),
            "move_p50_s": _quantile(moves, 0.5),
            "move_p95_s": _quantile(moves, 0.95),
            "move_max_s": max(moves, default=0.0),
        }
    return out


def _progress(done: int, total: int, started: float, stream: Any) -> None:
    width = 30
    filled = width * done // max(1, total)
    elapsed = time.perf_counter() - started
    eta = elapsed / done * (total - done) if done else 0.0
    stream.write(
        f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} matches "
        f"{elapsed:6.0f}s elapsed, ~{eta:.0f}s left "
    )
    stream.flush()


@functools.cache
def code_version() -> str:
    """The commit of the checkout this code runs from (``+`` if it has uncommitted changes),
    or the installed package's version outside a checkout."""
    import subprocess
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    try:
        head = subprocess.run(["git", "-C", str(root), "rev-parse", "--short=12", "HEAD"],
                              capture_output=True, text=True, timeout=5, check=True)  # fmt: skip
        dirty = subprocess.run(["git", "-C", str(root), "status", "--porcelain", "--",
                                "core", "plugins", "worker"],
                               capture_output=True, text=True, timeout=5, check=True)  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        from importlib.metadata import PackageNotFoundError, version

        try:
            return f"ironworks {version('ironworks')}"
        except PackageNotFoundError:
            return "unknown"
    return head.stdout.strip() + ("+" if dirty.stdout.strip() else "")


def run(
    game_id: str, players: int, entrants: list[Entrant], games: int, seed: str = "tournament",
    processes: int = 1, options: dict[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None, clock: str = "cpu",
    on_record: Callable[[MatchRecord], None] | None = None, skip: frozenset[int] = frozenset(),
) -> list[MatchRecord]:  # fmt: skip
    """Play matches ``0 .. games - 1`` but those in ``skip`` (in ``processes`` processes)
    and return their records, in match order. Think budgets count on ``clock`` (see
    :data:`CLOCKS`); ``on_record`` sees each record as its match ends."""
    args = [(game_id, players, entrants, n, seed, options, 20_000, clock)
            for n in range(games) if n not in skip]  # fmt: skip
    records: list[MatchRecord] = []
    code = code_version()

    def done(record: MatchRecord) -> None:
        record.code = code
        records.append(record)
        if on_record:
            on_record(record)
        if progress:
            progress(len(records) + len(skip), games)

    if processes <= 1:
        for a in args:
            done(play_match(*a))
        return records
    with ProcessPoolExecutor(max_workers=processes) as pool:
        futures = [pool.submit(play_match, *a) for a in args]
        for future in _as_completed(futures):
            done(future.result())
    return sorted(records, key=lambda r: r.number)


def _as_completed(futures: Iterable[Any]) -> Iterable[Any]:
    from concurrent.futures import as_completed

    return as_completed(list(futures))


def format_table(summary: dict[str, Any], title: str) -> str:
    lines = [title, f"{summary['matches']} matches, {summary['mean_decisions']:.0f} decisions "
             "a match on average"]  # fmt: skip
    head = (f"{'bot':<14}{'win %':>7}{'95% interval':>16}{'score':>8}{'margin':>8}"
            f"{'elim':>6}{'neg.inc':>8}{'p50 s':>8}{'p95 s':>8}")  # fmt: skip
    lines.append(head)
    for label, e in summary["entrants"].items():
        low, high = e["win_rate_95"]
        lines.append(
            f"{label:<14}{100 * e['win_rate']:>6.1f}%{f'{100 * low:.0f}-{100 * high:.0f}%':>16}"
            f"{e['mean_score']:>8.1f}{e['mean_margin']:>8.1f}{e['eliminated']:>6}"
            f"{e['negative_income']:>8}{e['move_p50_s']:>8.3f}{e['move_p95_s']:>8.3f}"
        )
    return "\n".join(lines)


def main(args: Any) -> int:
    """``ironworks tournament``: see :func:`api.cli.build_parser`."""
    try:
        entrants = parse_entrants(args.bots)
    except ValueError as exc:
        print(f"ironworks tournament: {exc}", file=sys.stderr)
        return 2
    if args.game not in _registry():
        print(f"ironworks tournament: no game {args.game!r} is installed; installed: "
              f"{', '.join(g.id for g in _registry().games())}", file=sys.stderr)  # fmt: skip
        return 2
    game = _registry().get(args.game)
    if not game.min_players <= args.players <= game.max_players:
        print(f"ironworks tournament: {game.title} takes {game.min_players} to "
              f"{game.max_players} players", file=sys.stderr)  # fmt: skip
        return 2
    try:
        options = msgspec.json.decode(args.options) if args.options else None
        msgspec.convert(options or {}, game.Options)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        print(f"ironworks tournament: --options is not options of {game.title}: {exc}",
              file=sys.stderr)  # fmt: skip
        return 2
    if args.json and (problem := _unwritable(args.json)):
        # Found now, not after hours of matches whose records it was to keep.
        print(f"ironworks tournament: cannot write --json {args.json}: {problem}",
              file=sys.stderr)  # fmt: skip
        return 2
    started = time.perf_counter()
    show = None if args.quiet else (lambda d, t: _progress(d, t, started, sys.stderr))
    setting = {"game": args.game, "players": args.players, "seed": args.seed,
               "clock": args.clock, "bots": args.bots, "options": options}  # fmt: skip
    so_far: list[MatchRecord] = []
    if args.resume:
        if not args.json:
            print("ironworks tournament: --resume continues the --json file", file=sys.stderr)
            return 2
        try:
            so_far = _resumed(args.json, setting, args.games)
        except ValueError as exc:
            print(f"ironworks tournament: cannot resume {args.json}: {exc}", file=sys.stderr)
            return 2

    def report(records: list[MatchRecord]) -> dict[str, Any]:
        summary = summarize(records, entrants)
        summary.update(setting, seconds=round(time.perf_counter() - started, 1),
                       code=sorted({r.code or "unknown" for r in records}))  # fmt: skip
        return summary

    def keep(record: MatchRecord) -> None:
        # A long ladder that is stopped keeps every match it finished.
        so_far.append(record)
        if args.json:
            _write_json(args.json, report(so_far), sorted(so_far, key=lambda r: r.number))

    earlier = list(so_far)
    played = run(args.game, args.players, entrants, args.games, args.seed, args.processes,
                 options, show, args.clock, keep, frozenset(r.number for r in earlier))  # fmt: skip
    if show:
        sys.stderr.write("\n")
    records = sorted(earlier + played, key=lambda r: r.number)
    summary = report(records)
    print(format_table(summary, f"{args.game}, {args.players} players, seat-rotated"))
    if args.json:
        _write_json(args.json, summary, records)
    return 0


def _resumed(path: str, setting: dict[str, Any], games: int) -> list[MatchRecord]:
    """The matches already in the tournament file ``path``, after checking that it is the
    same tournament (game, players, seed, clock, bots, options): match ``n`` of a seed is
    the same deal whenever it is played, so a ladder stopped in one session goes on in the
    next one without replaying or repeating a match."""
    import os

    if not os.path.exists(path):
        return []
    try:
        with open(path, "rb") as f:
            doc = msgspec.json.decode(f.read())
        summary = doc["summary"]
        records = msgspec.convert(doc["matches"], list[MatchRecord])
    except (OSError, msgspec.DecodeError, msgspec.ValidationError, KeyError, TypeError) as exc:
        raise ValueError(f"not a tournament file ({exc})") from None
    for key, value in setting.items():
        if key in ("bots", "options") and key not in summary:  # written before they were kept
            continue
        if summary.get(key) != value:
            raise ValueError(f"it was played with {key} {summary.get(key)!r}, not {value!r}")
    return [r for r in records if r.number < games]


def _unwritable(path: str) -> str | None:
    """Why :func:`_write_json` could not write ``path``, or ``None`` when it can."""
    import os

    if os.path.isdir(path):
        return "it is a directory"
    partial = f"{path}.partial"
    try:
        with open(partial, "ab"):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    if os.path.getsize(partial) == 0:
        os.remove(partial)
    return None


def _write_json(path: str, summary: dict[str, Any], records: list[MatchRecord]) -> None:
    """The summary and every match's record, replacing ``path`` whole (never half written)."""
    import os

    body = msgspec.json.format(msgspec.json.encode({"summary": summary, "matches": records}),
                               indent=2)  # fmt: skip
    partial = f"{path}.partial"
    with open(partial, "wb") as out:
        out.write(body)
    os.replace(partial, path)
