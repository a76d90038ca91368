"""Who may do what to a match's seats: claims, invites, bots, re-issued tokens, removals,
resignations. Mixed into :class:`core.service.MatchService`.

Three kinds of caller, told apart by their bearer token:

* the **owner**, with the owner token ``POST /matches`` answered with (shown once, stored
  only hashed in ``core.match_created``). Matches stored before matches had owners have
  none, and nobody can do what only an owner may there;
* a **seat**, with the token its claim answered with;
* **anybody**, with no token.

What each may do:

* claim a free seat: anybody, unless the match is invite-only or the owner invited someone
  to that seat; then only with the seat's invite code. A claim with an invite code also
  takes the seat from a bot playing it meanwhile;
* hand a free seat to a bot: anybody in a public match (whoever could claim the seat could
  claim it and hand it over just as well); in an invite-only match, or for a seat reserved
  by an invite, only the owner. A claimed seat: only its own token;
* take a seat back from its bot (``DELETE …/bot``): its own token (the player plays again),
  or the owner (the seat is its token holder's again, or free);
* invite to a seat, re-issue a seat's lost token, remove an absent player: the owner;
* resign: the seat itself.

Every change is one append of core events (:mod:`core.seating`) and every refusal a problem
with its own code.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from core.bots import checked_choice
from core.errors import Conflict, Forbidden, NotFound, Unauthorized
from core.match import MatchState, SeatBotted, SeatClaimed
from core.seating import (
    BotChoice,
    MatchAbandoned,
    SeatBotReleased,
    SeatInvited,
    SeatRemoved,
    SeatResigned,
    SeatTokenReissued,
)
from core.steps import Call, Steps, arun, run
from core.store.base import replay

if TYPE_CHECKING:
    from core.game import Result


def new_secret() -> str:
    """A fresh bearer secret: seat tokens, owner tokens, invite codes."""
    return secrets.token_urlsafe(32)


@lru_cache(maxsize=4096)
def hash_secret(secret: str) -> str:
    """The digest a secret is stored and compared as. Kept for the secrets seen lately: a
    move checks its token against the owner's and then each seat's, request after request."""
    return hashlib.sha256(secret.encode()).hexdigest()


def matches(secret: str | None, digest: str | None) -> bool:
    """Whether ``secret`` hashes to ``digest``, in constant time (no timing hints)."""
    if not secret or not digest:
        return False
    return hmac.compare_digest(hash_secret(secret), digest)


def _mac(seed: str, text: str) -> str:
    mac = hmac.new(seed.encode(), text.encode(), hashlib.sha256)
    return base64.urlsafe_b64encode(mac.digest()).rstrip(b"=").decode()


def keyed_token(match: MatchState, seat: int, key: str) -> str:
    """The token of a claim made with an Idempotency-Key: the same for every retry, and
    unknowable without the match's secret seed."""
    return _mac(match.seed, f"claim|{match.match_id}|{seat}|{key}")


def keyed_owner_token(seed: str, match_id: str, key: str) -> str:
    """The owner token of a match created with an Idempotency-Key: a retry is given it again
    without it ever being stored, as for :func:`keyed_token` (its own prefix, so no claim's
    token is ever an owner's)."""
    return _mac(seed, f"owner|{match_id}|{key}")


def is_owner(match: MatchState, token: str | None) -> bool:
    return matches(token, match.owner_hash)


def bot_choice(game: Any, bot: str, level: str | None, think_ms: int | None) -> BotChoice:
    """A checked bot for ``game`` (see :func:`core.bots.checked_choice`)."""
    bot, level, think_ms = checked_choice(bot, level, think_ms, game)
    return BotChoice(bot=bot, level=level, think_ms=think_ms)


