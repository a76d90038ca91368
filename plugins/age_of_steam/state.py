"""The match state. Plain Structs of ints, strings and lists, so it pickles and exports fast.

Track lives per hex as a list of sections ``[a, b, owner, turn]``: a track joining sides
``a`` and ``b`` (``b == TOWN`` for a spoke joining side ``a`` to the town in the middle),
its owner (a seat, or ``OWNERLESS``) and the turn it was laid (used for the rule that
unfinished track is lost when not extended by the end of its owner's next build).
"""

from __future__ import annotations

from typing import Any, Final

import msgspec

TOWN: Final = 6
OWNERLESS: Final = -1


class PlayerState(msgspec.Struct, kw_only=True):
    money: int = 10
    shares: int = 2
    income: int = 0
    engine: int = 1
    eliminated: bool = False
    out_turn: int = 0
    """Turn of elimination (0 = still playing)."""
    built: bool = False
    """Whether the player has ever laid track (the first track must start at a city)."""


class HexTrack(msgspec.Struct, kw_only=True):
    tile: str
    sections: list[list[int]]


class Auction(msgspec.Struct, kw_only=True):
    """The turn-order auction in progress. ``active`` is in bidding order."""

    seats: list[int]
    """Bidding order: the player order when the auction began."""
    active: list[int]
    to_act: int
    high: int = 0
    high_seat: int | None = None
    bids: dict[int, int] = {}
    out: list[int] = []
    pass_seat: int | None = None
    """The Turn Order action holder, while their one free pass is unused."""


class State(msgspec.Struct, kw_only=True):
    map_id: str
    players: int
    options: dict[str, Any]
    turn: int = 1
    last_turn: int
    phase: str
    order: list[int]
    """Player order for this turn: seats still in the game."""
    queue: list[int] = []
    """Seats still to act in the current phase, head first."""
    move_round: int = 0
    builds_left: int = 0
    urbanize_open: bool = False
    auction: Auction | None = None
    actions: dict[str, int] = {}
    """Action name -> seat that took it this turn."""
    cycle_used: list[str] = []
    """Barbados: actions taken since the last reset of the action markers."""
    turn_order_seat: int | None = None
    """Who took the Turn Order action last turn (their privilege applies this turn)."""
    first_holder: int = 0
    """St. Lucia: who decides first on buying the first place this turn."""
    engine_raised: list[int] = []
    """Seats that raised their engine during this turn's Move Goods."""
    production: list[str] = []
    """Cubes drawn by Production and not yet placed on the display."""
    production_drawn: bool = False
    pl: list[PlayerState]
    bag: dict[str, int]
    display: list[list[str]]
    """One list per display column (map order); the last cube is the one growth moves."""
    goods: dict[int, list[str]] = {}
    """Hex -> cubes on it (cities, New Cities and, on St. Lucia, land hexes)."""
    new_cities: dict[int, str] = {}
    """Hex -> letter of the New City tile placed there."""
    track: dict[int, HexTrack] = {}
    tiles: dict[str, int] = {}
    """Track tiles left in the supply."""
    final_scores: list[int] | None = None
    net: Any = None
    """Derived track network; rebuilt on demand, never exported."""

    def active(self) -> list[int]:
        return [s for s in range(self.players) if not self.pl[s].eliminated]
