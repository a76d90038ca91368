"""Loading a game's JSON data files into msgspec Structs with clear errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any, TypeVar

import msgspec

T = TypeVar("T")


class DataError(ValueError):
    """A data file that is missing, malformed or inconsistent; the message names the file."""


def load(path: Path, kind: type[T]) -> T:
    """Decode ``path`` as ``kind`` (unknown fields refused if the Struct says so)."""
    try:
        return msgspec.json.decode(path.read_bytes(), type=kind)
    except FileNotFoundError:
        raise DataError(f"{path.name}: data file is missing") from None
    except msgspec.ValidationError as exc:
        raise DataError(f"{path.name}: {exc}") from None
    except msgspec.DecodeError as exc:
        raise DataError(f"{path.name}: not valid JSON: {exc}") from None


def require(condition: bool, file: str, message: str) -> None:
    """Raise :class:`DataError` for ``file`` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise DataError(f"{file}: {message}")


class CodedDataError(DataError):
    """A :class:`DataError` that also carries the ``file`` and a stable ``code``, for a
    variant whose tests and tools tell its refusals apart by code (Pittsburgh)."""

    def __init__(self, file: str, code: str, message: str) -> None:
        self.file, self.code, self.message = file, code, message
        super().__init__(f"{file}: {message} [{code}]")

    @classmethod
    def check(cls, condition: bool, file: str, code: str, message: str) -> None:
        """Raise this class's error for ``file`` unless ``condition`` holds."""
        if not condition:
            raise cls(file, code, message)


def convert(raw: Any, kind: type[T], file: str) -> T:
    """``raw`` (already decoded JSON) as ``kind``, refused as :func:`load` refuses a file."""
    try:
        return msgspec.convert(raw, kind)
    except msgspec.ValidationError as exc:
        raise DataError(f"{file}: {exc}") from None
