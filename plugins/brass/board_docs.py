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
from collections.abc import Callable, Iterable, Mapping, Sequence
from random import Random
from typing import Any, Literal, TypeVar

import msgspec

from core.errors import InvalidPosition
from plugins.brass import client as fc
from plugins.brass import events as ev
from plugins.brass.events import Step
from plugins.brass.hidden import deal_from_view, dealt, turn_from_view
from plugins.brass.layout import Layout
from plugins.brass.layout import served as served_layout
from plugins.brass.log_payloads import (
    Named,
    _Payload,
    family_payloads,
    named_payloads,
    rename_named,
)
from plugins.brass.market_buys import MarketBuys
from plugins.brass.mat import EMPTY

ERAS = ("canal", "rail")
CANAL, RAIL = 0, 1
T = TypeVar("T")
D = TypeVar("D", bound=fc.Decision)

# --- the view ---------------------------------------------------------------------------------


class PlayerView(fc.PlayerCore, kw_only=True):
    next_tiles: dict[str, int | None]
    """Level of the lowest tile left on each industry stack (``None``: stack empty)."""
    tiles_left: dict[str, int]
    links_left: int
    """Link tiles not on the board (canal links come back when the canal era ends)."""


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


# The decision of a board: the family's, with the ids of the location, build space or link
# line it is for (a variant adds its own: Birmingham's merchant). No docstring: the OpenAPI
# document shows each game's decision with the words its own subclass gives, if any.
class Decision(fc.PlaceDecision, kw_only=True):
    link: str | None = None


class BoardViewDoc(fc.TurnView, kw_only=True):
    """The view document of a board whose players, tiles, links and markets are the
    family's (:func:`view_fields`) and the board's :class:`Decision`; a variant subclasses it
    with its own parts (Lancashire's distant market)."""

    decision: Decision
    players: list[PlayerView]
    tiles: list[TileView]
    links: list[LinkView]
    markets: dict[str, MarketView]
    market_buys: MarketBuys | None = None
    """In the view of the seat to act, between its actions and at a second rail's or
    development's offer: the coal and iron it would buy from the markets
    (:mod:`plugins.brass.market_buys`; :class:`~plugins.brass.engine_game.EngineGame` adds it)."""


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
    d: Any, names: Any, industries: Sequence[str], develop: Step, layout: Layout | None = None
) -> dict[str, Any]:
    """``GET /games`` metadata's board: locations, spaces with their icons, link lines,
    the markets' prices, the prices of what a move builds or develops (:func:`prices`;
    ``develop`` is the variant's ``develop_payment``) and the drawing ``layout`` (default
    ``d.layout``)."""
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
        **prices(d, industries, develop),
        "layout": served_layout(d.layout if layout is None else layout),
    }  # fmt: skip


def prices(d: Any, industries: Sequence[str], develop: Step) -> dict[str, Any]:
    """What a build, a link or a development costs, as printed, so that a client can say
    it before the move is posted: ``tiles``, each industry's tile table (its rows lowest
    level first, the data file's columns: ``money``, ``coal`` and ``iron`` are the cost);
    ``link_costs``, the money and coal of a canal, a rail and the extra of a second rail in
    one action (a variant adds its own: Birmingham's beer); ``develop_cost``, the cubes one
    tile developed away takes (``develop``: one iron). The cubes come from the board or the
    market when the move is played; their price is not in here."""
    r = d.rules
    rail = {"money": r.rail_link_cost, "coal": r.coal_per_rail}
    return {
        "tiles": {name: [msgspec.to_builtins(row) for row in rows]
                  for name, rows in zip(industries, d.tiles, strict=True)},
        "link_costs": {"canal": {"money": r.canal_link_cost}, "rail": rail,
                       "second_rail": {**rail, "money": r.double_rail_cost - r.rail_link_cost}},
        "develop_cost": {develop.kind: develop.n},
    }  # fmt: skip


class Prompts(msgspec.Struct, frozen=True, kw_only=True):
    """A variant's wording of the decisions every board has (:func:`describe_step`):
    ``{n}`` stands for the count, ``{s}`` for a plural's "s", ``{where}`` for the location
    or link line the coal is for; ``offers`` are the optional continuations by step kind
    (the decision's kind and prompt, answered by it or ``done``), those of ``counted``
    showing the step's count; ``actions`` the move types of the choice of an action. A
    board without coal, iron or liquidation steps (Pittsburgh) leaves their words out."""

    discard: str
    coal: str = ""
    iron: str = ""
    liquidate: str = ""
    offers: Mapping[str, tuple[str, str]]
    counted: frozenset[str] = frozenset()
    actions: list[str]


