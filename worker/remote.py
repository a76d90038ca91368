"""A bot that plays one seat of a match on a remote ironworks, through the REST API alone.

It holds exactly what a person's client holds: the seat's token, the seat's view, the seat's
legal moves and the match's log as that seat may read it. The game's plugin is installed on
the bot's side too: its ``determinize`` hook turns the view into full states for the search
bot, as it does inside the service. So an AI opponent can run as a service of its own, on
another machine, with no access to the match's state or store:

    ironworks play http://host:8000 MATCH_ID --bot search:hard   # token in $IRONWORKS_SEAT_TOKEN

Every move is sent with the version it was chosen at and an ``Idempotency-Key``; a request
that failed without an answer (a dropped connection, a 503) is sent again, the same move with
the same key, so a move is never made twice and never lost. A 409 (the match moved on: a
clock ran out, the owner took the seat back) is not an error: the bot reads the match again.
"""

from __future__ import annotations

import math
import os
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from collections.abc import Callable
from random import Random
from typing import Any

import msgspec

from api.bodies import LegalMoves, MatchView, MoveAccepted
from core.errors import NotFound
from core.registry import default_registry
from worker.bots import get_bot
from worker.tournament import Entrant, parse_entrants

TOKEN_ENV = "IRONWORKS_SEAT_TOKEN"
"""Where ``ironworks play`` reads the seat token by default (a token on the command line
shows in the process list)."""

RETRIES = 5
"""Attempts per request that fails without an answer, waiting longer each time."""


class RemoteError(Exception):
    """The server refused a request (a problem document), or could not be reached at all."""

    def __init__(self, status: int | None, code: str, detail: str) -> None:
        super().__init__(f"{status} {code}: {detail}" if status else f"{code}: {detail}")
        self.status = status
        self.code = code


class Problem(msgspec.Struct):
    code: str = "unknown"
    detail: str = ""


