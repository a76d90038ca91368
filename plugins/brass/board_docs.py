"""What clients read and write of a :class:`~plugins.brass.board_state.BoardState` board,
for any variant: the view's tiles, links, markets and players' stacks, the static board of
``GET /games``, the board's part of a position document (export, checked load, and the
same document rebuilt from a seat's view for ``determinize``), and the log's names and
payload shapes for the board events.

A variant's ``view`` and ``position`` modules add only their own parts (Lancashire's
distant market; Birmingham's merchants, wild cards and double rail) around these, through
the hooks of :func:`view_fields` (its own player class), :func:`static_board` (its own
layout) and :func:`fields_from_view` (cards known to be in a hand). ``industries`` are
the variant's industry names, ``names`` its client ids (``card``, ``space``, ``link``,
``location`` tables).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from random import Random
from typing import Any, Literal

import msgspec

from core.errors import InvalidPosition
from plugins.brass import client as fc
from plugins.brass import events as ev
from plugins.brass.events import Step
from plugins.brass.hidden import deal_unseen, unseen_cards
from plugins.brass.layout import Layout
from plugins.brass.layout import served as served_layout
from plugins.brass.log_payloads import _Payload, family_payloads, served
from plugins.brass.mat import EMPTY

ERAS = ("canal", "rail")

# --- the view ---------------------------------------------------------------------------------


class PlayerView(fc.PlayerCore, kw_only=True):
    hand_count: int
    discards: list[str]
    facedown_count: int
    next_tiles: dict[str, int | None]
    """Level of the lowest tile left on each industry stack (``None``: stack empty)."""
    tiles_left: dict[str, int]
    links_left: int


class TileView(fc.Doc, kw_only=True):
    space: str
    location: str
    owner: int
    industry: str
    level: int
    flipped: bool
    resources: int
    """The cubes on a tile that produces them (coal on a mine, iron on a works, a variant's
    own resource such as beer on a brewery); 0 on the others."""


class LinkView(fc.Doc, kw_only=True):
    link: str
    ends: list[str]
    owner: int
    kind: Literal["canal", "rail"]


class MarketView(fc.Doc, kw_only=True):
    cubes: int
    capacity: int
    buy_price: int
    """What the next cube bought costs (the empty-market price once it is empty)."""
    sell_price: int | None
    """What the next cube sold into it earns; ``None`` when it is full."""


def market_view(market: Any, cubes: int) -> MarketView:
    sold, money = market.sell(cubes, 1)
    return MarketView(cubes=cubes, capacity=market.capacity, buy_price=market.buy_cost(cubes, 1),
                      sell_price=money if sold else None)  # fmt: skip


def view_fields(
    d: Any, names: Any, s: Any, industries: Sequence[str],
    player: type[fc.PlayerCore] = PlayerView,
    player_extra: Callable[[int], dict[str, Any]] = lambda seat: {},
) -> dict[str, Any]:  # fmt: skip
    """The view's ``players``, ``tiles``, ``links`` and ``markets``. A variant showing more
    of each player passes its own ``player`` class (the fields above plus its own, in the
    order it serves them) and ``player_extra``, the extra fields of a seat."""
    kind = ERAS[s.era]
    return dict(
        players=[
            player(
                **fc.player_fields(d.income, s, i, names.card), **player_extra(i),
                next_tiles={n: None if lvl == EMPTY else lvl for n, lvl in zip(industries, (
                    d.stacks.top_level(k, t) for k, t in enumerate(s.mat[i])), strict=True)},
                tiles_left={n: d.stacks.sizes[k] - s.mat[i][k] for k, n in enumerate(industries)},
                links_left=max(0, d.rules.link_tiles - s.link_owner.count(i)),
            )
            for i in range(s.players)
        ],
        tiles=[TileView(space=names.space[slot], location=names.location[d.slot_loc[slot]],
                        owner=o, industry=industries[s.slot_ind[slot]], level=s.slot_level[slot],
                        flipped=s.slot_flipped[slot], resources=s.slot_cubes[slot])
               for slot, o in enumerate(s.slot_owner) if o >= 0],
        links=[LinkView(link=names.link[li], ends=[names.location[n] for n in d.link_nodes[li]],
                        owner=o, kind=kind) for li, o in enumerate(s.link_owner) if o >= 0],
        markets={"coal": market_view(d.coal_market, s.coal_market),
                 "iron": market_view(d.iron_market, s.iron_market)},
    )  # fmt: skip


def static_board(
    d: Any, names: Any, industries: Sequence[str], layout: Layout | None = None
) -> dict[str, Any]:
    """``GET /games`` metadata's board: locations, spaces with their icons, link lines,
    the markets' prices and the drawing ``layout`` (default ``d.layout``)."""
    return {
        "locations": [{"location": loc.id, "name": loc.name, "kind": loc.kind}
                      for loc in d.locations],
        "spaces": [{"space": names.space[slot], "location": names.location[d.slot_loc[slot]],
                    "icons": [industries[k] for k in d.slot_icons[slot]]}
                   for slot in range(d.n_slots)],
        "links": [{"link": names.link[li], "ends": [names.location[n] for n in nodes],
                   "canal": d.link_canal[li], "rail": d.link_rail[li]}
                  for li, nodes in enumerate(d.link_nodes)],
        "coal_market": {"prices": d.coal_market.prices, "empty_price": d.coal_market.empty_price},
        "iron_market": {"prices": d.iron_market.prices, "empty_price": d.iron_market.empty_price},
        "layout": served_layout(d.layout if layout is None else layout),
    }  # fmt: skip