def describe_step(
    names: Any, step: Step, actions_left: int, prompts: Prompts, decision: Callable[..., D]
) -> D:
    """The pending ``step`` of a kind every board has (paying cards, coal, iron, an offer to
    continue, liquidation; else the choice of an action) as a ``decision`` of the variant's
    class (with ``location`` and ``link`` fields), worded by ``prompts``."""
    k, n = step.kind, step.n
    plural = "s" if n != 1 else ""
    if k == "discard":
        prompt = prompts.discard.format(n=n, s=plural)
        return decision(kind="discard", moves=["discard"], count=n, prompt=prompt)
    if k in ("coal", "link_coal"):
        where = names.location[step.a] if k == "coal" else names.link[step.a]
        return decision(kind="pick_coal", moves=["pick_coal"], count=n,
                        location=where if k == "coal" else None,
                        link=where if k == "link_coal" else None,
                        prompt=prompts.coal.format(n=n, where=where))  # fmt: skip
    if k == "iron":
        return decision(kind="pick_iron", moves=["pick_iron"], count=n,
                        prompt=prompts.iron.format(n=n))  # fmt: skip
    if k in prompts.offers:
        kind, prompt = prompts.offers[k]
        return decision(kind=kind, moves=[kind, "done"], prompt=prompt.format(n=n, s=plural),
                        count=n if k in prompts.counted else None)  # fmt: skip
    if k == "liquidate":
        return decision(kind="liquidate", moves=["liquidate"], count=n,
                        prompt=prompts.liquidate.format(n=n))  # fmt: skip
    return decision(kind="action", moves=prompts.actions,
                    prompt=f"choose an action ({actions_left} left this turn)")  # fmt: skip


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
    """A seat deciding outside its turn (round-end liquidation), else -1."""


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


def load_doc(raw: Any, doc_type: type[T], title: str) -> T:
    """``raw`` as the variant's document class; a wrong shape is ``invalid_position``."""
    try:
        return msgspec.convert(raw, doc_type)
    except msgspec.ValidationError as exc:
        message = f"not a {title} position document: {exc}"
        raise InvalidPosition("invalid_position", message) from None


