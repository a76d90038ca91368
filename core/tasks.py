"""Jobs the service hands to workers, and the runner interface that carries them."""

from __future__ import annotations

from typing import Literal, Protocol

import msgspec


class Job(msgspec.Struct, frozen=True, kw_only=True):
    """One piece of work for a match, valid only at the stream version it was computed for.

    A worker that finds the stream at another version drops the job, so a retried or
    duplicated job can never make a second move.
    """

    match_id: str
    version: int
    kind: Literal["bot", "system", "timeout", "hooks"]
    seat: int | None = None
    move: bytes | None = None
    """For ``system`` jobs: the JSON-encoded move to decide with the SYSTEM actor.

    ``hooks`` jobs look for webhook news and send it (:mod:`worker.deliveries`); they are
    never stale, whatever the version."""
    due: float | None = None
    """For ``timeout`` jobs: the seat's deadline (seconds since the epoch). A runner holds
    such a job until then (:mod:`core.clock`)."""

    @property
    def id(self) -> str:
        """Stable id: the same work at the same version always has the same id, which the
        queues use to refuse duplicates and the store uses as the idempotency key."""
        who = "sys" if self.seat is None else f"seat{self.seat}"
        return f"{self.match_id}.{self.version}.{self.kind}.{who}"


class TaskRunner(Protocol):
    """Carries jobs to whatever executes them (a thread here, RQ workers elsewhere). A job
    with a ``due`` time runs no earlier than that; enqueuing the same job (same id) again
    before it ran schedules it once.

    A runner whose ``enqueue`` never blocks (it only hands the job to a thread of this
    process) says so with ``enqueue_blocks = False``: the event loop then calls it in place
    rather than in a worker thread (see :func:`enqueue_blocks`)."""

    def enqueue(self, job: Job) -> None: ...

    def close(self) -> None: ...


def enqueue_blocks(runner: TaskRunner) -> bool:
    """Whether ``runner.enqueue`` may block (a queue on another server, a job run inline);
    a runner that does not say is taken to."""
    return getattr(runner, "enqueue_blocks", True)


class NullRunner:
    """Keeps jobs in a list and runs nothing: for tests that drive jobs by hand."""

    enqueue_blocks = False

    def __init__(self) -> None:
        self.jobs: list[Job] = []

    def enqueue(self, job: Job) -> None:
        self.jobs.append(job)

    def close(self) -> None:
        pass