# --- positions --------------------------------------------------------------------------------


class Doc(msgspec.Struct, forbid_unknown_fields=True, kw_only=True):
    """A part of a position document: unknown fields are refused."""


class SeatDoc(Doc, kw_only=True):
    money: int
    spent: int = 0
    income_space: int
    vp: int = 0
    hand: list[str] = []
    discards: list[str] = []
    facedown: list[str] = []
    mat: dict[str, int] = {}
    """Tiles already taken off each industry's stack (built or developed); default 0."""


class TileDoc(Doc, kw_only=True):
    space: str
    owner: int
    industry: str
    level: int
    cubes: int = 0
    flipped: bool = False


class LinkDoc(Doc, kw_only=True):
    link: str
    owner: int


class MarketsDoc(Doc, kw_only=True):
    coal: int
    iron: int


class StepDoc(Doc, kw_only=True):
    kind: str
    n: int = 0
    a: int = -1
    b: int = -1


class BoardPositionDoc(Doc, kw_only=True):
    """The board's part of a position document; a variant subclasses it with its
    ``format`` and its own fields."""

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
    pending: list[StepDoc] = []
    deciding: int = -1


def export_fields(d: Any, s: Any, industries: Sequence[str]) -> dict[str, Any]:
    """Keyword arguments of the variant's document class for the board of ``s``."""
    name = d.cards.name
    return dict(
        players=s.players, era=ERAS[s.era], round=s.round, phase=s.phase, order=list(s.order),
        turn=s.turn, actions_left=s.actions_left,
        seats=[SeatDoc(money=s.money[i], spent=s.spent[i], income_space=s.income[i], vp=s.vp[i],
                       hand=[name(c) for c in s.hands[i]],
                       discards=[name(c) for c in s.discards[i]],
                       facedown=[name(c) for c in s.facedown[i]],
                       mat=dict(zip(industries, s.mat[i], strict=True)))
               for i in range(s.players)],
        deck=[name(c) for c in s.deck],
        tiles=[TileDoc(space=d.slot_name(slot), owner=o, industry=industries[s.slot_ind[slot]],
                       level=s.slot_level[slot], cubes=s.slot_cubes[slot],
                       flipped=s.slot_flipped[slot])
               for slot, o in enumerate(s.slot_owner) if o >= 0],
        links=[LinkDoc(link=d.link_names[li], owner=o)
               for li, o in enumerate(s.link_owner) if o >= 0],
        markets=MarketsDoc(coal=s.coal_market, iron=s.iron_market),
        pending=[StepDoc(kind=p.kind, n=p.n, a=p.a, b=p.b) for p in s.pending],
        deciding=s.deciding,
    )  # fmt: skip


def check(ok: bool, code: str, message: str) -> None:
    if not ok:
        raise InvalidPosition(code, message)