def load_fields(
    d: Any, doc: Any, industries: Sequence[str], step_kinds: Iterable[str], title: str, *,
    aliases: Mapping[str, str] = {}, wild_supply: Sequence[int] | None = None,
    one_per_location: bool = True, board_extra: Callable[[], dict[str, Any]] = dict,
) -> dict[str, Any]:  # fmt: skip
    """Keyword arguments of the variant's state for ``doc``'s board, each impossible fact
    refused with its own code (``CLIENTS.md`` of Birmingham lists them): seats, turn and
    actions; the cards the player count's deck exactly (card names read through
    ``aliases``; the data's wild cards only in hands, one of each at most, and with the
    supply ``wild_supply``, default what the hands leave, their full count); mats, money
    and income; tiles on spaces with their icon, in an era they can be on the board, as
    many as the mats gave, cubes as they flip; links of the era, no more than a seat owns;
    markets; then ``board_extra``, the variant's own parts (checked, as more fields); last
    the pending steps (of ``step_kinds`` or ``round_end``), phase and deciding seat."""
    n = doc.players
    check(2 <= n <= 4, "bad_player_count", f"{title} takes 2 to 4 players")
    check(len(doc.seats) == n, "bad_seats", f"seats must list {n} players")
    check(sorted(doc.order) == list(range(n)), "bad_order", "order must list every seat once")
    check(0 <= doc.turn <= n, "bad_turn", "turn must index the order")
    era = ERAS.index(doc.era)
    check(doc.round >= 1, "bad_round", "rounds are counted from 1")
    first_round, tr = era == CANAL and doc.round == 1, d.turn_rules
    per_turn = tr.actions_first_round if first_round else tr.actions_per_turn
    actions_left = per_turn if doc.actions_left is None else doc.actions_left
    check(0 <= actions_left <= per_turn, "bad_actions", f"actions_left must be 0 to {per_turn}"
          + (" in the first canal round" if first_round else ""))  # fmt: skip

    def card(name: str) -> int:
        try:
            return d.cards.index(aliases.get(name, name))  # type: ignore[no-any-return]
        except KeyError:
            raise InvalidPosition("unknown_card", f"no card named {name!r}") from None

    hands = [sorted(card(c) for c in seat.hand) for seat in doc.seats]
    discards = [[card(c) for c in seat.discards] for seat in doc.seats]
    facedown = [[card(c) for c in seat.facedown] for seat in doc.seats]
    wild = tr.wild_cards
    expected = Counter({k: c for k, c in enumerate(d.deck_copies[n]) if c})
    regular: Counter[int] = Counter()
    for i in range(n):
        regular.update(hands[i])
        regular.update(discards[i] + facedown[i])
    if doc.deck is None:
        # a hand-written puzzle rarely cares about the draw order, only about what is held
        deck = sorted((expected - Counter({k: c for k, c in regular.items()
                                           if k not in wild})).elements())  # fmt: skip
    else:
        deck = [card(c) for c in doc.deck]
    regular.update(deck)
    for i in range(n):
        check(len(hands[i]) <= tr.hand_size, "hand_too_big",
              f"seat {i} holds more than {tr.hand_size} cards")  # fmt: skip
        # scouting gives one of each and is refused while a wild card is held
        check(all(hands[i].count(w) <= 1 for w in wild), "too_many_wild_cards",
              f"seat {i} holds two wild cards of one kind")  # fmt: skip
    held_wild = [regular.pop(w, 0) for w in wild]
    check(not any(c in wild for c in deck) and not any(
        c in wild for i in range(n) for c in discards[i] + facedown[i]),
        "wild_card_misplaced", "wild cards are only ever in hands or their supply")  # fmt: skip
    check(regular == expected, "cards_not_conserved", "deck, hands, discards and face-down "
          f"cards must hold the {n}-player deck exactly")  # fmt: skip
    full = list(d.wild_supply) if wild else []
    supply = list(wild_supply) if wild_supply is not None else [
        f - h for f, h in zip(full, held_wild, strict=True)]  # fmt: skip
    check([s + h for s, h in zip(supply, held_wild, strict=True)] == full,
          "wild_cards_not_conserved",
          f"wild cards in hands plus supply must be {full[0] if full else 0} of each")  # fmt: skip

    mats = []
    for i, seat in enumerate(doc.seats):
        check(not set(seat.mat) - set(industries), "unknown_industry",
              f"seat {i}: unknown industry in mat")  # fmt: skip
        row = [seat.mat[name] if name in seat.mat else _fewest_taken(d, doc.tiles, i, name, k)
               for k, name in enumerate(industries)]  # fmt: skip
        for k, taken in enumerate(row):
            check(0 <= taken <= d.stacks.sizes[k], "bad_mat",
                  f"seat {i}: {industries[k]} stack count out of range")  # fmt: skip
        mats.append(row)
        check(seat.money >= 0 and seat.spent >= 0, "negative_money",
              f"seat {i}: money and spending cannot be negative")  # fmt: skip
        check(0 <= seat.income_space <= d.income.last_space, "bad_income",
              f"seat {i}: income space off the track")  # fmt: skip

    ns = d.n_slots
    owner, ind, level, cubes, flipped = [-1] * ns, [-1] * ns, [0] * ns, [0] * ns, [False] * ns
    # a tile just built whose cubes are still to come (its action waits for a payment)
    producing = {p.a for p in doc.pending if p.kind == "produce"}
    space_index = {d.slot_name(i): i for i in range(ns)}
    on_board: Counter[tuple[int, int, int]] = Counter()
    for t in doc.tiles:
        slot = space_index.get(t.space)
        check(slot is not None, "unknown_space", f"no build space {t.space!r}")
        assert slot is not None
        check(owner[slot] < 0, "space_taken_twice", f"two tiles on {t.space}")
        check(t.industry in industries, "unknown_industry", f"unknown industry {t.industry!r}")
        k = industries.index(t.industry)
        check(k in d.slot_icons[slot], "wrong_space",
              f"{t.space} does not show the {t.industry} icon")  # fmt: skip
        check(0 <= t.owner < n, "bad_owner", f"tile on {t.space} belongs to no seat")
        first = d.first_level[k]
        check(first <= t.level < first + len(d.tiles[k]), "bad_level",
              f"{t.industry} has no level {t.level}")  # fmt: skip
        tile = d.tile(k, t.level)
        most = max(tile.produce(CANAL), tile.produce(RAIL))
        if not most:
            check(not t.cubes, "cubes_not_conserved", f"{t.space}: a {t.industry} holds no cubes")
        else:
            check((t.flipped == (t.cubes == 0) or slot in producing) and 0 <= t.cubes <= most,
                  "cubes_not_conserved", f"{t.space}: a resource tile flips exactly when its "
                  f"last cube goes (1..{most} cubes while unflipped)")  # fmt: skip
        stays = era == RAIL and t.level > 1 and tile.canal  # built in the canal era, still here
        check(tile.buildable(era) or stays, "tile_wrong_era", f"{t.industry} level {t.level} "
              f"cannot be on the board in the {doc.era} era")  # fmt: skip
        owner[slot], ind[slot], level[slot] = t.owner, k, t.level
        cubes[slot], flipped[slot] = t.cubes, t.flipped
        on_board[(t.owner, k, t.level)] += 1
    for (seat, k, lvl), count in on_board.items():
        taken = d.stacks.taken(k, mats[seat][k]).count(lvl)
        owned, what = d.stacks.sequence[k].count(lvl), f"{industries[k]} level {lvl} tiles"
        check(count <= owned, "tiles_not_conserved", f"seat {seat} has {count} {what} on the "
              f"board, but a player has only {owned} {what}")  # fmt: skip
        check(count <= taken, "tiles_not_conserved", f"seat {seat} has {count} {what} on the "
              f"board but only {taken} taken off its mat")  # fmt: skip
    if era == CANAL and one_per_location:
        for loc_slots in d.loc_slots:
            owners = [owner[sl] for sl in loc_slots if owner[sl] >= 0]
            check(len(owners) == len(set(owners)), "one_industry_per_location",
                  "canal era: one industry per location per seat")  # fmt: skip

    link_owner = [-1] * d.n_links
    link_index = {name: i for i, name in enumerate(d.link_names)}
    for lk in doc.links:
        li = link_index.get(lk.link)
        check(li is not None, "unknown_link", f"no link line {lk.link!r}")
        assert li is not None
        check(link_owner[li] < 0, "link_twice", f"two links on {lk.link}")
        check(0 <= lk.owner < n, "bad_owner", f"link {lk.link} belongs to no seat")
        check((d.link_rail if era else d.link_canal)[li], "link_wrong_era",
              f"{lk.link} cannot carry a {doc.era} link")  # fmt: skip
        link_owner[li] = lk.owner
    for seat in range(n):
        most = d.rules.link_tiles
        check(link_owner.count(seat) <= most, "too_many_links",
              f"seat {seat} has more than its {most} link tiles on the board")  # fmt: skip

    m = doc.markets
    check(0 <= m.coal <= d.coal_market.capacity, "bad_market", "coal market count out of range")
    check(0 <= m.iron <= d.iron_market.capacity, "bad_market", "iron market count out of range")
    extra = board_extra()

    kinds = {*step_kinds, "round_end"}
    for p in doc.pending:
        check(p.kind in kinds, "bad_pending", f"unknown pending step {p.kind!r}")
    check(not doc.pending or doc.phase == "play", "bad_pending",
          "a pending decision needs the game in play")  # fmt: skip
    check(doc.phase != "scoring" or not (deck or any(hands)), "bad_phase",
          "an era ends only when the deck and every hand are empty")  # fmt: skip
    at_round_end = doc.turn == n and bool(doc.pending)
    check(-1 <= doc.deciding < n and (doc.deciding >= 0) == at_round_end, "bad_deciding",
          "a seat decides outside its turn only at a round's end")  # fmt: skip
    check(doc.phase != "play" or doc.turn < n or doc.deciding >= 0, "bad_turn",
          "in play, turn must index the order")  # fmt: skip
    return dict(
        players=n, era=era, round=doc.round, phase=doc.phase, order=list(doc.order),
        turn=doc.turn, actions_left=actions_left, money=[x.money for x in doc.seats],
        spent=[x.spent for x in doc.seats], income=[x.income_space for x in doc.seats],
        vp=[x.vp for x in doc.seats], hands=hands, deck=deck, discards=discards,
        facedown=facedown, wild_supply=supply, mat=mats, slot_owner=owner, slot_ind=ind,
        slot_level=level, slot_cubes=cubes, slot_flipped=flipped, link_owner=link_owner,
        coal_market=m.coal, iron_market=m.iron, **extra,
        pending=[Step(p.kind, p.n, p.a, p.b) for p in doc.pending], deciding=doc.deciding,
    )  # fmt: skip


