"""Pittsburgh's listing on the family turn engine: ``legal_moves`` and ``decide`` over
:class:`.variant.PittsburghVariant` (``decide`` is :func:`plugins.brass.turn.decide`).

Each action's listing lives with its rule in :mod:`.actions`, each pending step's answers
with its step kind (:mod:`.steps`, or the action bringing it). ``decide`` accepts an
action's first move (and a second link) by the rule's diagnosis, which tests hold exact
both ways against the listing, and a step's answer only if it is among the step's answers
worked out afresh, so the two cannot drift; nothing is remembered by state content (a
key of the whole state cost ~45k instructions, more than deciding without it). Listing is
the hot path of play, so it works facts out once per listing (:class:`Facts`) and settles
most candidates by cheap money bounds (:func:`cheapest`, :func:`dearest`) before pricing
the cheapest plan (``tests/test_bp_exactness.py`` compares it with a slow check of every
candidate). An action runs as a queue of family ``Step``s; Pittsburgh's step kinds:

* ``cube`` -- ``n`` cubes of ``CUBES[a]`` delivered to consumer ``b`` (see :func:`consumers`);
  ``metal`` -- one iron or steel for a develop (consumers: the seat's network);
  ``oil`` -- ``n`` barrels for the tile on slot ``a``;
* ``produce`` -- the new tile on slot ``a`` sells its cubes into connected markets;
* ``bonus`` -- the line bonus of line ``a`` and the heavy train's reward;
* ``merchant`` -- the merchant on space ``b`` rewards the sale of slot ``a`` (face up only);
* ``flip`` -- the sold tile on slot ``a`` flips and pays its reward;
* offers: ``more_link``, ``more_develop``, ``more_sell`` (``n`` tiles in the sale so far),
  ``free_develop`` (``n`` left), ``bonus_sell``, ``quality`` (``n`` stars sold).

Consumers of a ``cube`` step: ``b >= 0`` a location; ``b = -2 - line`` both ends of a new
train link (its own cargo excluded); ``b = LINK_ROUTE - route`` a new pipeline's city;
``b = FIELD - oilfield`` the cities joined to an oilfield by a pipeline (the Oil City).
"""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

from plugins.brass import turn
from plugins.brass.events import Step
from plugins.brass.graph import positions
from plugins.brass_pittsburgh.building import (
    BuildScene,
    network,
)
from plugins.brass_pittsburgh.choices import (
    payment_table,
)
from plugins.brass_pittsburgh.data import CUBES
from plugins.brass_pittsburgh.move_tables import MoveTables
from plugins.brass_pittsburgh.payment import PaymentTable
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.state import PLAY, State

NETWORK = -1
"""``cube`` consumer: every location of the seat's network (develop)."""
LINE = -2
LINK_ROUTE = -1000
FIELD = -2000
OFFERS = frozenset(
    {"more_link", "more_develop", "more_sell", "free_develop", "bonus_sell", "quality"}
)
STEP_KINDS = OFFERS | {"discard", "cube", "metal", "oil", "produce", "bonus", "merchant", "flip"}
"""Every kind of pending decision an action may leave (positions are checked against it)."""
METAL = ("iron", "steel")


# --- consumers and prices ------------------------------------------------------------------


def consumers(
    rules: Rules, s: State, seat: int, b: int, facts: Facts | None = None
) -> tuple[list[int], int]:
    """The locations a ``cube`` step delivers to, and the line whose cargo is excluded."""
    board = rules.board_of(s.side)
    if b >= 0:
        return [b], -1
    if b == NETWORK:
        return sorted(facts.network if facts else network(rules, s, seat)), -1
    if b > LINK_ROUTE:
        line = LINE - b
        return list(board.line_nodes[line]), line
    if b > FIELD:
        return [board.route_city[LINK_ROUTE - b]], -1
    field = FIELD - b
    cities = {
        board.route_city[r]
        for r, owner in enumerate(s.route_owner)
        if owner >= 0 and board.route_oilfield[r] == field
    }
    return sorted(cities), -1