def load_fields(
    d: Any, doc: BoardPositionDoc, industries: Sequence[str], step_kinds: frozenset[str]
) -> dict[str, Any]:
    """Keyword arguments of the variant's state for ``doc``'s board, checked: the cards are
    the player count's deck, tiles on spaces with their icon in an era they can be in,
    links of the era, markets in range, pending steps the variant knows."""
    n, era = doc.players, ERAS.index(doc.era)
    check(2 <= n <= 4 and len(doc.seats) == n, "bad_seats", "2 to 4 players, one seat each")
    check(sorted(doc.order) == list(range(n)), "bad_order", "order must list every seat once")
    check(0 <= doc.turn <= n and doc.round >= 1 and 0 <= doc.actions_left <= 2, "bad_turn",
          "turn indexes the order, rounds count from 1, a turn has at most 2 actions")
    card = d.cards.index
    hands = [sorted(card(c) for c in x.hand) for x in doc.seats]
    discards = [[card(c) for c in x.discards] for x in doc.seats]
    facedown = [[card(c) for c in x.facedown] for x in doc.seats]
    held = Counter(c for i in range(n) for c in hands[i] + discards[i] + facedown[i])
    cards = Counter({k: c for k, c in enumerate(d.deck_copies[n]) if c})
    deck = sorted((cards - held).elements()) if doc.deck is None else [card(c) for c in doc.deck]
    check(held + Counter(deck) == cards, "cards_not_conserved",
          f"the cards must be the {n}-player deck exactly")
    mats = [[x.mat.get(k, 0) for k in industries] for x in doc.seats]
    for i, x in enumerate(doc.seats):
        check(set(x.mat) <= set(industries), "unknown_industry", f"seat {i}: mat industry")
        check(all(0 <= t <= size for t, size in zip(mats[i], d.stacks.sizes, strict=True)),
              "bad_mat", f"seat {i}: a stack count out of range")
        check(x.money >= 0 and x.spent >= 0 and 0 <= x.income_space <= d.income.last_space,
              "bad_seat", f"seat {i}: money, spending or income space out of range")
    ns = d.n_slots
    owner, ind, level, cubes, flipped = [-1] * ns, [-1] * ns, [0] * ns, [0] * ns, [False] * ns
    spaces = {d.slot_name(i): i for i in range(ns)}
    for t in doc.tiles:
        slot, k = spaces[t.space], list(industries).index(t.industry)
        check(owner[slot] < 0 and k in d.slot_icons[slot] and 0 <= t.owner < n, "bad_tile",
              f"{t.space}: taken twice, wrong icon or no such owner")
        check(t.level >= d.first_level[k], "bad_tile", f"{t.space}: no such level")
        row = d.tile(k, t.level)
        stays = era == 1 and t.level > 1 and row.canal  # built in the canal era, still here
        check(row.buildable(era) or stays, "bad_tile",
              f"{t.space}: {t.industry} level {t.level} is not on the board in this era")
        check(0 <= t.cubes <= max(row.produce(0), row.produce(1)), "bad_tile",
              f"{t.space}: cubes out of range")
        owner[slot], ind[slot], level[slot] = t.owner, k, t.level
        cubes[slot], flipped[slot] = t.cubes, t.flipped
    link_owner, links = [-1] * d.n_links, {name: i for i, name in enumerate(d.link_names)}
    for lk in doc.links:
        li, lines = links[lk.link], d.link_rail if era else d.link_canal
        check(link_owner[li] < 0 and 0 <= lk.owner < n and lines[li],
              "bad_link", f"{lk.link}: twice, no such owner or not of this era")
        link_owner[li] = lk.owner
    m = doc.markets
    check(0 <= m.coal <= d.coal_market.capacity and 0 <= m.iron <= d.iron_market.capacity,
          "bad_market", "market cubes out of range")
    check(all(p.kind in step_kinds or p.kind == "round_end" for p in doc.pending),
          "bad_pending", "unknown pending step")
    check(-1 <= doc.deciding < n and (doc.phase == "play" or not doc.pending), "bad_pending",
          "a pending decision needs the game in play, by a seat")
    check(doc.phase != "play" or doc.turn < n or doc.deciding >= 0, "bad_turn",
          "in play, turn must index the order")
    return dict(
        players=n, era=era, round=doc.round, phase=doc.phase, order=list(doc.order),
        turn=doc.turn, actions_left=doc.actions_left, money=[x.money for x in doc.seats],
        spent=[x.spent for x in doc.seats], income=[x.income_space for x in doc.seats],
        vp=[x.vp for x in doc.seats], hands=hands, deck=deck, discards=discards,
        facedown=facedown, mat=mats, slot_owner=owner, slot_ind=ind, slot_level=level,
        slot_cubes=cubes, slot_flipped=flipped, link_owner=link_owner, coal_market=m.coal,
        iron_market=m.iron, pending=[Step(p.kind, p.n, p.a, p.b) for p in doc.pending],
        deciding=doc.deciding,
    )  # fmt: skip


