"""Loading a game's JSON data files into msgspec Structs with clear errors."""

from __future__ import annotations

from pathlib import Path
from typing import TypeVar

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
