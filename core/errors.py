"""Errors shared by the store, the service and the API.

Every error carries a stable machine-readable ``code`` and a human sentence; the API turns
them into RFC 9457 problem documents with the HTTP status given here.
"""

from __future__ import annotations


class IronworksError(Exception):
    """Base class: ``code`` is stable across releases, ``message`` is for people."""

    status: int = 400
    code: str = "error"

    def __init__(self, code: str | None = None, message: str = "", **extra: object) -> None:
        self.code = code or type(self).code
        self.message = message or self.code
        self.extra = extra
        super().__init__(self.message)


class IllegalMove(IronworksError):
    """A move the rules refuse. ``code`` names the broken rule, ``message`` explains it."""

    status = 422
    code = "illegal_move"


class BadRequest(IronworksError):
    status = 400
    code = "bad_request"


class InvalidPosition(IronworksError):
    """A position document that cannot be a real game state."""

    status = 422
    code = "invalid_position"


class NotFound(IronworksError):
    status = 404
    code = "not_found"


class Unauthorized(IronworksError):
    status = 401
    code = "unauthorized"


class Forbidden(IronworksError):
    status = 403
    code = "forbidden"


class Conflict(IronworksError):
    status = 409
    code = "conflict"


class VersionConflict(Conflict):
    """The stream moved on: ``current_version`` is where it is now."""

    code = "version_conflict"

    def __init__(self, stream_id: str, expected: int, current: int) -> None:
        super().__init__(
            "version_conflict",
            f"stream {stream_id} is at version {current}, not {expected}",
            stream_id=stream_id,
            expected_version=expected,
            current_version=current,
        )
        self.stream_id = stream_id
        self.expected = expected
        self.current_version = current


class IdempotencyMismatch(IronworksError):
    """An idempotency key reused for a different request."""

    status = 422
    code = "idempotency_key_reused"


class ServiceUnavailable(IronworksError):
    """A backend the request needs (the event store, the job queue) is down or did not
    answer in time. Try again after ``retry_after`` seconds. A write that timed out may have
    been stored all the same, which a retry with the same ``Idempotency-Key`` finds out."""

    status = 503
    code = "unavailable"

    def __init__(self, code: str | None = None, message: str = "", retry_after: int = 1) -> None:
        super().__init__(code, message)
        self.retry_after = max(1, retry_after)