def fields_from_view(
    d: Any, view: dict[str, Any], rng: Random, industries: Sequence[str],
    public_hand: Callable[[dict[str, Any]], list[int]] = lambda player: [],
) -> dict[str, Any]:  # fmt: skip
    """The board part of the position document of a state ``view`` (a seat's) cannot tell
    from the real one: what the seat cannot see (other hands, face-down cards, the deck) is
    dealt with ``rng`` from the cards it cannot account for. ``public_hand`` gives the cards
    of a player's view everyone knows are in that hand and that are no deck cards
    (Birmingham's wild cards): they stay where they are, and are dealt around."""
    if view["seat"] is None:
        raise ValueError("determinize needs a seat's view, not a spectator's")
    seat, players, index, name = view["seat"], view["players"], d.cards.index, d.cards.name
    own, public = [index(c) for c in view["hand"]], [public_hand(p) for p in players]
    seen = [c for c in own if c not in public[seat]]
    seen += [index(c) for p in players for c in p["discards"]]
    hands, facedown, deck = deal_unseen(
        unseen_cards(d.deck_copies[len(players)], seen), seat,
        [p["hand_count"] - len(w) for p, w in zip(players, public, strict=True)],
        [p["facedown_count"] for p in players], view["deck_count"], rng)  # fmt: skip
    hands = [h + w for h, w in zip(hands, public, strict=True)]
    hands[seat] = own
    turn_seat, order, playing = view["turn_seat"], view["order"], view["phase"] == "play"
    return {
        "players": len(players), "era": view["era"], "round": view["round"],
        "phase": view["phase"], "order": order,
        # no seat's turn in play: a round's end waiting for a seat's decision
        "turn": order.index(turn_seat) if turn_seat is not None else len(players) * playing,
        "actions_left": view["actions_left"],
        "seats": [{"money": p["money"], "spent": p["spent"], "income_space": p["income_space"],
                   "vp": p["vp"], "hand": [name(c) for c in sorted(hands[i])],
                   "discards": p["discards"], "facedown": [name(c) for c in facedown[i]],
                   "mat": {k: size - p["tiles_left"][k]
                           for k, size in zip(industries, d.stacks.sizes, strict=True)}}
                  for i, p in enumerate(players)],
        "deck": [name(c) for c in deck],
        "tiles": [{"space": t["space"], "owner": t["owner"], "industry": t["industry"],
                   "level": t["level"], "cubes": t["resources"], "flipped": t["flipped"]}
                  for t in view["tiles"]],
        "links": [{"link": lk["link"], "owner": lk["owner"]} for lk in view["links"]],
        "markets": {k: mk["cubes"] for k, mk in view["markets"].items()},
        "pending": view["pending"],
        "deciding": view["decision"]["seat"] if playing and turn_seat is None else -1,
    }  # fmt: skip


# --- the log --------------------------------------------------------------------------------

SPACE_EVENTS: tuple[type, ...] = (ev.CubeTaken, ev.Flipped, ev.Produced, ev.Liquidated,
                                  ev.TilePlaced)  # fmt: skip
"""The board events naming a slot, served as ``space``."""
SPACE = {"slot": "space"}


def rename(
    names: Any, industries: Sequence[str], e: Any, out: dict[str, Any],
    space_events: tuple[type, ...] = SPACE_EVENTS,
) -> dict[str, Any]:  # fmt: skip
    """The ``rename`` hook of :func:`plugins.brass.log.redact_log` for the board events
    (a variant passes its own slot-naming events in ``space_events``)."""
    t = type(e)
    if t in space_events:
        out = {("space" if k == "slot" else k): v for k, v in out.items()}
        out["space"] = names.space[e.slot]
    if t is ev.TilePlaced or t is ev.TileDeveloped:
        out["industry"] = industries[e.industry]
    elif t is ev.LinkPlaced:
        out["link"] = names.link[e.link]
    elif t is ev.LoanTaken:
        out = {("income_space" if k == "space" else k): v for k, v in out.items()}
    return out


class StartedLog(_Payload, kw_only=True):
    """A first deal as the log serves it: only the reader's own hand by name."""

    players: int
    order: list[int]
    deck_count: int
    hand_counts: list[int]
    facedown_counts: list[int]
    hand: list[str] | None


def board_payloads(decision: type[msgspec.Struct]) -> dict[str, type[msgspec.Struct]]:
    """The served payloads of the family's shared and board events (:func:`rename`)."""
    return {
        **family_payloads(decision),
        "started": StartedLog,
        "tile_placed": served(ev.TilePlaced, SPACE, {"space": str, "industry": str}),
        "link_placed": served(ev.LinkPlaced, retyped={"link": str}),
        "tile_developed": served(ev.TileDeveloped, retyped={"industry": str}),
        "cube_taken": served(ev.CubeTaken, SPACE, {"space": str}),
        "market_bought": served(ev.MarketBought),
        "produced": served(ev.Produced, SPACE, {"space": str}),
        "flipped": served(ev.Flipped, SPACE, {"space": str}),
        "loan_taken": served(ev.LoanTaken, {"space": "income_space"}),
        "liquidated": served(ev.Liquidated, SPACE, {"space": str}),
    }
