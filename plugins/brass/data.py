"""Loading a game's JSON data files into msgspec Structs with clear errors."""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable
from pathlib import Path
from typing import Any, NoReturn, Protocol, TypeVar

import msgspec

T = TypeVar("T")


class Identified(Protocol):
    @property
    def id(self) -> str: ...


IdT = TypeVar("IdT", bound=Identified)


class DataError(ValueError):
    """A data file that is missing, malformed or inconsistent; the message names the file."""


CodedCheck = Callable[[bool, str, str, str], None]
"""``check(condition, file, code, message)`` refuses ``file`` unless ``condition`` holds; a
variant whose refusals carry a code (Pittsburgh's ``DataError.check``) passes its own to
the family's readers and checks, which name a code for each refusal."""


def require(condition: bool, file: str, message: str) -> None:
    """Raise :class:`DataError` for ``file`` with ``message`` unless ``condition`` holds."""
    if not condition:
        raise DataError(f"{file}: {message}")


def uncoded(condition: bool, file: str, code: str, message: str) -> None:
    """The family's own check: a plain :class:`DataError`, the code left out."""
    require(condition, file, message)


def refuse(file: str, code: str, message: str, check: CodedCheck = uncoded) -> NoReturn:
    """Refuse ``file`` through ``check`` (a plain :class:`DataError` if it lets it pass)."""
    check(False, file, code, message)
    raise DataError(f"{file}: {message}")


def load(path: Path, kind: type[T], check: CodedCheck = uncoded) -> T:
    """Decode ``path`` as ``kind`` (unknown fields refused if the Struct says so); a
    missing or malformed file is refused with the code ``unreadable``."""
    try:
        return msgspec.json.decode(path.read_bytes(), type=kind)
    except FileNotFoundError:
        problem = "data file is missing"
    except msgspec.ValidationError as exc:
        problem = str(exc)
    except msgspec.DecodeError as exc:
        problem = f"not valid JSON: {exc}"
    refuse(path.name, "unreadable", problem, check)


def convert(raw: Any, kind: type[T], file: str, check: CodedCheck = uncoded) -> T:
    """``raw`` (already decoded JSON) as ``kind``, refused as :func:`load` refuses a file."""
    try:
        return msgspec.convert(raw, kind)
    except msgspec.ValidationError as exc:
        refuse(file, "unreadable", str(exc), check)


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


def by_id(
    file: str, items: Iterable[IdT], what: str, check: CodedCheck = uncoded
) -> dict[str, IdT]:
    """``items`` by their ``id``, in order, refusing an id given twice (``duplicate_id``)."""
    out: dict[str, IdT] = {}
    for item in items:
        check(item.id not in out, file, "duplicate_id", f"{what}: id {item.id!r} appears twice")
        out[item.id] = item
    return out


Reference = tuple[str, str, str, Container[str]]
"""``(file, who refers, the id it names, the ids it may name)``."""


def check_references(refs: Iterable[Reference], check: CodedCheck = uncoded) -> None:
    """Every reference between a data set's files resolves (``unknown_reference``): a
    variant lists them once, rather than a check per kind of reference."""
    for file, where, name, known in refs:
        check(name in known, file, "unknown_reference", f"{where} names unknown {name!r}")
