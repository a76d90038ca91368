"""Per-decision randomness derived from the match's secret seed.

The seed never leaves the server; each decision's generator depends only on the seed and
the stream version it is made at, so a retried command draws the same numbers and a
replay never needs to draw at all (outcomes are in the events).
"""

from __future__ import annotations

import hashlib
import secrets
from random import Random


def new_seed() -> str:
    return secrets.token_hex(16)


def decision_rng(seed: str, version: int, purpose: str = "decide") -> Random:
    digest = hashlib.sha256(f"{seed}\x1f{version}\x1f{purpose}".encode()).digest()
    return Random(int.from_bytes(digest[:16], "big"))
