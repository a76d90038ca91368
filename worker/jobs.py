"""Executing one job against the service: a bot's move or a system task.

Jobs are safe to run twice or late: a job whose version is no longer the stream's is
dropped, and its id doubles as the idempotency key of the append.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import Literal

from core.errors import IdempotencyMismatch, IronworksError, VersionConflict
from core.game import SYSTEM
from core.match import MatchState
from core.observe import JOB_OBSERVERS, notify
from core.rng import decision_rng
from core.service import MatchService
from core.steps import Steps, arun, run
from core.tasks import Job
from worker.bots import get_bot
from worker.think import ThinkPool

log = logging.getLogger(__name__)

Outcome = Literal["done", "stale", "failed", "early"]
"""``early``: a timeout job that ran well before its deadline went back to wait for it."""


MAX_DECISIONS_PER_JOB = 200
"""A bot's turn is one job; this bounds it against a game that never passes the turn on."""
BOT_MOVE_OBSERVERS: list[Callable[[str, str, int, float], None]] = []
"""Called after each bot decision with (game id, bot kind, legal moves, seconds thought):
how benchmarks (and metrics) see bot move times on the service's own path."""
TURN_SECONDS = 60.0
"""A turn still unfinished after this long goes on in a new job (enqueued as usual), so one
job, with the longest think of its last decision, stays well inside the queue's timeout."""


def execute(service: MatchService, job: Job, pool: ThinkPool | None = None) -> Outcome:
    """Run ``job`` once; never raises for a refusal, so every runner handles it alike.

    A bot job plays the seat's whole turn: every decision in a row that is that seat's,
    each appended on its own (with the id of the job that version would have had as its
    idempotency key), and enqueues the follow-up work only once the turn is over. A worker
    killed in the middle loses nothing: the moves appended so far stand, and the reconciler
    finds the match waiting and enqueues the rest.
    """
    notify(JOB_OBSERVERS, job.kind, "started")
    try:
        if job.kind == "hooks":
            from worker.deliveries import run_hooks

            outcome: Outcome = run_hooks(service, job)  # type: ignore[assignment]
        else:
            outcome = run(_job_steps(service, job, pool))
    except Exception:  # a plugin bug: the runner logs it
        notify(JOB_OBSERVERS, job.kind, "failed")
        raise
    notify(JOB_OBSERVERS, job.kind, outcome)
    return outcome


async def aexecute(service: MatchService, job: Job) -> Outcome:
    """:func:`execute` on the event loop (:mod:`core.steps`), for a system job: a step of
    the game's own, which never waits for a bot's thinking or a webhook's receiver."""
    assert job.kind == "system", "only system jobs are quick enough for the event loop"
    notify(JOB_OBSERVERS, job.kind, "started")
    try:
        outcome = await arun(_job_steps(service, job, None), service.store)
    except Exception:
        notify(JOB_OBSERVERS, job.kind, "failed")
        raise
    notify(JOB_OBSERVERS, job.kind, outcome)
    return outcome


def _job_steps(service: MatchService, job: Job, pool: ThinkPool | None) -> Steps[Outcome]:
    """A job's work as steps; only a system job's store calls are steps of their own (bots
    and timeouts call the blocking service, so only :func:`execute` runs those)."""
    try:
        if job.kind == "system":
            match = yield from service.load_for_write_steps(job.match_id, job.version)
            if match.version != job.version:
                return "stale"
            yield from service.apply_steps(match, SYSTEM, job.move or b"", job.version, job.id)
            return "done"
        match = service.load_for_write(job.match_id, job.version)
        if match.version != job.version:
            return "stale"
        if job.kind == "timeout":
            return service.time_out(match, job)  # type: ignore[return-value]
        return _play_turn(service, match, job, pool)
    except (VersionConflict, IdempotencyMismatch):
        # Another copy of this job (another process's, or one that a reconciler queued
        # again) made this move first; a search bot's copy may have chosen another one.
        return "stale"
    except IronworksError as exc:
        # A game that lists a move and then refuses it is a plugin bug, and a match can vanish
        # or lose its game's plugin: either way keep the worker up and say what happened.
        log.error("job %s failed: %s %s", job.id, exc.code, exc.message)
        return "failed"


def _play_turn(
    service: MatchService, match: MatchState, job: Job, pool: ThinkPool | None
) -> Outcome:
    seat = job.seat
    if seat is None or not _bot_to_move(service, match, seat):
        return "stale"
    info = match.bot_for(seat)
    assert info is not None
    bot = get_bot(info.bot, service.game_of(match), info.level, info.think_ms, pool)
    moved = 0
    started = time.monotonic()
    try:
        while (
            moved < MAX_DECISIONS_PER_JOB
            and time.monotonic() - started < TURN_SECONDS
            and _bot_to_move(service, match, seat)
        ):
            legal = service.legal_moves(match, seat)
            if not legal:
                break
            rng = decision_rng(match.seed, match.version, f"bot:{seat}")
            thinking = time.perf_counter()
            move = bot.choose(service.view_for_bot(match, seat), legal, rng)
            for observe in BOT_MOVE_OBSERVERS:
                observe(match.game_id, info.bot, len(legal),
                        time.perf_counter() - thinking)  # fmt: skip
            turn_job = Job(match_id=match.match_id, version=match.version, kind="bot", seat=seat)
            done = service.apply(match, seat, move, match.version, turn_job.id, enqueue=False)
            moved += 1
            match = service.load_for_write(match.match_id, done.version)
    finally:
        if moved:
            service.resume(match.match_id)
    return "done" if moved else "stale"


def _bot_to_move(service: MatchService, match: MatchState, seat: int) -> bool:
    """Whether the match waits on ``seat`` and a bot plays it (its own or the stand-in)."""
    if match.bot_for(seat) is None:
        return False
    return any(t.kind == "turn" and t.seat == seat for t in service.tasks(match))
