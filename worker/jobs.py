"""Executing one job against the service: a bot's move or a system task.

Jobs are safe to run twice or late: a job whose version is no longer the stream's is
dropped, and its id doubles as the idempotency key of the append.
"""

from __future__ import annotations

import logging
from typing import Literal

from core.errors import IronworksError, VersionConflict
from core.game import SYSTEM
from core.rng import decision_rng
from core.service import MatchService
from core.tasks import Job
from worker.bots import get_bot

log = logging.getLogger(__name__)

Outcome = Literal["done", "stale", "failed"]


def execute(service: MatchService, job: Job) -> Outcome:
    """Run ``job`` once; never raises for a refusal, so every runner handles it alike."""
    try:
        match = service.load(job.match_id)
        if match.version != job.version:
            return "stale"
        if job.kind == "system":
            service.apply(match, SYSTEM, job.move or b"", job.version, job.id)
            return "done"
        seat = job.seat
        if seat is None or not match.seats[seat].bot:
            return "stale"
        legal = service.legal_moves(match, seat)
        if not legal:
            return "stale"
        bot = get_bot(match.seats[seat].bot or "random", service.game_of(match))
        rng = decision_rng(match.seed, match.version, f"bot:{seat}")
        move = bot.choose(service.view(match, seat), legal, rng)
        service.apply(match, seat, move, job.version, job.id)
        return "done"
    except VersionConflict:
        return "stale"
    except IronworksError as exc:
        # A game that lists a move and then refuses it is a plugin bug, and a match can vanish
        # or lose its game's plugin: either way keep the worker up and say what happened.
        log.error("job %s failed: %s %s", job.id, exc.code, exc.message)
        return "failed"
