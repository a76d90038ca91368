"""Hooks through which metrics and logs see what the service does, so that core depends on
neither: the API registers observers (``api.metrics``, ``api.logging_setup``), tests and
benchmarks may too. An observer that raises is logged and otherwise ignored: watching must
never change what a request gets."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, Literal

import msgspec

log = logging.getLogger(__name__)


class MoveSeen(msgspec.Struct, frozen=True, kw_only=True):
    """One move decided (or refused) by :meth:`core.service.MatchService.apply`."""

    match_id: str
    game: str
    actor: int
    """The seat, or :data:`core.game.SYSTEM` for system steps."""
    move_type: str | None
    """The move's tag; ``None`` when the body was not a move of the game at all."""
    outcome: Literal["accepted", "replayed", "refused"]
    code: str
    """``accepted``, ``replayed`` or the refusal's problem code."""


JobEvent = Literal["queued", "started", "done", "stale", "failed"]

MOVE_OBSERVERS: list[Callable[[MoveSeen], None]] = []
APPEND_OBSERVERS: list[Callable[[str, float], None]] = []
"""Called with (store kind, seconds) after each append that the store answered, whatever it
answered (a conflict is an answer too); not for appends that failed with an outage."""
JOB_OBSERVERS: list[Callable[[str, JobEvent], None]] = []
"""Called with (job kind, what happened): ``queued`` when a runner took the job, then
``started`` and one of ``done``, ``stale`` or ``failed`` where it runs."""


def notify(observers: list[Callable[..., None]], *args: Any) -> None:
    for observe in observers:
        try:
            observe(*args)
        except Exception:  # an observer's bug must not fail the request it watches
            log.exception("observer %r failed", observe)
