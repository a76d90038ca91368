"""Building Brass: Birmingham positions by name for the rule tests."""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any

from core.game import SYSTEM
from plugins.brass_birmingham import moves as mv
from plugins.brass_birmingham.data import INDUSTRIES, birmingham
from plugins.brass_birmingham.game import BrassBirmingham
from plugins.brass_birmingham.state import State

D = birmingham()
GAME = BrassBirmingham()
COTTON, MANUFACTURER, POTTERY, COAL, IRON, BREWERY = range(6)

DEFAULT_MERCHANTS = {
    2: {"shrewsbury": ["mt_any"], "gloucester": ["mt_cotton_a", "mt_blank_a"],
        "oxford": ["mt_manufacturer_a", "mt_blank_b"]},
    3: {"shrewsbury": ["mt_any"], "gloucester": ["mt_cotton_a", "mt_blank_a"],
        "oxford": ["mt_manufacturer_a", "mt_blank_b"], "warrington": ["mt_pottery", "mt_blank_c"]},
    4: {"shrewsbury": ["mt_any"], "gloucester": ["mt_cotton_a", "mt_blank_a"],
        "oxford": ["mt_manufacturer_a", "mt_blank_b"], "warrington": ["mt_pottery", "mt_blank_c"],
        "nottingham": ["mt_cotton_b", "mt_manufacturer_b"]},
}  # fmt: skip


def card(name: str) -> int:
    """Card kind by short name: a town id, an industry (``coal``, ``cotton/manufacturer``)
    or ``wild:location`` / ``wild:industry``."""
    for full in (name, f"location:{name}", f"industry:{name}"):
        try:
            return D.cards.index(full)
        except KeyError:
            continue
    raise KeyError(name)


def cname(name: str) -> str:
    """The card's name as hands and moves show it, from a short name as :func:`card`."""
    return D.cards.name(card(name))


def slot(space: str) -> int:
    """Slot index of ``location:index``."""
    loc, i = space.split(":")
    return D.loc_slots[D.loc_index[loc]][int(i)]


def link(name: str) -> int:
    """Link index by ``a~b`` (either order)."""
    a, b = name.split("~")
    return D.link_names.index("~".join(sorted((a, b))))


def merchant(location: str, index: int = 0) -> int:
    """Merchant space index: the ``index``-th space at ``location``."""
    loc = D.loc_index[location]
    return [m for m, at in enumerate(D.merchant_loc) if at == loc][index]


def taken_for(tiles: list[tuple[int, int]]) -> int:
    """Fewest tiles taken off one stack so that the levels in ``tiles`` can be on the board."""
    need = Counter(level for _, level in tiles)
    ind = tiles[0][0]
    seq = D.stacks.sequence[ind]
    taken = 0
    for level, count in need.items():
        seen = 0
        for i, lv in enumerate(seq):
            if lv == level:
                seen += 1
                if seen == count:
                    taken = max(taken, i + 1)
    return taken


