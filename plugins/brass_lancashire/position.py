"""Position documents (the full state as JSON, names for indices; ``CLIENTS.md``
"Positions") and a state from a seat's view alone (``determinize``, for the search bot)."""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any, Literal

import msgspec

from core.errors import InvalidPosition
from plugins.brass.events import Step
from plugins.brass.hidden import deal_unseen, unseen_cards
from plugins.brass_lancashire.data import INDUSTRIES, Lancashire
from plugins.brass_lancashire.state import State

FORMAT = "brass-lancashire/1"
ERAS = ("canal", "rail")


class _Doc(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    pass


class SeatDoc(_Doc, kw_only=True):
    money: int
    spent: int = 0
    income_space: int
    vp: int = 0
    hand: list[str] = []
    discards: list[str] = []
    facedown: list[str] = []
    mat: dict[str, int] = {}
    """Tiles already taken off each industry's stack (built or developed); default 0."""


class TileDoc(_Doc, kw_only=True):
    space: str
    owner: int
    industry: str
    level: int
    cubes: int = 0
    flipped: bool = False


class LinkDoc(_Doc, kw_only=True):
    link: str
    owner: int


class MarketsDoc(_Doc, kw_only=True):
    coal: int
    iron: int


class DistantDoc(_Doc, kw_only=True):
    marker: int = 0
    tiles_left: list[int] | None = None
    """Default: every demand tile of the player count."""


class StepDoc(_Doc, kw_only=True):
    kind: str
    n: int = 0
    a: int = -1
    b: int = -1


class PositionDoc(_Doc, kw_only=True):
    format: Literal["brass-lancashire/1"] = FORMAT
    players: int
    era: Literal["canal", "rail"] = "canal"
    round: int = 1
    phase: Literal["play", "scoring", "over"] = "play"
    order: list[int]
    turn: int = 0
    actions_left: int = 1
    seats: list[SeatDoc]
    deck: list[str] | None = None
    """Top card last; default: every card held nowhere else, in card-table order."""
    tiles: list[TileDoc] = []
    links: list[LinkDoc] = []
    markets: MarketsDoc
    distant_market: DistantDoc = msgspec.field(default_factory=DistantDoc)
    pending: list[StepDoc] = []
    deciding: int = -1


def export(d: Lancashire, s: State) -> dict[str, Any]:
    name = d.cards.name
    doc = PositionDoc(
        players=s.players, era=ERAS[s.era], round=s.round, phase=s.phase,  # type: ignore[arg-type]
        order=list(s.order), turn=s.turn, actions_left=s.actions_left,
        seats=[SeatDoc(money=s.money[i], spent=s.spent[i], income_space=s.income[i], vp=s.vp[i],
                       hand=[name(c) for c in s.hands[i]],
                       discards=[name(c) for c in s.discards[i]],
                       facedown=[name(c) for c in s.facedown[i]],
                       mat=dict(zip(INDUSTRIES, s.mat[i], strict=True)))
               for i in range(s.players)],
        deck=[name(c) for c in s.deck],
        tiles=[TileDoc(space=d.slot_name(slot), owner=o, industry=INDUSTRIES[s.slot_ind[slot]],
                       level=s.slot_level[slot], cubes=s.slot_cubes[slot],
                       flipped=s.slot_flipped[slot])
               for slot, o in enumerate(s.slot_owner) if o >= 0],
        links=[LinkDoc(link=d.link_names[li], owner=o)
               for li, o in enumerate(s.link_owner) if o >= 0],
        markets=MarketsDoc(coal=s.coal_market, iron=s.iron_market),
        distant_market=DistantDoc(marker=s.demand, tiles_left=list(s.demand_left)),
        pending=[StepDoc(kind=p.kind, n=p.n, a=p.a, b=p.b) for p in s.pending],
        deciding=s.deciding,
    )  # fmt: skip
    return msgspec.to_builtins(doc)


def _check(ok: bool, code: str, message: str) -> None:
    if not ok:
        raise InvalidPosition(code, message)


def load(d: Lancashire, raw: Any, step_kinds: frozenset[str]) -> State:
    try:
        doc = msgspec.convert(raw, PositionDoc)
    except msgspec.ValidationError as exc:
        raise InvalidPosition("invalid_position", f"not a Lancashire position: {exc}") from None
    try:
        return _load(d, doc, step_kinds)
    except (KeyError, IndexError, ValueError) as exc:
        raise InvalidPosition("invalid_position", f"impossible position: {exc!r}") from None


def _load(d: Lancashire, doc: PositionDoc, step_kinds: frozenset[str]) -> State:
    n, era = doc.players, ERAS.index(doc.era)
    _check(2 <= n <= 4 and len(doc.seats) == n, "bad_seats", "2 to 4 players, one seat each")
    _check(sorted(doc.order) == list(range(n)), "bad_order", "order must list every seat once")
    _check(0 <= doc.turn <= n and doc.round >= 1 and 0 <= doc.actions_left <= 2, "bad_turn",
           "turn indexes the order, rounds count from 1, a turn has at most 2 actions")
    card = d.cards.index
    hands = [sorted(card(c) for c in x.hand) for x in doc.seats]
    discards = [[card(c) for c in x.discards] for x in doc.seats]
    facedown = [[card(c) for c in x.facedown] for x in doc.seats]
    held = Counter(c for i in range(n) for c in hands[i] + discards[i] + facedown[i])
    cards = Counter({k: c for k, c in enumerate(d.deck_copies[n]) if c})
    deck = sorted((cards - held).elements()) if doc.deck is None else [card(c) for c in doc.deck]
    _check(held + Counter(deck) == cards, "cards_not_conserved",
           f"the cards must be the {n}-player deck exactly")
    mats = [[x.mat.get(k, 0) for k in INDUSTRIES] for x in doc.seats]
    for i, x in enumerate(doc.seats):
        _check(set(x.mat) <= set(INDUSTRIES), "unknown_industry", f"seat {i}: mat industry")
        _check(all(0 <= t <= size for t, size in zip(mats[i], d.stacks.sizes, strict=True)),
               "bad_mat", f"seat {i}: a stack count out of range")
        _check(x.money >= 0 and x.spent >= 0 and 0 <= x.income_space <= d.income.last_space,
               "bad_seat", f"seat {i}: money, spending or income space out of range")
    ns = d.n_slots
    owner, ind, level, cubes, flipped = [-1] * ns, [-1] * ns, [0] * ns, [0] * ns, [False] * ns
    spaces = {d.slot_name(i): i for i in range(ns)}
    for t in doc.tiles:
        slot, k = spaces[t.space], INDUSTRIES.index(t.industry)
        _check(owner[slot] < 0 and k in d.slot_icons[slot] and 0 <= t.owner < n, "bad_tile",
               f"{t.space}: taken twice, wrong icon or no such owner")
        _check(t.level >= d.first_level[k], "bad_tile", f"{t.space}: no such level")
        row = d.tile(k, t.level)
        stays = era == 1 and t.level > 1 and row.canal  # built in the Canal Era, still here
        _check(row.buildable(era) or stays, "bad_tile",
               f"{t.space}: {t.industry} level {t.level} is not on the board in this era")
        _check(0 <= t.cubes <= row.cubes, "bad_tile", f"{t.space}: cubes out of range")
        owner[slot], ind[slot], level[slot] = t.owner, k, t.level
        cubes[slot], flipped[slot] = t.cubes, t.flipped
    link_owner, links = [-1] * d.n_links, {name: i for i, name in enumerate(d.link_names)}
    for lk in doc.links:
        li = links[lk.link]
        lines = d.link_rail if era else d.link_canal
        _check(link_owner[li] < 0 and 0 <= lk.owner < n and lines[li],
               "bad_link", f"{lk.link}: twice, no such owner or not of this era")
        link_owner[li] = lk.owner
    m, dm = doc.markets, doc.distant_market
    _check(0 <= m.coal <= d.coal_market.capacity and 0 <= m.iron <= d.iron_market.capacity,
           "bad_market", "market cubes out of range")
    left = sorted(d.demand_tiles[n] if dm.tiles_left is None else dm.tiles_left)
    _check(not Counter(left) - Counter(d.demand_tiles[n]), "bad_distant_market",
           "demand tiles must be some of the player count's")
    _check(0 <= dm.marker <= len(d.distant_market.income_spaces), "bad_distant_market",
           "the marker is off the track")
    _check(all(p.kind in step_kinds or p.kind == "round_end" for p in doc.pending), "bad_pending",
           "unknown pending step")
    _check(-1 <= doc.deciding < n and (doc.phase == "play" or not doc.pending), "bad_pending",
           "a pending decision needs the game in play, by a seat")
    _check(doc.phase != "play" or doc.turn < n or doc.deciding >= 0, "bad_turn",
           "in play, turn must index the order")
    return State(
        players=n, era=era, round=doc.round, phase=doc.phase, order=list(doc.order),
        turn=doc.turn, actions_left=doc.actions_left, money=[x.money for x in doc.seats],
        spent=[x.spent for x in doc.seats], income=[x.income_space for x in doc.seats],
        vp=[x.vp for x in doc.seats], hands=hands, deck=deck, discards=discards,
        facedown=facedown, mat=mats, slot_owner=owner, slot_ind=ind, slot_level=level,
        slot_cubes=cubes, slot_flipped=flipped, link_owner=link_owner, coal_market=m.coal,
        iron_market=m.iron, demand=dm.marker, demand_left=left,
        pending=[Step(p.kind, p.n, p.a, p.b) for p in doc.pending], deciding=doc.deciding,
    )  # fmt: skip


def from_view(d: Lancashire, view: dict[str, Any], rng: Random) -> dict[str, Any]:
    """The position document of a state ``view`` (a seat's) cannot tell from the real one,
    its hidden cards drawn with ``rng``."""
    if view["seat"] is None:
        raise ValueError("determinize needs a seat's view, not a spectator's")
    seat, players, index, name = view["seat"], view["players"], d.cards.index, d.cards.name
    own = [index(c) for c in view["hand"]]
    seen = own + [index(c) for p in players for c in p["discards"]]
    hands, facedown, deck = deal_unseen(
        unseen_cards(d.deck_copies[len(players)], seen), seat,
        [p["hand_count"] for p in players], [p["facedown_count"] for p in players],
        view["deck_count"], rng)  # fmt: skip
    hands[seat] = own
    turn_seat, order, playing = view["turn_seat"], view["order"], view["phase"] == "play"
    dm = view["distant_market"]
    return {
        "format": FORMAT, "players": len(players), "era": view["era"], "round": view["round"],
        "phase": view["phase"], "order": order,
        # no seat's turn in play: a round's end waiting for a seat's decision
        "turn": order.index(turn_seat) if turn_seat is not None else len(players) * playing,
        "actions_left": view["actions_left"],
        "seats": [{"money": p["money"], "spent": p["spent"], "income_space": p["income_space"],
                   "vp": p["vp"], "hand": [name(c) for c in sorted(hands[i])],
                   "discards": p["discards"], "facedown": [name(c) for c in facedown[i]],
                   "mat": {k: size - p["tiles_left"][k]
                           for k, size in zip(INDUSTRIES, d.stacks.sizes, strict=True)}}
                  for i, p in enumerate(players)],
        "deck": [name(c) for c in deck],
        "tiles": [{"space": t["space"], "owner": t["owner"], "industry": t["industry"],
                   "level": t["level"], "cubes": t["resources"], "flipped": t["flipped"]}
                  for t in view["tiles"]],
        "links": [{"link": lk["link"], "owner": lk["owner"]} for lk in view["links"]],
        "markets": {k: mk["cubes"] for k, mk in view["markets"].items()},
        "distant_market": {"marker": dm["marker"], "tiles_left": dm["tiles_left"]},
        "pending": view["pending"],
        "deciding": view["decision"]["seat"] if playing and turn_seat is None else -1,
    }  # fmt: skip
