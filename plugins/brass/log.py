"""The readable event log every Brass game serves: the skeleton of ``redact``.

A game's ``redact`` answers its own secret-carrying events first (its ``Started``, with
:func:`plugins.brass.hidden.dealt`), then calls :func:`redact_log`, which handles the shared
events and hands every other event to the game's ``rename`` hook as a plain dict.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import msgspec

from plugins.brass import events as ev
from plugins.brass.hidden import redact_core


def redact_log(
    e: Any,
    seat: int | None,
    card: Callable[[int], str],
    describe: Callable[[ev.Step], msgspec.Struct],
    rename: Callable[[Any, dict[str, Any]], dict[str, Any]],
    first_era: int = 0,
) -> dict[str, Any]:
    """Event ``e`` as ``seat`` may read it: hidden cards only as counts, the pending
    decision described (``describe``), face-up discards by card name, eras counted from
    ``first_era`` (the number clients see for the first era). Any other event becomes its
    fields without the tag (the log's envelope carries it), passed through ``rename``
    (the game's ids as client names)."""
    shared = redact_core(e, seat, card)
    if shared is not None:
        if "era" in shared:
            shared["era"] += first_era
        return shared
    t = type(e)
    if t is ev.Awaiting:
        return {
            "deciding": e.seat if e.seat >= 0 else None,
            "decision": msgspec.to_builtins(describe(e.steps[0])),
        }
    out = msgspec.to_builtins(e)
    del out["type"]
    if t is ev.EraScored:
        out["era"] += first_era
    elif t is ev.Discarded:
        out["cards"] = [card(c) for c in e.cards]  # discards are face up
    else:
        out = rename(e, out)
    return out
