"""Command logic written once, run by a blocking caller and by the event loop alike.

The service's hot commands (load a match, submit a move) are generators that yield what
they need from the outside — a store call (:class:`Call`) or a blocking piece of work such
as queuing jobs (:class:`Offload`) — and get its answer (or its exception) back. :func:`run`
does each step in the calling thread, as workers, the CLI and tests do; :func:`arun` awaits
the store's async twin (:attr:`core.store.base.EventStore.aio`) and hands offloaded work to
a worker thread, so an API process serves those routes on its event loop without a thread
hop and without ever blocking the loop on a backend that is down or stalled. A store
without a twin that works on the loop gets one hop for the whole command instead.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from functools import partial
from typing import Any, NamedTuple, TypeVar

import anyio.to_thread

T = TypeVar("T")


class Call(NamedTuple):
    """``store.<method>(*args)``, or awaited on its async twin."""

    store: Any
    method: str
    args: tuple[Any, ...] = ()


class Offload(NamedTuple):
    """``fn(*args)``, which may block (a queue on another server, a job run inline): called
    as is by :func:`run`, in a worker thread by :func:`arun`."""

    fn: Callable[..., Any]
    args: tuple[Any, ...] = ()


Steps = Generator[Call | Offload, Any, T]


def run(steps: Steps[T]) -> T:
    """Drive ``steps`` to its result, each step in this thread."""
    value: Any = None
    error: Exception | None = None
    while True:
        try:
            step = steps.send(value) if error is None else steps.throw(error)
        except StopIteration as done:
            return done.value
        value, error = None, None
        try:
            if isinstance(step, Call):
                value = getattr(step.store, step.method)(*step.args)
            else:
                value = step.fn(*step.args)
        except Exception as exc:  # handed to the steps, which may catch it
            error = exc


async def arun(steps: Steps[T], store: Any) -> T:
    """Drive ``steps`` to its result on the event loop: store calls on the stores' async
    twins, offloaded work in a worker thread. When ``store``'s twin would only hop to a
    thread for each call (PostgreSQL: psycopg's async connections cost more than the hop),
    the whole of ``steps`` runs in one worker thread instead, one hop in all."""
    if not store.aio.on_loop:
        return await anyio.to_thread.run_sync(run, steps)
    value: Any = None
    error: Exception | None = None
    while True:
        try:
            step = steps.send(value) if error is None else steps.throw(error)
        except StopIteration as done:
            return done.value
        value, error = None, None
        try:
            if isinstance(step, Call):
                value = await getattr(step.store.aio, step.method)(*step.args)
            else:
                value = await anyio.to_thread.run_sync(partial(step.fn, *step.args))
        except Exception as exc:
            error = exc