def _fewest_taken(d: Any, tiles: list[TileDoc], seat: int, industry: str, k: int) -> int:
    """The fewest tiles off ``industry``'s stack that account for ``seat``'s tiles of it on
    the board, so that hand-written documents need not count the mat (0 if none can)."""
    on_board = Counter(t.level for t in tiles if t.owner == seat and t.industry == industry)
    levels = d.stacks.sequence[k]
    need = 0
    for level, count in on_board.items():
        at = [pos for pos, lvl in enumerate(levels) if lvl == level]
        if count > len(at):
            return 0
        need = max(need, at[count - 1] + 1)
    return need


def fields_from_view(
    d: Any, view: dict[str, Any], rng: Random, industries: Sequence[str],
    public_hand: Callable[[dict[str, Any]], list[int]] = lambda player: [],
) -> dict[str, Any]:  # fmt: skip
    """The board part of the position document of a state ``view`` (a seat's) cannot tell
    from the real one: what the seat cannot see (other hands, face-down cards, the deck) is
    dealt with ``rng`` from the cards it cannot account for. ``public_hand`` gives the cards
    of a player's view everyone knows are in that hand and that are no deck cards
    (Birmingham's wild cards): they stay where they are, and are dealt around."""
    players, name = view["players"], d.cards.name
    hands, facedown, deck = deal_from_view(view, d.deck_copies[len(players)], d.cards.index,
                                           rng, [public_hand(p) for p in players])  # fmt: skip
    turn, deciding = turn_from_view(view)
    return {
        "players": len(players), "era": view["era"], "round": view["round"],
        "phase": view["phase"], "order": view["order"],
        "turn": turn, "actions_left": view["actions_left"],
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
        "deciding": deciding,
    }  # fmt: skip


