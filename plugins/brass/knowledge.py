"""What a Brass player knows before the game starts: the printed tiles, the board and the
rules' numbers, by the names views and moves use.

The greedy bot (:mod:`plugins.brass.bot`) reads a match only through a seat's view; these
static facts (the board of ``GET /games``, the tile tables of the rule text) are what it
weighs the view against. Each game's :class:`Knowledge` is built from its own data
(``plugins.brass.board_bot`` for the board variants, ``plugins.brass_pittsburgh.knowledge``),
so this module names no game.
"""

from __future__ import annotations

from typing import Literal

import msgspec


class Reward(msgspec.Struct, frozen=True, kw_only=True):
    """What a tile's flip, a merchant, a line bonus or a Quality Reward pays."""

    money: int = 0
    income: int = 0
    """Income spaces."""
    vp: int = 0
    whiskey: int = 0
    free_develops: int = 0
    bonus_sells: int = 0
    money_per_income_level: int = 0
    """Pittsburgh's Polyphase Alternator: money for each income level held."""


NO_REWARD = Reward()


class TileFacts(msgspec.Struct, frozen=True, kw_only=True):
    """One printed industry tile (Birmingham keys it ``"<industry>:<level>"``, Pittsburgh
    by its mat tile id)."""

    industry: str
    """The industry as views and merchants name it (``cotton``, ``kerosene``)."""
    level: int
    money: int
    cubes: dict[str, int] = {}
    """Resources its build consumes (coal, iron, steel, coke), by kind."""
    income_levels_cost: int = 0
    """Income levels its build costs (Pittsburgh's Locomotive Works and Skyscraper)."""
    sale_need: int = 0
    """Barrels its sale needs: beer (Birmingham) or oil (Pittsburgh)."""
    income: int
    """Income spaces gained when it flips."""
    vp: int
    icons: int
    """Link icons it adds to its location once flipped."""
    produces: tuple[int, int] = (0, 0)
    """Cubes it carries when built in the first era and in the second."""
    resource: str = ""
    """What those cubes are (``coal``, ``iron``, ``beer``, ``steel``, ``coke``, ``oil``)."""
    flip: Literal["sell", "deplete", "built"]
    """How it flips: sold to a merchant, emptied of its cubes, or already on building."""
    eras: tuple[bool, bool]
    """Whether it may be built in the first era and in the second."""
    develop: bool
    leaves_after_first_era: bool
    """Removed from the board when the first era ends (level I tiles)."""
    reward: Reward = NO_REWARD
    """Paid on its flip besides the income (Pittsburgh)."""
    stars: int = 0
    vp_per_empty_mat_space: int = 0
    vp_per_heavy_train: int = 0
    upgrade: bool = False
    """Built only over one of the seat's own flipped tiles (Pittsburgh's crown jewels)."""


class Line(msgspec.Struct, frozen=True, kw_only=True):
    """A railroad line or canal: the locations it joins, the eras it may be built in, and a
    bonus for the train placed on it (Pittsburgh)."""

    ends: tuple[str, ...]
    eras: tuple[bool, bool] = (True, True)
    bonus: Reward = NO_REWARD


class Route(msgspec.Struct, frozen=True, kw_only=True):
    """A Pittsburgh pipeline route: the oilfield, the city, and the barrels it adds."""

    oilfield: str
    city: str
    oil_icons: int = 0


class LinkTile(msgspec.Struct, frozen=True, kw_only=True):
    """A Pittsburgh link tile kind (``LT``, a heavy train, a pipeline)."""

    pipeline: bool = False
    cubes: dict[str, int] = {}
    """Resources its placement consumes."""
    reward: Reward = NO_REWARD
    """Paid once it is placed."""
    multiplier: int = 1
    """Times its link VP score (the double link train)."""
    stays: bool = False
    """Stays on the board after the first era (heavy trains and pipelines)."""
    carries: dict[str, int] = {}
    per_barrel: Reward = NO_REWARD
    """What its owner gets for each barrel through it (pipelines)."""
    carries_oil: bool = True


class Knowledge(msgspec.Struct, frozen=True, kw_only=True):
    """A game's static facts for its bot. Birmingham keys tiles ``"<industry>:<level>"``,
    Pittsburgh by mat tile id; both name locations, lines and spaces as their views do."""

    tiles: dict[str, TileFacts]
    lines: dict[str, Line]
    routes: dict[str, Route] = {}
    link_tiles: dict[str, LinkTile] = {}
    printed_icons: dict[str, int]
    """Link icons printed on each location (merchant locations, Pittsburgh's cities)."""
    slots: dict[str, tuple[tuple[str, ...], ...]]
    """Per location, the industries each of its build spaces shows."""
    card_builds: dict[str, tuple[str, ...]] = {}
    """Industries an industry card builds, by card name (Pittsburgh's path icons)."""
    income_levels: tuple[int, ...]
    """The income track: level per space."""
    rounds_per_era: dict[int, int]
    """By player count: rounds of an era after the first (every card reshuffled)."""
    loan_amount: int
    loan_levels: int
    link_money: tuple[int, int] = (0, 0)
    """Money a first link costs in each era (Birmingham's canal and rail)."""
    link_cubes: tuple[int, int] = (0, 0)
    """Coal a first link consumes in each era (Birmingham's rail)."""
    second_link_money: int = 0
    """What a second link in the same action costs beyond a first."""
    whiskey_max: int = 0
    quality: dict[str, Reward] = {}
    """Pittsburgh's Quality Rewards by id."""
    bankruptcy_vp: int = 0
    stacks: dict[str, tuple[int, ...]] = {}
    """Birmingham: each industry's stack of tile levels, lowest first."""
    mat_next: dict[str, tuple[str, ...]] = {}
    """Pittsburgh: the mat spaces each space's arrows lead to."""
    game: Literal["birmingham", "pittsburgh"]
    """Which view layout the bot reads (the two games name a few things differently)."""

    def income_gain(self, space: int, spaces: int) -> int:
        """Income levels gained moving ``spaces`` up the track from ``space``."""
        levels = self.income_levels
        return levels[min(len(levels) - 1, space + spaces)] - levels[space]
