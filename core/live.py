"""The newest state of the matches a process serves, kept between requests, and the
snapshots persisted in the store that let a cold read fold only the newest events.

Both are caches, never truth. A state in :class:`LiveMatches` is the fold of a stored stream
up to its version, and the service trusts it only as far as the store confirms it: a read
asks the store for the events after the cached version (none: the state is current), a
write appends with the cached version as its expected version, so a stream another process
moved on is found out by the store, never served stale. Cached states are shared by every
thread of the process and never changed: advancing one folds the new events onto a clone
(the game's ``clone`` hook), so a request holding the older state keeps reading it whole.

A persisted snapshot is a pickle of a folded match taken at a version, labelled with the
format of the state it holds (:func:`snapshot_format`): one taken under another plugin or
state version is ignored, and so is one that does not load, and the stream is folded from
its start instead. A snapshot stands only for the version it was taken at: the events after
it are always read and folded on.
"""

from __future__ import annotations

import copy
import logging
import pickle
import threading
import time
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

import msgspec

from core.errors import ServiceUnavailable
from core.events import NewEvent, Snapshot, StoredEvent
from core.match import MatchState, fold, fold_append
from core.steps import Call, Steps, run

log = logging.getLogger(__name__)

SNAPSHOT_FORMAT = 1
"""The version of what a snapshot holds besides the game's state (the :class:`MatchState`
around it, the pickling); bump it when that changes."""
SNAPSHOT_EVERY = 500
"""Events between two snapshots of a match. A snapshot is for a cold read only (a process
that has no live state of the match: after a restart, or once the match left
:data:`LIVE_CAPACITY`), which then folds at most ``SNAPSHOT_EVERY - 1`` events after it;
every process serving the match meanwhile keeps its state live. Taking one costs the move
that passes the mark a pickle of the whole match and a store write (Brass: about 300k CPU
instructions, ~60 µs), where folding an event costs a cold read ~2.3 µs and reading it
~2.3 µs more (``bench/bench_cold_start.py``). At 50 events, the moves paid about 14k
instructions each for snapshots (2% of a move POST) to spare a cold read at most ~0.2 ms;
at 500 they pay ~1.4k, and a cold read folds at most ~2.5 ms more: the trade is worth it
unless a match is read cold more often than once per ~500 of its events."""
LIVE_CAPACITY = 4096
"""Matches whose state a process keeps at most; the least recently used go first."""


class LiveMatches:
    """The newest folded state of each match this process served lately (see the module)."""

    def __init__(self, games: Any, capacity: int = LIVE_CAPACITY) -> None:
        self.games = games
        self.capacity = capacity
        self._states: OrderedDict[str, MatchState] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, match_id: str) -> MatchState | None:
        """The newest state this process has seen: not checked against the store."""
        with self._lock:
            match = self._states.get(match_id)
            if match is not None:
                self._states.move_to_end(match_id)
            return match

    def keep(self, match: MatchState) -> None:
        """Remember ``match`` unless a newer state of it is kept already."""
        with self._lock:
            known = self._states.get(match.match_id)
            if known is not None and known.version >= match.version:
                return
            self._states[match.match_id] = match
            self._states.move_to_end(match.match_id)
            while len(self._states) > self.capacity:
                self._states.popitem(last=False)

    def forget(self, match_id: str) -> None:
        with self._lock:
            self._states.pop(match_id, None)

    def clear(self) -> None:
        with self._lock:
            self._states.clear()

    def advanced(self, match: MatchState | None, events: Sequence[StoredEvent]) -> MatchState:
        """``match`` with ``events`` folded on, as a new object (``match`` is left as it was);
        from nothing when ``match`` is ``None``."""
        if match is not None:
            if not events:
                return match
            match = self.copy(match)
        return fold(self.games, events, match)

    def moved(
        self, match: MatchState, decided: Sequence[Any], evolved: Any, at: float
    ) -> MatchState:
        """``match`` after one append of the game events ``decided`` at ``at``, as a new
        object (:func:`core.match.fold_append`; ``match`` is left as it was): what
        :meth:`advanced` gives for those events as stored, without building them. With
        ``evolved`` (``decide_evolved``'s state) the game state is not copied: it is the
        new one already."""
        if not decided:
            return match
        game = self.games.get(match.game_id)
        return fold_append(game, self.copy(match, evolved is None, game), decided, evolved, at)

    def copy(self, match: MatchState, game_state: bool = True, game: Any = None) -> MatchState:
        """A copy that folding may change without touching ``match`` (its game state shared
        when not ``game_state``: the caller replaces it)."""
        state = match.game_state
        if game_state and state is not None:
            game = game or self.games.get(match.game_id)
            state = (getattr(game, "clone", None) or copy.deepcopy)(state)
        return msgspec.structs.replace(
            match,
            seats=[msgspec.structs.replace(seat) for seat in match.seats],
            resigned=list(match.resigned),
            game_state=state,
        )