# --- the log --------------------------------------------------------------------------------

SPACE = {"slot": "space"}
ON_SLOT = Named(SPACE, {"space": "space"})
"""An event naming a slot, served as ``space``."""
BOARD_LOG: dict[type, Named] = {
    ev.TilePlaced: Named(SPACE, {"space": "space", "industry": "industry"}),
    ev.LinkPlaced: Named(ids={"link": "link"}),
    ev.TileDeveloped: Named(ids={"industry": "industry"}), ev.CubeTaken: ON_SLOT,
    ev.MarketBought: Named(), ev.Produced: ON_SLOT, ev.Flipped: ON_SLOT,
    ev.LoanTaken: Named({"space": "income_space"}), ev.Liquidated: ON_SLOT,
}  # fmt: skip
"""How the log serves the board events: ids by the variant's ``space``, ``link`` and
``industry`` tables (:func:`rename`)."""


def started_log(
    e: Any, seat: int | None, card: Callable[[int], str], **more: Any
) -> dict[str, Any]:
    """A board's ``Started`` event as ``seat`` may read it: players and order, the variant's
    ``more`` (Birmingham's merchant tiles), then the deal with hidden cards as counts."""
    return {"players": e.players, "order": e.order, **more,
            **dealt(e.deck, e.hands, e.facedown, seat, card)}  # fmt: skip


def rename(
    names: Any, industries: Sequence[str], e: Any, out: dict[str, Any],
    table: Mapping[type, Named] = BOARD_LOG,
) -> dict[str, Any]:  # fmt: skip
    """The ``rename`` hook of :func:`plugins.brass.log.redact_log` for the events of
    ``table`` (the board's; a variant adds its own slot-naming events)."""
    ids = {"space": names.space, "link": names.link, "industry": industries}
    return rename_named(table, ids, e, out)


class StartedLog(_Payload, kw_only=True):
    """A first deal as the log serves it: only the reader's own hand by name."""

    players: int
    order: list[int]
    deck_count: int
    hand_counts: list[int]
    facedown_counts: list[int]
    hand: list[str] | None


def board_payloads(decision: type[msgspec.Struct]) -> dict[str, type[msgspec.Struct]]:
    """The served payloads of the family's shared and board events (:data:`BOARD_LOG`)."""
    return {**family_payloads(decision), "started": StartedLog, **named_payloads(BOARD_LOG)}
