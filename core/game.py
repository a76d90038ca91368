"""The decider contract every game plugin implements.

A game is a pure decider: no I/O, no clock, no global random state. The service owns the
event store, the clock and the randomness; a game only turns (state, command) into events
and events into state. Third-party plugins code against :class:`Game`; the conformance
suite in ``tests/conformance.py`` checks any implementation of it.

Conventions the service relies on:

* Moves and events are msgspec Structs declared with ``tag=True`` (or a string tag) and the
  default ``tag_field="type"``, grouped into the unions ``Game.Move`` and ``Game.Event``.
  The tag of an event is its ``type`` in the event store.
* Seats are numbered ``0 .. players-1``. The actor of a system command (dealing, era-end
  scoring, dice) is :data:`SYSTEM`. A viewer of ``None`` is a spectator.
* ``evolve`` may update the state it is given in place and return it; callers never use a
  state object after passing it to ``evolve`` except through the return value. ``decide``,
  ``legal_moves``, ``view`` and the other readers must not modify the state.
* States must be picklable (snapshots) and deterministic: folding the same events always
  gives equal states (``export_position`` of both is equal). Optional ``state_version``
  (a string): bump it when the state's shape changes, and snapshots the store kept of the
  older shape are ignored (see :mod:`core.live`).
* Optional hook ``redact_in_match(state, event, seat) -> dict``: when a game defines it, the
  service redacts the log with it, passing the match's current state, so an event that
  stores compact indices can be shown with names that depend on the match (Brass:
  Pittsburgh's board side). Use the state only for such fixed facts of the match, never for
  hidden information; ``redact`` must still work without it.
* Chance is a move: every random step after ``setup`` (a reshuffle, dice, a draw from a
  bag) is a system move whose outcome is a field of the move (OpenSpiel's chance nodes).
  ``pending_tasks`` lists it without its outcome; ``decide`` given a move without one draws
  it from ``rng`` (the service's secret generator) and writes it into the events, and given
  one (an imported record) checks that it is possible (a permutation of exactly the cards
  shuffled, dice 1..6, cubes that are in the bag) and refuses it with an ``IllegalMove``
  otherwise. Optional hook ``chance_outcome(state, move, events) -> move``: the system
  ``move`` with the outcome that ``events`` (what ``decide`` returned for it on ``state``)
  show, so that deciding it again gives them without drawing (:mod:`core.record` exports
  records with it); a game without random system moves needs none.
* The setup's own draws (a first deal, turn order, tiles, goods) are its chance outcome:
  optional class attribute ``SetupOutcome`` (a Struct) and hook ``setup_outcome(events) ->
  SetupOutcome``, the outcome ``setup``'s ``events`` dealt. A game with them takes
  ``setup(options, players, rng, outcome=...)``: given an outcome (a record's ``setup``) it
  deals that instead of drawing, with the same events drawing it would give, and refuses an
  impossible one with an ``IllegalMove``. :mod:`core.record` exports a match started from
  options as its options and that outcome; a game without them exports a start position.
* Optional hook ``decide_evolved(state, actor, move, rng) -> (events, state_after)``: what
  ``decide`` returns, and the state ``evolve`` makes of a copy of ``state`` with those events
  folded on, as a new object (``state`` itself untouched, ``state_after`` shared with
  nobody). For a game whose ``decide`` builds that state anyway: the service keeps it as the
  match's state instead of copying ``state`` and folding the events a second time. The
  conformance suite checks that both ways give the same events and an equal state.
* Optional hook ``view_for_bots(state, seat) -> dict``: what a bot playing ``seat`` reads,
  the seat's ``view`` less parts published for people alone that no bot reads and that
  cost to make (Brass's move prices); without it bots read ``view``. It may leave out,
  never add: a bot sees no more than its seat's player.
* Optional hook ``position_options(state) -> Options``: the options a loaded position
  plays with (a map, a board side), for a game whose positions carry settings; the
  service records them when a match starts from a position.
* Optional class attributes for the OpenAPI document: ``View``, the struct ``view`` returns
  follows, and ``LogPayloads``, a dict from each event type to the struct the payload
  ``redact`` serves for it follows (both checked against real matches by
  ``tests/test_served_event_schemas.py`` for the installed games).
* Optional hook ``bot_policy(view, legal, rng) -> move``: the game's own heuristic for the
  "greedy" bot (``worker.bots``). It gets exactly what a player has, the seat's ``view``
  (the seat is ``view``'s viewer) and its non-empty list of ``legal`` moves, plus an
  ``rng`` for its choices, and returns one of ``legal``; it must not reach for the match's
  state by any other way. Without it the greedy bot plays uniformly at random.
* Optional hook ``result_with_resignations(state, resigned) -> Result``: the result of a
  match some seats resigned from (``resigned``: their seats, first to resign first). The
  service calls it once the match is over, whether the game reached its end or the
  resignations ended it early (at most one seat left in: then ``state`` is mid-game, and
  the scores are what it shows so far). It must rank every resigned seat below every other,
  the later to resign ahead, and say who resigned in ``details["resigned"]``;
  ``core.resignation.with_resignations`` does both to a result of the game's own. Without
  the hook the service does that to ``result`` (mid-game: no scores, the seats still in
  sharing first place). The resignations come from the service's events, so the game stays
  pure and its state knows nothing of them.

Hooks the search bot (``worker.search``) plays through. A search bot never holds the true
state: it turns the seat's view into full states of its own and looks ahead in those.

* ``determinize(view, rng) -> state``: a full state built from ``view`` alone (a seat's
  view, never a spectator's), with every part the seat cannot see (other hands, deck order,
  a bag) drawn at random from what the view allows. ``view(determinize(v, rng), v["seat"])``
  must equal ``v`` exactly and the seat's ``legal_moves`` must be those of the real state;
  the conformance suite checks both. It must read nothing but ``view`` and ``rng``.
* ``evaluate(state) -> list[float]``: each seat's expected final score, in the game's score
  units, for a state that may be far from the end (VP plus what the position is still
  worth). Search playouts stop early and score the state with it.
* ``playout_policy(state, seat, legal, rng) -> move``: a fast heuristic choice among
  ``legal`` on a full state, for search playouts. It may read all of ``state``: inside a
  search that state is the bot's own determinization, never the match's.
* ``clone(state) -> state``: a copy that ``evolve`` may change without touching the original
  (search playouts start from one determinization many times). Without it the search bot
  deep-copies.
* Optional numbers: ``score_scale`` (default 10), the score margin that counts as a clear
  lead, and ``search_anchor_bonus`` (default 0.02), how much better, in utility (0..1), a
  searched move must look than the game's own greedy pick before the search bot prefers it —
  higher for a game whose playouts are much weaker than its greedy bot.
* ``search_keeps_anchor(view) -> bool`` (optional): whether, at this decision, the search
  bot plays the game's greedy pick without searching, e.g. in the middle of a multi-step
  plan that greedy made and the playouts would not carry on alike.
"""

