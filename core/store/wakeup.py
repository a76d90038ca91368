"""Waking event streams when another process appends: the part every notifying store
shares.

A store whose server announces appends (Redis pub/sub, PostgreSQL ``LISTEN``/``NOTIFY``)
runs one listener per process; threads waiting on a stream register here, the listener
bumps the stream's generation on each announcement and wakes them. Waiters also re-read the
version every :data:`SAFETY_POLL_SECONDS`, so a lost announcement (while the listener
reconnects, say) only delays them.
"""

from __future__ import annotations

import os
import threading
import time
from typing import Any

SAFETY_POLL_SECONDS = 1.0
"""``wait`` re-reads the version this often in case an announcement was lost."""


class Waiters:
    """Threads waiting for streams to grow, woken by a listener a subclass starts.

    Subclasses implement :meth:`_start_listening` (called once per process, under the lock,
    before the first wait: threads do not survive a fork) and call :meth:`_wake` or
    :meth:`_wake_all` from their listener thread.
    """

    def __init__(self, store: Any) -> None:
        self.store = store
        self._cond = threading.Condition()
        self._watched: dict[str, list[int]] = {}  # stream -> [waiters, generation]
        self._pid: int | None = None
        self._closed = False

    def wait(self, stream_id: str, after_version: int, timeout: float) -> bool:
        self._ensure_listening()
        deadline = time.monotonic() + timeout
        with self._cond:
            entry = self._watched.setdefault(stream_id, [0, 0])
            entry[0] += 1
        try:
            while True:
                with self._cond:
                    generation = entry[1]
                # Listening before this read, so an append after it is always announced.
                if self.store.version(stream_id) > after_version:
                    return True
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                with self._cond:
                    self._cond.wait_for(
                        lambda seen=generation: entry[1] != seen,
                        min(remaining, SAFETY_POLL_SECONDS),
                    )
        finally:
            with self._cond:
                entry[0] -= 1
                if entry[0] == 0:
                    self._watched.pop(stream_id, None)

    def _ensure_listening(self) -> None:
        with self._cond:
            if self._pid == os.getpid() or self._closed:
                return
            self._start_listening()
            self._pid = os.getpid()

    def _start_listening(self) -> None:
        raise NotImplementedError

    def _wake(self, stream_id: str) -> None:
        with self._cond:
            entry = self._watched.get(stream_id)
            if entry is not None:
                entry[1] += 1
                self._cond.notify_all()

    def _wake_all(self) -> None:
        with self._cond:
            for entry in self._watched.values():
                entry[1] += 1
            self._cond.notify_all()
