"""Turning a backend's outage into a prompt :class:`core.errors.ServiceUnavailable`.

Each backend call runs inside its :class:`Breaker`. A failure the backend is to blame for
(refused connection, timeout, a locked database) becomes a 503. After one, calls fail at
once for ``cooldown`` seconds instead of each waiting out its own timeout, so a stalled
backend cannot hold every request thread; then one call goes through as a probe, and the
first answer closes the breaker again.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable
from types import TracebackType

from core.errors import ServiceUnavailable

log = logging.getLogger(__name__)


class Breaker:
    def __init__(
        self,
        code: str,
        what: str,
        is_outage: Callable[[BaseException], bool],
        cooldown: float = 1.0,
    ) -> None:
        """``what`` names the backend in messages ("the event store"); ``is_outage`` tells
        its failures from the other errors its calls raise; ``cooldown=0`` never opens."""
        self.code = code
        self.what = what
        self.is_outage = is_outage
        self.cooldown = cooldown
        self._lock = threading.Lock()
        self._open_until = 0.0
        """When the breaker is open: the moment a probe may go through; 0.0 when closed."""
        self._probing = False

    @property
    def retry_after(self) -> int:
        return max(1, math.ceil(self.cooldown))

    def __enter__(self) -> None:
        if not self._open_until:  # closed: the common case takes no lock
            return
        with self._lock:
            if not self._open_until:
                return
            if self._probing or time.monotonic() < self._open_until:
                raise ServiceUnavailable(
                    self.code, f"{self.what} is unavailable; try again shortly", self.retry_after
                )
            self._probing = True

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if exc is not None and not isinstance(exc, Exception):
            # Cancelled (a client gone, a task group ending): no answer either way, so a
            # probe cut short leaves the breaker open for the next one.
            if self._probing:
                with self._lock:
                    self._probing = False
            return
        if exc is None or not self.is_outage(exc):
            # Any answer, a refusal included, shows the backend is there.
            if self._open_until:
                with self._lock:
                    self._open_until, self._probing = 0.0, False
                log.warning("%s answers again", self.what)
            return
        with self._lock:
            opened = not self._open_until
            if self.cooldown > 0:
                self._open_until = time.monotonic() + self.cooldown
            self._probing = False
        if opened:
            log.warning("%s is unavailable: %s: %s", self.what, type(exc).__name__, exc)
        raise ServiceUnavailable(
            self.code, f"{self.what} did not answer; try again shortly", self.retry_after
        ) from None