def as_stored(
    stream_id: str, first_version: int, events: Sequence[NewEvent], idempotency_key: str | None
) -> list[StoredEvent]:
    """Events just appended at ``first_version`` on, as the store now holds them, but for
    the timestamp, which the store sets a moment later: now, one for the whole append, as
    the store's is (clocks tick once per append and count from its time)."""
    now = time.time()
    return [
        StoredEvent(
            stream_id=stream_id, version=version, type=e.type, data=e.data, actor=e.actor,
            timestamp=now, idempotency_key=idempotency_key, rules_version=e.rules_version,
        )
        for version, e in enumerate(events, start=first_version)
    ]  # fmt: skip


def snapshot_format(game: Any) -> str:
    """What a snapshot of ``game``'s matches must have been taken under to be used: the
    snapshot format, the game, its rules version, its optional ``state_version`` (a plugin
    bumps it when its state's shape changes) and the version of the package it ships in."""
    return ":".join((
        str(SNAPSHOT_FORMAT), game.id, game.rules_version,
        str(getattr(game, "state_version", "")), _package_version(game),
    ))  # fmt: skip


_package_versions: dict[str, str] = {}


def _package_version(game: Any) -> str:
    top = type(game).__module__.partition(".")[0]
    version = _package_versions.get(top)
    if version is None:
        from importlib import metadata

        names = metadata.packages_distributions().get(top, [])
        try:
            version = metadata.version(names[0]) if names else ""
        except metadata.PackageNotFoundError:
            version = ""
        _package_versions[top] = version
    return version


class Snapshots:
    """Snapshots kept in the store, one per match, renewed every ``every`` events."""

    def __init__(self, store: Any, games: Any, every: int = SNAPSHOT_EVERY) -> None:
        self.store = store
        self.games = games
        self.every = max(1, every)

    def load(self, match_id: str) -> MatchState | None:
        """The match as of its stored snapshot, when there is one of the current format."""
        return run(self.load_steps(match_id))

    def load_steps(self, match_id: str) -> Steps[MatchState | None]:
        snap = yield Call(self.store, "load_snapshot", (match_id,))
        if snap is None:
            return None
        try:
            match = pickle.loads(snap.data)
            format_ = snapshot_format(self.games.get(match.game_id))
        except Exception:  # a state class that moved, a game no longer installed
            log.info("match %s: snapshot at version %d not loadable, folding", match_id,
                     snap.version)  # fmt: skip
            return None
        if snap.format != format_ or match.version != snap.version or match.match_id != match_id:
            return None
        return match

    def offer(self, match: MatchState, since: int) -> None:
        """Store a snapshot of ``match`` if its version passed a multiple of ``every`` since
        version ``since``. A store that fails here costs only a longer fold later."""
        run(self.offer_steps(match, since))

    def offer_steps(self, match: MatchState, since: int) -> Steps[None]:
        if match.version // self.every <= since // self.every:
            return
        try:
            format_ = snapshot_format(self.games.get(match.game_id))
            data = pickle.dumps(match, protocol=5)
            snapshot = Snapshot(version=match.version, format=format_, data=data)
            yield Call(self.store, "save_snapshot", (match.match_id, snapshot))
        except ServiceUnavailable as exc:
            log.info("match %s: snapshot not stored: %s", match.match_id, exc.message)