from __future__ import annotations

from random import Random
from typing import Any, ClassVar, Final, Literal, Protocol, TypeVar, runtime_checkable

import msgspec

SYSTEM: Final = -1
"""Actor id of commands the service issues on the game's behalf (see :class:`Task`)."""

S = TypeVar("S")


class Task(msgspec.Struct, frozen=True, kw_only=True):
    """Work the match needs before it can go on.

    ``kind="turn"``: ``seat`` must choose a move; the service hands it to a bot if the
    seat belongs to one, otherwise it waits for the player.
    ``kind="system"``: the service calls ``decide(state, SYSTEM, move, rng)`` on a worker
    (era-end scoring, dealing, dice). ``move`` is one of the game's Move structs.
    """

    kind: Literal["turn", "system"]
    seat: int | None = None
    move: Any = None


class Result(msgspec.Struct, frozen=True, kw_only=True):
    """A finished match. ``ranking[s]`` is seat ``s``'s place, 1 = winner; equal places are
    shared ties. ``scores[s]`` is its final score; ``details`` carries tie-break figures."""

    scores: list[int]
    ranking: list[int]
    details: dict[str, Any] = {}


@runtime_checkable
class Game(Protocol[S]):
    """One board game, as a pure decider.

    Class attributes describe the game; the methods are the rules. Every method is a pure
    function of its arguments.
    """

    id: ClassVar[str]
    """Stable identifier used in URLs and stored in every match (``brass-birmingham``)."""
    title: ClassVar[str]
    rules_version: ClassVar[str]
    """Written into every event this game produces; bump it when rules change meaning."""
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    Options: ClassVar[type[msgspec.Struct]]
    """Struct of match options; every field has a default. Unknown fields are refused."""
    Move: ClassVar[Any]
    """Union of the move Structs (tagged)."""
    Event: ClassVar[Any]
    """Union of the event Structs (tagged)."""
    metadata: ClassVar[dict[str, Any]]
    """Free-form facts shown to users (data provenance, ``provisional`` flags, move form)."""

    def setup(self, options: Any, players: int, rng: Random) -> list[Any]:
        """First events of a new match. The first must let ``evolve(None, event)`` build the
        initial state; any randomness (deck order, first player) is drawn from ``rng`` and
        written into the events (or, for a game with a ``SetupOutcome``, taken from an
        ``outcome`` keyword argument when one is given)."""
        ...

    def evolve(self, state: S | None, event: Any) -> S:
        """Apply one stored event. Total: never raises on an event ``decide`` produced."""
        ...

    def decide(self, state: S, actor: int, move: Any, rng: Random) -> list[Any]:
        """Validate ``move`` by ``actor`` (a seat, or SYSTEM) and return the events it
        causes. Raises :class:`core.errors.IllegalMove` with a code naming the broken rule.
        Randomness comes only from ``rng`` and its outcome is written into the events."""
        ...

    def legal_moves(self, state: S, seat: int) -> list[Any]:
        """Every legal complete move for ``seat`` now, in canonical form; empty when it is
        not that seat's decision. ``decide`` accepts each of them and refuses anything
        else."""
        ...

    def view(self, state: S, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator). Never another seat's secrets."""
        ...

    def redact(self, event: Any, seat: int | None) -> dict[str, Any]:
        """The event as ``seat`` may see it in the log; same secrecy rule as ``view``."""
        ...

    def pending_tasks(self, state: S) -> list[Task]:
        """Who must act now, and the system work to run. Empty once the match is over."""
        ...

    def result(self, state: S) -> Result | None:
        """Final scores and ranking, or ``None`` while the match goes on."""
        ...

    def export_position(self, state: S) -> dict[str, Any]:
        """The full state, hidden parts included, as a documented JSON document."""
        ...

    def load_position(self, doc: dict[str, Any]) -> S:
        """Inverse of ``export_position``; raises :class:`core.errors.InvalidPosition` on a
        document that cannot be a real position."""
        ...

    def sample_hidden(self, state: S, seat: int, rng: Random) -> S:
        """A state ``seat`` cannot tell from ``state``: hidden parts it cannot see (other
        hands, deck order, a bag) redrawn at random, consistent with its view. Used by
        search bots and by the conformance suite's leak test. Returns a new state."""
        ...


def event_type(event: msgspec.Struct) -> str:
    """The store's ``type`` for a game event: its msgspec tag."""
    kind = type(event)
    tag = _tags.get(kind)
    if tag is None:
        # ``__struct_config__`` builds a new config object on every read: read it once.
        tag = kind.__struct_config__.tag
        if not isinstance(tag, str):
            raise TypeError(f"{kind.__name__} must be a tagged msgspec Struct")
        _tags[kind] = tag
    return tag


_tags: dict[type, str] = {}
