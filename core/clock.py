"""Time controls: how long a person may take over a turn, and what happens when time runs out.

A match's clock is folded from its events like everything else (:func:`tick`), so every
process computes the same deadline from the same stream, a restart loses nothing, and the
deadline of a turn is a fixed moment (seconds since the epoch) shown in the view. Nothing
here reads the clock: the workers compare deadlines with the time when they run the match's
``timeout`` job (:meth:`core.service.MatchService.time_out`), which appends
``core.turn_timed_out`` at the version the deadline was computed for, so a timeout happens
once however many workers race for it.

What counts as a turn: a seat's turn is every stretch of events during which the match
waits on that seat without a break (Brass's two actions are one turn). A clock only runs for
a seat a person plays (claimed, not a bot, not resigned) and only once every seat is taken:
a match still waiting for players, and a bot, are never timed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any, Literal

import msgspec

from core.errors import BadRequest

if TYPE_CHECKING:
    from core.match import MatchState

MAX_SECONDS = 30 * 24 * 3600
"""The longest allowance a time control may give (30 days)."""

Seconds = Annotated[int, msgspec.Meta(ge=1, le=MAX_SECONDS)]
TimeoutAction = Literal["bot", "resign"]


class TimeControl(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A match's clock: either ``turn_seconds`` (each turn has that long) or a chess-style
    ``bank_seconds`` per seat that each turn draws on, topped up by ``increment_seconds``
    after each turn."""

    turn_seconds: Seconds | None = None
    """Seconds each turn may take; every turn starts afresh."""
    bank_seconds: Seconds | None = None
    """Seconds a seat has for all its turns together (a chess clock)."""
    increment_seconds: Annotated[int, msgspec.Meta(ge=0, le=MAX_SECONDS)] = 0
    """With ``bank_seconds``: added to the seat's bank after each of its turns."""
    on_timeout: TimeoutAction = "bot"
    """``bot``: the match's stand-in bot plays the late turn, then the seat is the person's
    again; ``resign``: the seat resigns (see ``POST /matches/{id}/seats/{seat}/resign``)."""


def check(control: TimeControl) -> None:
    """Refuse a time control that is neither kind or both (``bad_time_control``)."""
    if (control.turn_seconds is None) == (control.bank_seconds is None):
        raise BadRequest(
            "bad_time_control",
            "clock: give either turn_seconds (seconds per turn) or bank_seconds (a chess "
            "clock), not both or neither",
        )
    if control.turn_seconds is not None and control.increment_seconds:
        raise BadRequest(
            "bad_time_control",
            "clock: increment_seconds tops up a bank; it needs bank_seconds, not turn_seconds",
        )


def start(match: MatchState) -> None:
    """Fill every seat's bank at the start of a match."""
    control = match.rules.clock
    if control is not None and control.bank_seconds is not None:
        for seat in match.seats:
            seat.bank = float(control.bank_seconds)


def tick(match: MatchState, game: Any, at: float) -> None:
    """Bring the clocks up to the match as it stands after the events stored at ``at``.

    Called once per append (events stored together share their timestamp), so the
    in-between states of one append never start or stop a clock. Running it twice at the
    same moment changes nothing.
    """
    control = match.rules.clock
    if control is None or match.game_state is None:
        return
    to_act = _waiting_on(match, game)
    timed = _timed(match)
    for number, seat in enumerate(match.seats):
        if number not in to_act:
            seat.stand_in_turn = False  # the late turn a bot played is over
        runs = timed and number in to_act and seat.person_plays
        if runs and seat.waiting_since is None:
            seat.waiting_since = at
        elif not runs and seat.waiting_since is not None:
            if seat.bank is not None:
                left = max(0.0, seat.bank - (at - seat.waiting_since))
                seat.bank = left + control.increment_seconds
            seat.waiting_since = None


def deadline(match: MatchState, seat: int) -> float | None:
    """When the seat's running turn times out (seconds since the epoch); ``None`` when its
    clock is not running."""
    control = match.rules.clock
    info = match.seats[seat]
    if control is None or info.waiting_since is None:
        return None
    allowance = control.turn_seconds if control.turn_seconds is not None else info.bank
    return info.waiting_since + (allowance or 0.0)


def _timed(match: MatchState) -> bool:
    """Clocks run once every seat is taken and until the match ends."""
    return not match.ended_early and all(s.token_hash or s.bot for s in match.seats)


def _waiting_on(match: MatchState, game: Any) -> set[int]:
    if match.ended_early:
        return set()
    return {
        t.seat
        for t in game.pending_tasks(match.game_state)
        if t.kind == "turn" and t.seat is not None
    }