class SeatCommands:
    """The seat commands of :class:`core.service.MatchService` (see the module)."""

    # Provided by MatchService.
    _append_core: Callable[..., Any]
    _append_core_steps: Callable[..., Steps[Any]]
    _load: Callable[[str], Steps[MatchState]]
    _after_core_change: Callable[..., MatchState]
    store: Any
    load: Callable[[str], MatchState]
    game_of: Callable[[MatchState], Any]
    result: Callable[[MatchState], Result | None]
    seat_for_token: Callable[[MatchState, str | None], int | None]

    def claim_seat(
        self,
        match_id: str,
        seat: int,
        invite: str | None = None,
        idempotency_key: str | None = None,
    ) -> str:
        """Claim a seat; returns its bearer token (shown once, stored only hashed).
        ``invite``: the seat's invite code, needed in an invite-only match or for a seat
        the owner invited someone to.

        With ``idempotency_key`` the token is derived from the key and the match's secret
        seed, so a retry of a claim whose answer was lost gets the same token again instead
        of ``seat_taken``. Whoever repeats the key gets the token (a claim has no token yet to
        tie the key to a caller), so the key must be as unguessable as a token (a random
        UUID: the guides say so; a short key is the client's own risk, not refused, as the
        contract never asked for a length), and a retry must send the same invite code.
        """
        return run(self._claim_steps(match_id, seat, invite, idempotency_key))

    async def aclaim_seat(
        self,
        match_id: str,
        seat: int,
        invite: str | None = None,
        idempotency_key: str | None = None,
    ) -> str:
        """:meth:`claim_seat` on the event loop (:mod:`core.steps`)."""
        return await arun(self._claim_steps(match_id, seat, invite, idempotency_key), self.store)

    def _claim_steps(
        self,
        match_id: str,
        seat: int,
        invite: str | None = None,
        idempotency_key: str | None = None,
    ) -> Steps[str]:
        """:meth:`claim_seat` as steps."""
        # A retry must repeat the invite code too, so the key alone never opens a kept seat.
        digest = f"claim|{seat}" if invite is None else f"claim|{seat}|{hash_secret(invite)}"
        if idempotency_key is not None:
            seen = yield Call(self.store, "lookup", (match_id, idempotency_key))
            if seen is not None:
                replay(seen, digest)  # the same key for another seat is refused
                return keyed_token((yield from self._load(match_id)), seat, idempotency_key)
        token = new_secret()

        def claim(match: MatchState) -> list[Any]:
            nonlocal token
            info = _seat(match, seat)
            self._require_going_on(match)
            if info.resigned:
                raise _resigned(seat)
            if info.invite_hash is not None:
                if invite is None:
                    raise Forbidden(
                        "invite_required",
                        f"seat {seat} is kept for an invited player: send its invite code",
                    )
                if not matches(invite, info.invite_hash):
                    raise Forbidden("bad_invite", f"this is not seat {seat}'s invite code")
            else:
                if info.token_hash or info.bot:
                    raise Conflict("seat_taken", f"seat {seat} is already taken")
                if invite is not None:
                    # Claiming without the code only works where anybody may take a seat.
                    ask = (
                        "ask the owner for one"
                        if match.rules.invite_only
                        else "claim it without a code"
                    )
                    raise Forbidden("bad_invite", f"seat {seat} has no invite: {ask}")
                if match.rules.invite_only:
                    raise Forbidden(
                        "invite_required",
                        "this match is invite-only: ask its owner for a seat's invite code",
                    )
            if idempotency_key is not None:
                token = keyed_token(match, seat, idempotency_key)
            return [SeatClaimed(seat=seat, token_hash=hash_secret(token))]

        change = yield from self._append_core_steps(match_id, claim, idempotency_key, digest)
        if change.result.replayed:  # the same key won a race with this very request
            return keyed_token((yield from self._load(match_id)), seat, idempotency_key or "")
        return token

    def hand_to_bot(
        self,
        match_id: str,
        seat: int,
        bot: str,
        token: str | None,
        level: str | None = None,
        think_ms: int | None = None,
    ) -> MatchState:
        """Give a seat to a bot (who may: see the module).

        ``level`` and ``think_ms`` are for the search bot only (it defaults to
        :data:`core.bots.DEFAULT_LEVEL`); asking them of another bot is refused, not ignored.
        """
        bot_choice(None, bot, level, think_ms)  # refuse a bad body before loading anything

        def hand_over(match: MatchState) -> list[Any]:
            info = _seat(match, seat)
            # A token of no seat (nor the owner's) is refused before the seat's state.
            caller = self.seat_for_token(match, token)
            choice = bot_choice(self.game_of(match), bot, level, think_ms)
            self._require_going_on(match)
            if info.resigned:
                raise _resigned(seat)
            if info.bot:
                raise Conflict("seat_taken", f"seat {seat} is already played by a bot")
            if info.token_hash:
                if caller != seat:
                    raise Forbidden(
                        "not_your_seat", f"seat {seat} is claimed; only its token may hand it "
                        "over (an owner removes an absent player instead)",
                    )  # fmt: skip
            elif (match.rules.invite_only or info.invite_hash) and not is_owner(match, token):
                raise _owner_only(
                    match, token, "hand a free seat of an invite-only match, or a seat kept "
                    "for an invited player, to a bot",
                )  # fmt: skip
            return [SeatBotted(seat=seat, **_fields(choice))]

        return self._after_core_change(match_id, self._append_core(match_id, hand_over))

    def release_bot(self, match_id: str, seat: int, token: str | None) -> MatchState:
        """Take a seat back from its bot: with the seat's token the player plays it again;
        the owner makes it its token holder's again, or free for a person."""

        def release(match: MatchState) -> list[Any]:
            info = _seat(match, seat)
            # Who asks is settled before the seat's state, so a wrong token learns nothing;
            # any token but the seat's own and the owner's hears what the owner routes say.
            own = matches(token, info.token_hash)
            if not own and not is_owner(match, token):
                raise _owner_only(match, token, "take a seat back from its bot (or its own token)")
            self._require_going_on(match)
            if info.resigned:
                raise _resigned(seat)
            if not info.bot:
                raise Conflict("seat_not_bot", f"seat {seat} is not played by a bot")
            return [SeatBotReleased(seat=seat)]

        return self._after_core_change(match_id, self._append_core(match_id, release))

    def invite(self, match_id: str, seat: int, token: str | None) -> tuple[str, MatchState]:
        """The owner keeps a seat (free, or a bot's) for whoever gets the returned invite
        code; a new invite replaces the seat's earlier one."""
        code = new_secret()

        def reserve(match: MatchState) -> list[Any]:
            self._require_owner(match, token, "invite players")
            info = _seat(match, seat)
            self._require_going_on(match)
            if info.resigned:
                raise _resigned(seat)
            if info.token_hash:
                raise Conflict(
                    "seat_taken", f"seat {seat} has a player: re-issue its token, or remove "
                    "the player first",
                )  # fmt: skip
            return [SeatInvited(seat=seat, code_hash=hash_secret(code))]

        return code, self._after_core_change(match_id, self._append_core(match_id, reserve))

    def reissue_token(self, match_id: str, seat: int, token: str | None) -> str:
        """The owner gives a claimed seat a new token (its player lost theirs); the old one
        stops working at once."""
        fresh = new_secret()

        def reissue(match: MatchState) -> list[Any]:
            self._require_owner(match, token, "re-issue seat tokens")
            info = _seat(match, seat)
            self._require_going_on(match)  # a finished match's seats no longer change
            if not info.token_hash:
                raise _not_claimed(seat, "has no token to re-issue")
            return [SeatTokenReissued(seat=seat, token_hash=hash_secret(fresh))]

        self._append_core(match_id, reissue)
        return fresh

    def remove_player(self, match_id: str, seat: int, token: str | None) -> MatchState:
        """The owner removes an absent player: the token stops working and, by the match's
        ``absent`` rule, the stand-in bot takes the seat or the match is abandoned."""

        def remove(match: MatchState) -> list[Any]:
            self._require_owner(match, token, "remove players")
            info = _seat(match, seat)
            self._require_going_on(match)
            if info.resigned:
                raise _resigned(seat)
            if not info.token_hash:
                raise _not_claimed(seat, "has no player to remove")
            events: list[Any] = [SeatRemoved(seat=seat)]
            if match.rules.absent == "abandon":
                events.append(MatchAbandoned(reason="player_removed", seat=seat))
            elif not info.bot:
                events.append(SeatBotted(seat=seat, **_fields(match.rules.stand_in)))
            return events

        return self._after_core_change(match_id, self._append_core(match_id, remove))

    def resign(self, match_id: str, seat: int, token: str | None) -> MatchState:
        """The seat's player resigns: ranked below every seat still in; the stand-in bot
        plays the seat's turns while the match goes on, and the match is over once at most
        one seat has not resigned."""

        def resign(match: MatchState) -> list[Any]:
            info = _seat(match, seat)
            if self.seat_for_token(match, token) != seat or not token:
                if not token:
                    raise Unauthorized("token_required", "send the seat's token to resign it")
                raise Forbidden("not_your_seat", f"only seat {seat}'s own token may resign it")
            self._require_going_on(match)
            if info.resigned:
                raise _resigned(seat)
            return [SeatResigned(seat=seat, reason="resigned")]

        return self._after_core_change(match_id, self._append_core(match_id, resign))

    # --- checks ----------------------------------------------------------------------------

    def _require_owner(self, match: MatchState, token: str | None, what: str) -> None:
        if not is_owner(match, token):
            raise _owner_only(match, token, what)

    def _require_going_on(self, match: MatchState) -> None:
        if match.abandoned or self.result(match) is not None:
            raise Conflict("match_over", "the match is over")