class Api:
    """The calls the bot makes, each retried while the server cannot answer."""

    def __init__(
        self, base: str, match_id: str, token: str, timeout: float = 30.0,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:  # fmt: skip
        self.base = base.rstrip("/")
        self.match = urllib.parse.quote(match_id, safe="")
        self.token = token
        self.timeout = timeout
        self.sleep = sleep

    def seat_view(self) -> MatchView:
        return msgspec.json.decode(self._call("GET", ""), type=MatchView)

    def listing(self) -> LegalMoves:
        return msgspec.json.decode(self._call("GET", "/moves"), type=LegalMoves)

    def wait_after(self, version: int, seconds: int) -> None:
        """Return once an event follows ``version`` or ``seconds`` passed (a long poll)."""
        query = urllib.parse.urlencode({"after": version, "limit": 1, "wait": seconds})
        self._call("GET", f"/events?{query}", timeout=self.timeout + seconds)

    def submit(self, move: Any, version: int, key: str) -> MoveAccepted:
        body = msgspec.json.encode({"move": move, "expected_version": version})
        return msgspec.json.decode(self._call("POST", "/moves", body, key), type=MoveAccepted)

    def _call(
        self, method: str, path: str, body: bytes | None = None, key: str | None = None,
        timeout: float | None = None,
    ) -> bytes:  # fmt: skip
        headers = {"authorization": f"Bearer {self.token}", "accept": "application/json"}
        if body is not None:
            headers["content-type"] = "application/json"
        if key is not None:
            headers["idempotency-key"] = key
        url = f"{self.base}/matches/{self.match}{path}"
        for attempt in range(RETRIES):
            request = urllib.request.Request(url, data=body, headers=headers, method=method)
            try:
                with urllib.request.urlopen(request, timeout=timeout or self.timeout) as answer:
                    return answer.read()
            except urllib.error.HTTPError as exc:
                problem = _problem(exc.read())
                if exc.code != 503 or attempt == RETRIES - 1:
                    raise RemoteError(exc.code, problem.code, problem.detail) from None
                retry_after = exc.headers.get("retry-after", "")
                self.sleep(float(retry_after) if retry_after.isdigit() else 2.0**attempt)
            except (urllib.error.URLError, TimeoutError, ConnectionError) as exc:
                if attempt == RETRIES - 1:
                    raise RemoteError(None, "unreachable", str(exc)) from None
                self.sleep(2.0**attempt)
        raise AssertionError("unreachable: the last attempt raises")


def _problem(data: bytes) -> Problem:
    try:
        return msgspec.json.decode(data, type=Problem)
    except msgspec.DecodeError:
        return Problem(detail=data[:200].decode(errors="replace"))


class Played(msgspec.Struct):
    """What ``play_seat`` did: its decisions, and the match as it last saw it."""

    seat: int
    decisions: int
    finished: bool
    version: int
    result: dict[str, Any] | None


def play_seat(
    api: Api, registry: Any, entrant: Entrant, *, max_decisions: int | None = None,
    wait_seconds: int = 30, report: Callable[[str], None] = lambda line: None,
    patience: float | None = None, clock: Callable[[], float] = time.monotonic,
) -> Played:  # fmt: skip
    """Play the token's seat until the match is over (or ``max_decisions`` were made).

    ``patience``: seconds the match may stay at one version while the bot waits for the
    other seats before it gives up with a ``stalled`` error (each long poll lasts at most the
    patience left, so it gives up on time, not up to ``wait_seconds`` late); by default it
    waits for as long as they think (a person may take their time)."""
    seen = api.seat_view()
    if seen.you is None:
        raise RemoteError(403, "not_a_seat", "the token is not a seat's token for this match")
    game = registry.get(seen.game)
    bot = get_bot(entrant.kind, game, entrant.level, entrant.think_ms)
    decisions = 0
    moved_at, moved_version = clock(), seen.version

    def wait() -> None:
        nonlocal moved_at, moved_version
        if seen.version != moved_version:
            moved_at, moved_version = clock(), seen.version
        seconds = wait_seconds
        if patience is not None:
            left = patience - (clock() - moved_at)
            if left <= 0:
                raise RemoteError(
                    None, "stalled", f"the match stayed at version {seen.version} for "
                    f"{clock() - moved_at:.0f} s while seat {seen.you} waited for {seen.to_act}",
                )  # fmt: skip
            seconds = max(1, min(wait_seconds, math.ceil(left)))
        api.wait_after(seen.version, seconds)

    while not seen.finished and (max_decisions is None or decisions < max_decisions):
        if seen.you not in seen.to_act:
            wait()
            seen = api.seat_view()
            continue
        listing = api.listing()
        if listing.version != seen.version or not listing.moves:
            # The match moved between the two reads, or the seat is a server-side bot's now.
            if not listing.moves:
                wait()
            seen = api.seat_view()
            continue
        legal = [msgspec.convert(listed, game.Move) for listed in listing.moves]
        rng = Random(f"{seen.version}/{seen.you}")
        move = bot.choose(seen.view, legal, rng)
        try:
            accepted = api.submit(move, seen.version, uuid.uuid4().hex)
        except RemoteError as exc:
            if exc.status != 409:
                raise
            report(f"seat {seen.you}: the match moved on before the move ({exc.code})")
        else:
            decisions += 1
            report(f"seat {seen.you}: {type(move).__name__} at version {seen.version} "
                   f"-> {accepted.version}")  # fmt: skip
        seen = api.seat_view()
    return Played(
        seat=seen.you, decisions=decisions, finished=seen.finished, version=seen.version,
        result=msgspec.to_builtins(seen.result),
    )  # fmt: skip


def main(args: Any) -> int:
    """``ironworks play``: the exit status is 0 once the match is over (or the decisions
    asked for were made), 2 when the server refuses the bot or cannot be reached, or the
    match stayed at one version longer than ``--patience`` seconds (``stalled``)."""
    token = args.token or os.environ.get(TOKEN_ENV)
    if not token:
        print(f"ironworks play: give the seat token with --token or ${TOKEN_ENV}", file=sys.stderr)
        return 2
    try:
        [entrant] = parse_entrants(args.bot)
    except ValueError as exc:
        print(f"ironworks play: {exc}", file=sys.stderr)
        return 2
    if urllib.parse.urlsplit(args.url).scheme not in ("http", "https"):
        print(f"ironworks play: the server's URL must start with http:// or https://, not "
              f"{args.url!r}", file=sys.stderr)  # fmt: skip
        return 2
    api = Api(args.url, args.match, token)
    say = (lambda line: None) if args.quiet else (lambda line: print(line, flush=True))
    try:
        played = play_seat(
            api, default_registry(), entrant, max_decisions=args.decisions, report=say,
            patience=args.patience,
        )  # fmt: skip
    except RemoteError as exc:
        print(f"ironworks play: {exc}", file=sys.stderr)
        return 2
    except NotFound as exc:  # the match, or its game on this side
        print(f"ironworks play: {exc.message}", file=sys.stderr)
        return 2
    ending = "the match is over" if played.finished else "stopped"
    scores = f"; scores {played.result['scores']}" if played.result else ""
    print(f"seat {played.seat}: {played.decisions} decisions; {ending} at version "
          f"{played.version}{scores}")  # fmt: skip
    return 0