def position(
    players: int = 2,
    era: str = "canal",
    hands: dict[int, list[str]] | None = None,
    tiles: list[dict[str, Any]] = (),  # type: ignore[assignment]
    links: dict[str, int] | None = None,
    money: list[int] | None = None,
    income: list[int] | None = None,
    vp: list[int] | None = None,
    spent: list[int] | None = None,
    mats: dict[int, dict[str, int]] | None = None,
    markets: tuple[int, int] = (13, 8),
    merchants: dict[str, list[str | None]] | None = None,
    beer: dict[str, list[int]] | None = None,
    deck: list[str] | None = None,
    order: list[int] | None = None,
    turn: int = 0,
    actions_left: int = 2,
    round: int = 2,
    phase: str = "play",
) -> dict[str, Any]:
    """A valid position document; unnamed cards fill the deck (or ``deck`` is given and
    the rest go to seat 0's discards)."""
    hands = hands or {}
    pool = Counter({k: c for k, c in enumerate(D.deck_copies[players]) if c})
    seat_hands: list[list[str]] = []
    for i in range(players):
        names = []
        for name in hands.get(i, []):
            k = card(name)
            if k not in (D.cards.wild_location, D.cards.wild_industry):
                assert pool[k] > 0, f"no {name} card left"
                pool[k] -= 1
            names.append(D.cards.name(k))
        seat_hands.append(names)
    facedown: list[list[str]] = [[] for _ in range(players)]
    if era == "canal":
        for i in range(players):
            k = next(k for k, c in sorted(pool.items()) if c)
            pool[k] -= 1
            facedown[i] = [D.cards.name(k)]
    rest = [D.cards.name(k) for k, c in sorted(pool.items()) for _ in range(c)]
    discards: list[list[str]] = [[] for _ in range(players)]
    if deck is None:
        deck_names = rest
    else:
        deck_names = [D.cards.name(card(n)) for n in deck]
        left = Counter(rest)
        left.subtract(deck_names)
        assert all(v >= 0 for v in left.values()), "deck names more cards than exist"
        discards[0] = sorted(left.elements())
    tiles = list(tiles)
    mat_rows: list[dict[str, int]] = [{} for _ in range(players)]
    by_owner: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for t in tiles:
        k = INDUSTRIES.index(t["industry"])
        by_owner.setdefault((t["owner"], k), []).append((k, t["level"]))
    for (owner, k), levels in by_owner.items():
        mat_rows[owner][INDUSTRIES[k]] = taken_for(levels)
    for seat, row in (mats or {}).items():
        mat_rows[seat].update(row)
    merchants = merchants or DEFAULT_MERCHANTS[players]
    merchant_docs = []
    counters: Counter[str] = Counter()
    for m, loc in enumerate(D.merchant_loc):
        lid = D.locations[loc].id
        i = counters[lid]
        counters[lid] += 1
        tile = None
        if D.merchant_min_players[m] <= players:
            tile = merchants.get(lid, [None, None])[i]
        accepts = tile is not None and bool(
            next(t for t in D.merchant_tiles if t.id == tile).accepts
        )
        b = int(accepts) if beer is None or lid not in beer else beer[lid][i]
        merchant_docs.append({"location": lid, "tile": tile, "beer": b})
    return {
        "players": players,
        "era": era,
        "round": round,
        "phase": phase,
        "order": order or list(range(players)),
        "turn": turn,
        "actions_left": actions_left,
        "seats": [
            {
                "money": (money or [17] * players)[i],
                "spent": (spent or [0] * players)[i],
                "income_space": (income or [10] * players)[i],
                "vp": (vp or [0] * players)[i],
                "hand": seat_hands[i],
                "discards": discards[i],
                "facedown": facedown[i],
                "mat": mat_rows[i],
            }
            for i in range(players)
        ],
        "deck": deck_names,
        "tiles": [{"cubes": 0, "flipped": False, **t} for t in tiles],
        "links": [{"link": name, "owner": o} for name, o in (links or {}).items()],
        "markets": {"coal": markets[0], "iron": markets[1]},
        "merchants": merchant_docs,
    }


def load(**kwargs: Any) -> State:
    return GAME.load_position(position(**kwargs))


def act(state: State, seat: int, *moves: Any) -> tuple[State, list[Any]]:
    """Decide and apply ``moves`` in turn for ``seat``; returns the new state and all
    events. Every move must be listed by ``legal_moves`` first."""
    events: list[Any] = []
    state = state.clone()  # evolve works in place: keep the caller's state intact
    for m in moves:
        legal = GAME.legal_moves(state, seat)
        assert m in legal, f"{m!r} not among {len(legal)} legal moves: {legal[:12]}"
        new = GAME.decide(state, seat, m, Random(0))
        events += new
        for e in new:
            state = GAME.evolve(state, e)
    return state, events


def score(state: State, rng_seed: int = 0) -> tuple[State, list[Any]]:
    new = GAME.decide(state, SYSTEM, mv.ScoreEra(), Random(rng_seed))
    for e in new:
        state = GAME.evolve(state, e)
    return state, new


def of_type(events: list[Any], kind: type) -> list[Any]:
    return [e for e in events if isinstance(e, kind)]