def _seat(match: MatchState, seat: int) -> Any:
    if not 0 <= seat < match.players:
        raise NotFound("seat_not_found", f"this match has seats 0 to {match.players - 1}")
    return match.seats[seat]


def _fields(choice: BotChoice) -> dict[str, Any]:
    return {"bot": choice.bot, "level": choice.level, "think_ms": choice.think_ms}


def _resigned(seat: int) -> Conflict:
    return Conflict("seat_resigned", f"seat {seat} has resigned")


def _not_claimed(seat: int, why: str) -> Conflict:
    return Conflict("seat_not_claimed", f"seat {seat} {why}: nobody claimed it")


def _owner_only(match: MatchState, token: str | None, what: str) -> Exception:
    if match.owner_hash is None:
        return Forbidden(
            "no_owner", f"this match was stored before matches had owners: nobody may {what}"
        )
    if not token:
        return Unauthorized(
            "owner_token_required", f"only the match's owner may {what}: send the owner token "
            "(from POST /matches) as 'Authorization: Bearer …'",
        )  # fmt: skip
    if not any(matches(token, info.token_hash) for info in match.seats):
        # A token of no seat (nor the owner's) hears the code every route of a match gives
        # it: the caller holds the wrong token (a stale owner token, most likely), which
        # ``owner_only`` would not tell; the sentence still says who may.
        return Forbidden(
            "bad_token", f"this token is neither the match's owner token nor a seat's: only "
            f"the match's owner may {what}",
        )  # fmt: skip
    return Forbidden("owner_only", f"only the match's owner may {what}")
