"""Per-decision randomness derived from the match's secret seed.

The seed never leaves the server; each decision's generator depends only on the seed and
the stream version it is made at, so a retried command draws the same numbers and a
replay never needs to draw at all (outcomes are in the events).
"""

from __future__ import annotations

import hashlib
import secrets
from random import Random
from typing import Any


def new_seed() -> str:
    return secrets.token_hex(16)


def decision_rng(seed: str, version: int, purpose: str = "decide") -> Random:
    """The decision's generator, seeded when it first draws: seeding costs more than most
    decisions do, and most draw nothing (a player's move is decided from the state)."""
    return _Unseeded(f"{seed}\x1f{version}\x1f{purpose}")


def _seed_of(label: str) -> int:
    return int.from_bytes(hashlib.sha256(label.encode()).digest()[:16], "big")


class _Unseeded(Random):
    """A :class:`Random` that seeds itself from its label on its first use, then becomes a
    plain one: what it draws is what ``Random(_seed_of(label))`` would. Every draw of
    :class:`Random` goes through ``random`` or ``getrandbits``, and its state through
    ``getstate`` (and copies); ``seed`` and ``setstate`` replace the state the label would give."""

    def __init__(self, label: str) -> None:  # no super().__init__: that would seed
        self.gauss_next = None
        self._label = label

    def _now(self) -> None:
        if type(self) is _Unseeded:
            self.__class__ = Random
            Random.seed(self, _seed_of(self.__dict__.pop("_label")))

    def random(self) -> float:
        _Unseeded._now(self)
        return Random.random(self)

    def getrandbits(self, k: int) -> int:
        _Unseeded._now(self)
        return Random.getrandbits(self, k)

    def getstate(self) -> Any:
        _Unseeded._now(self)
        return Random.getstate(self)

    def __reduce__(self) -> Any:  # a copy or a pickle is of the seeded generator
        _Unseeded._now(self)
        return Random.__reduce__(self)

    def seed(self, *args: Any, **kwargs: Any) -> None:
        self.__class__ = Random
        self.__dict__.pop("_label", None)
        Random.seed(self, *args, **kwargs)

    def setstate(self, state: Any) -> None:
        self.__class__ = Random
        self.__dict__.pop("_label", None)
        Random.setstate(self, state)