class Facts:
    """What listing needs from one state, computed once per listing (the state must not
    change meanwhile): connectivity, the cheapest cube payments, the build scene."""

    def __init__(self, rules: Rules, s: State, seat: int) -> None:
        self.rules, self.s, self.seat = rules, s, seat
        self.board = rules.board_of(s.side)
        self.labels = self.board.labels(s.line_owner)
        self._payment: PaymentTable | None = None
        self._scene: BuildScene | None = None
        self._network: set[int] | None = None
        self._slots: list[int] | None = None
        self._lines: list[int] | None = None

    # The seat's slots and lines are read by the network, the build scene, the sales and
    # the payment table: each a scan of a board list, found once here.
    @property
    def slots(self) -> list[int]:
        if self._slots is None:
            self._slots = positions(self.s.slot_owner, self.seat)
        return self._slots

    @property
    def lines(self) -> list[int]:
        if self._lines is None:
            self._lines = positions(self.s.line_owner, self.seat)
        return self._lines

    @property
    def payment(self) -> PaymentTable:
        if self._payment is None:
            self._payment = payment_table(self.rules, self.s, self.seat, self.labels, self.lines)
        return self._payment

    @property
    def scene(self) -> BuildScene:
        if self._scene is None:
            self._scene = BuildScene(self.rules, self.s, self.seat, self.network, self.slots)
        return self._scene

    @property
    def network(self) -> set[int]:
        if self._network is None:
            self._network = network(self.rules, self.s, self.seat, self.slots, self.lines)
        return self._network


def cheapest(
    rules: Rules, s: State, seat: int, step: Step, count: int, facts: Facts | None = None
) -> int:
    """Least money for ``count`` units of a ``cube``/``metal`` step on state ``s``."""
    if count <= 0 or step.kind not in ("cube", "metal"):
        return 0
    f = facts or Facts(rules, s, seat)
    if step.kind == "cube" and step.b >= 0:  # one location, the usual question
        return f.payment.cheapest((step.b,), CUBES[step.a], count)
    nodes, exclude = consumers(rules, s, seat, step.b if step.kind == "cube" else NETWORK, f)
    if step.kind == "cube":
        return f.payment.cheapest(nodes, CUBES[step.a], count, exclude)
    return min(f.payment.cheapest(nodes, cube, count, exclude) for cube in METAL)


def dearest(rules: Rules, s: State, step: Step, count: int) -> int:
    """An upper bound of :func:`cheapest`: Vanderbilt delivers every cube anywhere, so the
    cheapest plan never costs more than buying all of them from him."""
    if count <= 0 or step.kind not in ("cube", "metal"):
        return 0
    price = rules.board_of(s.side).vanderbilt_price
    if step.kind == "cube":
        return count * price(CUBES[step.a])
    return count * min(map(price, METAL))


# --- what may be done now --------------------------------------------------------------------


def action_moves(rules: Rules, s: State, seat: int, tables: MoveTables | None = None) -> list[Any]:
    """Every action the seat may start now (the first move of each), made by ``tables``
    (by default the engine's of the side; the game passes the named ones)."""
    v, facts = rules.variant, Facts(rules, s, seat)
    out: list[Any] = []
    for action in (tables or rules.move_tables[s.side]).actions:
        out += action.options(v, facts, seat)
    return out


def step_options(
    rules: Rules, s: State, seat: int, queue: Sequence[Step] | None = None
) -> list[Any]:
    """The answers to ``queue[0]`` (by default the pending step), worked out afresh."""
    queue = s.pending if queue is None else queue
    kind = rules.variant.step_kinds[queue[0].kind]
    return kind.answers(rules.variant, s, seat, queue)  # type: ignore[no-any-return]


def legal_moves(rules: Rules, s: State, seat: int) -> list[Any]:
    if s.phase != PLAY or seat != s.current:
        return []
    return step_options(rules, s, seat) if s.pending else action_moves(rules, s, seat)


def decide(rules: Rules, s: State, actor: int, m: Any, rng: Random) -> list[Any]:
    """Validate engine move ``m`` by ``actor`` and return its events (the family turn
    engine over :class:`.variant.PittsburghVariant`)."""
    return turn.decide(rules.variant, s, actor, m, rng)
