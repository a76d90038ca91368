"""The "greedy" bot of the Brass games (the ``bot_policy`` hook of :mod:`core.game`).

It scores each legal move from the seat's view alone and plays the best, ties broken by the
``rng``. The scores encode plain Brass sense: selling flips tiles (VP and income), building
comes next (higher levels are worth more), links count when they reach the seat's own
industries or a merchant, developing is a filler, a loan only when money is short and
passing is the last resort. Follow-up choices take the cheapest source and discard the
least useful card. Both games share this module; :class:`Tuning` holds what differs.

Moves are read by their ``type`` tag and field names, which the two games share, so the
module imports neither game.
"""

from __future__ import annotations

import re
from collections import Counter
from random import Random
from typing import Any, Final

import msgspec

# Base score per move type; follow-ups compete with ``done`` (0).
ACTION_SCORES: Final[dict[str, float]] = {
    "sell": 100.0,
    "sell_also": 100.0,
    "bonus_sell": 100.0,
    "claim_quality": 90.0,
    "build": 60.0,
    "network": 35.0,
    "second_link": 25.0,
    "develop": 12.0,
    "free_develop": 8.0,
    "develop_also": -5.0,
    "scout": 2.0,
    "loan": -20.0,
    "pass": -100.0,
    "done": 0.0,
}
LOAN_WHEN_MONEY_BELOW: Final = 10
"""Below this much money a loan beats developing or passing: it pays for the next build."""
LOWEST_INCOME_FOR_LOAN: Final = 0
"""A loan drops income three levels; under this level the interest outweighs the cash."""
SECOND_LINK_MONEY: Final = 25
"""A double link is worth its surcharge only with money left over for building."""
DEFAULT_SOURCE_COST: Final = 50.0


class Tuning(msgspec.Struct, frozen=True, kw_only=True):
    """What one game adds to the shared scores.

    ``industry_bonus``: extra build score per industry (Birmingham's industry word, or
    Pittsburgh's mat-space letters such as ``K`` or ``OC``). ``connected_bonus``: more
    for that industry when its place is already linked to a merchant (its goods or cubes
    can be sold at once). ``source_cost``: how dear a payment source is, by Pittsburgh's
    ``pay`` source kind.
    """

    industry_bonus: dict[str, float]
    connected_bonus: dict[str, float] = {}
    source_cost: dict[str, float] = {}


def choose(view: dict[str, Any], legal: list[Any], rng: Random, tuning: Tuning) -> Any:
    """The best-scoring move of ``legal`` for ``view["seat"]``; reads, never changes, its
    arguments."""
    if not legal:
        raise ValueError("the bot was asked to move with no legal move")
    seat = view.get("seat")
    if seat is None:
        raise ValueError("a spectator's view cannot drive a bot")
    ctx = _Context(view, seat, tuning)
    best: list[Any] = []
    top = float("-inf")
    for move in legal:
        score = ctx.score(move)
        if score > top:
            top, best = score, [move]
        elif score == top:
            best.append(move)
    return best[rng.randrange(len(best))]


def _neighbours(links: list[dict[str, Any]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {}
    for link in links:
        ends = link["ends"]  # a Birmingham line may reach a farm too: three ends
        for end in ends:
            out.setdefault(end, set()).update(e for e in ends if e != end)
    return out


def _reachable(start: set[str], neighbours: dict[str, set[str]]) -> set[str]:
    seen = set(start)
    todo = list(start)
    while todo:
        for nxt in neighbours.get(todo.pop(), ()):
            if nxt not in seen:
                seen.add(nxt)
                todo.append(nxt)
    return seen


def _level(tile: str) -> int:
    digits = re.sub(r"\D", "", tile)
    return int(digits) if digits else 1


def _industry_key(tile: str) -> str:
    return re.sub(r"\d", "", tile)


class _Context:
    """The facts of one view the scores read, computed once per decision."""

    def __init__(self, view: dict[str, Any], seat: int, tuning: Tuning) -> None:
        self.view = view
        self.seat = seat
        self.tuning = tuning
        me = view["players"][seat]
        self.money: int = me["money"]
        self.income: int = me["income_level"]
        self.next_tiles: dict[str, int | None] = me.get("next_tiles") or {}
        tiles = view.get("tiles") or []
        self.owner_of: dict[str, int] = {t["space"]: t["owner"] for t in tiles}
        self.level_of: dict[str, int] = {t["space"]: t.get("level") or 1 for t in tiles}
        self.my_places = {t["location"] for t in tiles if t["owner"] == seat}
        self.merchant_places = {m["location"] for m in view.get("merchants") or []}
        self.neighbours = _neighbours(view.get("links") or view.get("lines") or [])
        self.trading = _reachable(self.merchant_places, self.neighbours)
        self.my_network = _reachable(self.my_places, self.neighbours)
        self.merchant_bonus = {
            m["merchant"]: bool(m.get("beer")) or bool(m.get("reward"))
            for m in view.get("merchants") or []
        }
        self.hand = Counter(view.get("hand") or [])

    def score(self, move: Any) -> float:
        kind: str = move.__struct_config__.tag
        base = ACTION_SCORES.get(kind, 0.0)
        # A method named after the tag (``_build``) weighs the move's own fields.
        extra = getattr(self, "_" + kind, None)
        return base + (extra(move) if extra else 0.0)

    # --- actions ---------------------------------------------------------------------------

    def _build(self, move: Any) -> float:
        if hasattr(move, "tile"):  # Pittsburgh names the mat space
            key, level = _industry_key(move.tile), _level(move.tile)
        else:
            key, level = move.industry, self.next_tiles.get(move.industry) or 1
        score = self.tuning.industry_bonus.get(key, 0.0) + 4.0 * level
        place = (getattr(move, "space", None) or "").split(":")[0]
        if place in self.trading:
            score += self.tuning.connected_bonus.get(key, 0.0)
        if getattr(move, "whiskey", False):
            score -= 6.0  # a barrel is worth keeping for Quality Rewards
        if getattr(move, "space", None) in self.owner_of:
            score -= 15.0  # overbuilding loses the tile underneath
        return score

    def _network(self, move: Any) -> float:
        ends = set((getattr(move, "site", None) or move.link).split("~"))
        score = 0.0
        if ends & self.my_places:
            score += 15.0
        if ends & self.merchant_places:
            score += 10.0
        # Joining the seat's industries to the merchants lets them sell.
        if ends & self.my_network and ends & self.trading and not self.my_places <= self.trading:
            score += 20.0
        return score

    def _second_link(self, move: Any) -> float:
        if self.money < SECOND_LINK_MONEY:
            return -100.0
        return self._network(move)

    def _develop(self, move: Any) -> float:
        # Developing past level-1 tiles matters most early; a low level is what it skips.
        key = move.industry if hasattr(move, "industry") else _industry_key(move.tile)
        level = self.next_tiles.get(key) if hasattr(move, "industry") else _level(move.tile)
        return 4.0 if (level or 1) == 1 else -4.0

    def _develop_also(self, move: Any) -> float:
        return self._develop(move)

    def _free_develop(self, move: Any) -> float:
        return self._develop(move)

    def _loan(self, move: Any) -> float:
        if self.income < LOWEST_INCOME_FOR_LOAN:
            return -60.0
        return 50.0 if self.money < LOAN_WHEN_MONEY_BELOW else 0.0

    def _sell(self, move: Any) -> float:
        # Higher-level tiles are worth more VP when flipped.
        return 2.0 * self.level_of.get(move.space, 1)

    def _sell_also(self, move: Any) -> float:
        return self._sell(move)

    def _bonus_sell(self, move: Any) -> float:
        return self._sell(move)

    # --- follow-ups ------------------------------------------------------------------------

    def _discard(self, move: Any) -> float:
        """Keep wild cards and cards for places the seat builds at; shed duplicates."""
        card: str = move.card
        if card.startswith("wild:"):
            return -50.0
        count = self.hand[card]
        place = card.removeprefix("location:")
        keep = 10.0 if place in self.my_places else 0.0
        return 3.0 * count - keep

    def _pick_coal(self, move: Any) -> float:
        return self._take_from_tile(move.space)

    def _pick_iron(self, move: Any) -> float:
        return self._take_from_tile(move.space)

    def _pick_beer(self, move: Any) -> float:
        if move.source in self.merchant_bonus:
            return 10.0 if self.merchant_bonus[move.source] else 0.0
        return self._take_from_tile(move.source)

    def _take_from_tile(self, space: str) -> float:
        # Emptying one's own tile flips it (VP and income) rather than an opponent's.
        return 2.0 if self.owner_of.get(space) == self.seat else 0.0

    def _pay(self, move: Any) -> float:
        cost = self.tuning.source_cost.get(move.source, DEFAULT_SOURCE_COST)
        if move.source == "market":
            cost += self._market_price(move.at, move.resource)
        elif move.source == "tile":
            cost -= self._take_from_tile(move.at or "")
        return -cost

    def _market_price(self, market: str | None, resource: str) -> float:
        for m in self.view.get("markets") or []:
            if isinstance(m, dict) and m.get("market") == market:
                price = (m.get("ladders", {}).get(resource) or {}).get("buy_price")
                return float(price) if price is not None else DEFAULT_SOURCE_COST
        return DEFAULT_SOURCE_COST

    def _liquidate(self, move: Any) -> float:
        return -float(self.level_of.get(move.space, 1))

    def _sell_produced(self, move: Any) -> float:
        # Spread over markets: each market's first cubes fetch the best prices.
        return float(len([n for n in move.plan.values() if n]))


BIRMINGHAM: Final = Tuning(
    # Coal and iron flip by selling cubes to the market; pottery is worth the most VP.
    industry_bonus={"coal": -8.0, "iron": 12.0, "pottery": 4.0, "cotton": 3.0,
                    "manufacturer": 2.0, "brewery": 3.0},
    connected_bonus={"coal": 22.0, "cotton": 6.0, "manufacturer": 6.0, "pottery": 6.0},
)  # fmt: skip
PITTSBURGH: Final = Tuning(
    industry_bonus={"C": 6.0, "I": 5.0, "K": 3.0, "M": 3.0, "S": 4.0, "OC": 4.0, "CK": 3.0},
    # A train's or tile's cube costs nothing more; Vanderbilt is the dearest.
    source_cost={"train": 0.0, "tile": 1.0, "pipeline": 1.0, "market": 2.0, "vanderbilt": 30.0},
)
