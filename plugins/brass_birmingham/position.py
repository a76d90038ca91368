"""Position documents: the full state as JSON with names instead of indices.

The form is documented in the "Positions" section of ``CLIENTS.md``. :func:`load` validates
a document and refuses an impossible one with :class:`core.errors.InvalidPosition` (code +
sentence).
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any, Literal, NoReturn

import msgspec

from core.errors import InvalidPosition
from plugins.brass import board_docs as bd
from plugins.brass.state import PLAY, SCORING
from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham.data import INDUSTRIES, SELLABLE, Birmingham
from plugins.brass_birmingham.names import Names
from plugins.brass_birmingham.state import CANAL, State

FORMAT = "brass-birmingham/1"
LEGACY_CARD_NAMES = {"wild_location": "wild:location", "wild_industry": "wild:industry"}
"""Wild card names of the first release, still read so stored matches replay."""
ERAS = bd.ERAS
WILD_KINDS = ("location", "industry")
"""The keys of the view's ``wild_cards`` and ``wild_supply``."""
STEP_KINDS = frozenset({
    "coal", "link_coal", "iron", "beer", "rail_beer", "discard", "scout", "produce", "flip",
    "bonus", "more_link", "more_sell", "more_develop", "free_develop", "liquidate", "round_end",
})  # fmt: skip


class MerchantDoc(bd.Doc, kw_only=True):
    location: str
    tile: str | None
    beer: int = 0


class WildDoc(bd.Doc, kw_only=True):
    location: int
    industry: int


class PositionDoc(bd.Doc, kw_only=True):
    """The family's board document (:mod:`plugins.brass.board_docs`) with the wild cards'
    supply and the merchants, in the order Birmingham has always served them."""

    format: Literal["brass-birmingham/1"] = FORMAT
    players: int
    era: Literal["canal", "rail"] = "canal"
    round: int = 1
    phase: Literal["play", "scoring", "over"] = "play"
    order: list[int]
    turn: int = 0
    actions_left: int | None = None
    """Actions left in the current seat's turn; default: a full turn of this round."""
    seats: list[bd.SeatDoc]
    deck: list[str] | None = None
    """Top card last; default: every card held nowhere else, in card-table order."""
    wild_supply: WildDoc | None = None
    tiles: list[bd.TileDoc] = []
    links: list[bd.LinkDoc] = []
    markets: bd.MarketsDoc
    merchants: list[MerchantDoc]
    """One entry per merchant space, in board order (``tile`` null on an unused space)."""
    pending: list[bd.StepDoc] = []
    deciding: int = -1
    """A seat deciding outside its turn (round-end liquidation), else -1."""


def export(d: Birmingham, s: State) -> dict[str, Any]:
    tile_ids = [t.id for t in d.merchant_tiles]
    doc = PositionDoc(
        **bd.export_fields(d, s, INDUSTRIES),
        wild_supply=WildDoc(location=s.wild_supply[0], industry=s.wild_supply[1]),
        merchants=[
            MerchantDoc(location=d.locations[d.merchant_loc[m]].id,
                        tile=None if t < 0 else tile_ids[t], beer=s.merchant_beer[m])
            for m, t in enumerate(s.merchant_tile)
        ],
    )  # fmt: skip
    return msgspec.to_builtins(doc)


def _fail(code: str, message: str) -> NoReturn:
    raise InvalidPosition(code, message)


def _fewest_taken(d: Birmingham, tiles: list[bd.TileDoc], seat: int, industry: str) -> int:
    """The fewest tiles off ``industry``'s stack that account for ``seat``'s tiles of it on
    the board, so that hand-written documents need not count the mat (0 if none can)."""
    on_board = Counter(t.level for t in tiles if t.owner == seat and t.industry == industry)
    levels = d.stacks.sequence[INDUSTRIES.index(industry)]
    need = 0
    for level, count in on_board.items():
        at = [pos for pos, lvl in enumerate(levels) if lvl == level]
        if count > len(at):
            return 0
        need = max(need, at[count - 1] + 1)
    return need


def load(d: Birmingham, raw: dict[str, Any]) -> State:
    try:
        doc = msgspec.convert(raw, PositionDoc)
    except msgspec.ValidationError as exc:
        raise InvalidPosition(
            "invalid_position", f"not a Brass: Birmingham position document: {exc}"
        ) from None
    n = doc.players
    if not 2 <= n <= 4:
        _fail("bad_player_count", "Brass: Birmingham takes 2 to 4 players")
    if len(doc.seats) != n:
        _fail("bad_seats", f"seats must list {n} players")
    if sorted(doc.order) != list(range(n)):
        _fail("bad_order", "order must list every seat once")
    if not 0 <= doc.turn <= n:
        _fail("bad_turn", "turn must index the order")
    era = ERAS.index(doc.era)
    if doc.round < 1:
        _fail("bad_round", "rounds are counted from 1")
    first_round = era == CANAL and doc.round == 1
    per_turn = d.rules.actions_first_round if first_round else d.rules.actions_per_turn
    actions_left = per_turn if doc.actions_left is None else doc.actions_left
    if not 0 <= actions_left <= per_turn:
        _fail(
            "bad_actions",
            f"actions_left must be 0 to {per_turn}"
            + (" in the first canal round" if first_round else ""),
        )

    def card(name: str) -> int:
        try:
            return d.cards.index(LEGACY_CARD_NAMES.get(name, name))
        except KeyError:
            raise InvalidPosition("unknown_card", f"no card named {name!r}") from None

    hands = [sorted(card(c) for c in seat.hand) for seat in doc.seats]
    discards = [[card(c) for c in seat.discards] for seat in doc.seats]
    facedown = [[card(c) for c in seat.facedown] for seat in doc.seats]
    wl, wi = d.cards.wild_location, d.cards.wild_industry
    expected = Counter({k: c for k, c in enumerate(d.deck_copies[n]) if c})
    regular: Counter[int] = Counter()
    for i in range(n):
        regular.update(hands[i])
        regular.update(discards[i] + facedown[i])
    if doc.deck is None:
        # a hand-written puzzle rarely cares about the draw order, only about what is held
        rest = expected - Counter({k: c for k, c in regular.items() if k not in (wl, wi)})
        deck = sorted(rest.elements())
    else:
        deck = [card(c) for c in doc.deck]
    regular.update(deck)
    for i in range(n):
        if len(hands[i]) > d.rules.hand_size:
            _fail("hand_too_big", f"seat {i} holds more than {d.rules.hand_size} cards")
        # scouting gives one of each and is refused while a wild card is held
        if hands[i].count(wl) > 1 or hands[i].count(wi) > 1:
            _fail("too_many_wild_cards", f"seat {i} holds two wild cards of one kind")
    held_wild = (regular.pop(wl, 0), regular.pop(wi, 0))
    if any(c in (wl, wi) for c in deck) or any(
        c in (wl, wi) for i in range(n) for c in discards[i] + facedown[i]
    ):
        _fail("wild_card_misplaced", "wild cards are only ever in hands or their supply")
    if regular != expected:
        _fail(
            "cards_not_conserved",
            f"deck, hands, discards and face-down cards must hold the {n}-player deck exactly",
        )
    wild = doc.wild_supply or WildDoc(
        location=d.wild_supply[0] - held_wild[0], industry=d.wild_supply[1] - held_wild[1]
    )
    if (wild.location + held_wild[0], wild.industry + held_wild[1]) != d.wild_supply:
        _fail("wild_cards_not_conserved", "wild cards in hands plus supply must be 4 of each")

    mats = []
    for i, seat in enumerate(doc.seats):
        if set(seat.mat) - set(INDUSTRIES):
            _fail("unknown_industry", f"seat {i}: unknown industry in mat")
        row = [
            seat.mat[name] if name in seat.mat else _fewest_taken(d, doc.tiles, i, name)
            for name in INDUSTRIES
        ]
        for k, taken in enumerate(row):
            if not 0 <= taken <= d.stacks.sizes[k]:
                _fail("bad_mat", f"seat {i}: {INDUSTRIES[k]} stack count out of range")
        mats.append(row)
        if seat.money < 0 or seat.spent < 0:
            _fail("negative_money", f"seat {i}: money and spending cannot be negative")
        if not 0 <= seat.income_space <= d.income.last_space:
            _fail("bad_income", f"seat {i}: income space off the track")

    ns = d.n_slots
    owner, ind_, level_, cubes_, flipped_ = [-1] * ns, [-1] * ns, [0] * ns, [0] * ns, [False] * ns
    # a tile just built whose cubes are still to come (its action waits for a payment)
    producing = {p.a for p in doc.pending if p.kind == "produce"}
    space_index = {d.slot_name(i): i for i in range(ns)}
    on_board: Counter[tuple[int, int, int]] = Counter()
    for t in doc.tiles:
        slot = space_index.get(t.space)
        if slot is None:
            _fail("unknown_space", f"no build space {t.space!r}")
        if owner[slot] >= 0:
            _fail("space_taken_twice", f"two tiles on {t.space}")
        if t.industry not in INDUSTRIES:
            _fail("unknown_industry", f"unknown industry {t.industry!r}")
        k = INDUSTRIES.index(t.industry)
        if k not in d.slot_icons[slot]:
            _fail("wrong_space", f"{t.space} does not show the {t.industry} icon")
        if not 0 <= t.owner < n:
            _fail("bad_owner", f"tile on {t.space} belongs to no seat")
        if not 1 <= t.level <= len(d.tiles[k]):
            _fail("bad_level", f"{t.industry} has no level {t.level}")
        tile = d.tile(k, t.level)
        most = max(tile.produce_canal, tile.produce_rail)
        if k in SELLABLE:
            if t.cubes:
                _fail("cubes_not_conserved", f"{t.space}: a {t.industry} holds no cubes")
        elif (t.flipped != (t.cubes == 0) and slot not in producing) or not 0 <= t.cubes <= most:
            _fail(
                "cubes_not_conserved",
                f"{t.space}: a resource tile flips exactly when its last cube goes "
                f"(1..{most} cubes while unflipped)",
            )
        if not tile.buildable(era) and (era == CANAL or t.level == 1):
            _fail(
                "tile_wrong_era",
                f"{t.industry} level {t.level} cannot be on the board in the {doc.era} era",
            )
        owner[slot], ind_[slot], level_[slot] = t.owner, k, t.level
        cubes_[slot], flipped_[slot] = t.cubes, t.flipped
        on_board[(t.owner, k, t.level)] += 1
    for (seat, k, lvl), count in on_board.items():
        taken = d.stacks.taken(k, mats[seat][k]).count(lvl)
        owned = d.stacks.sequence[k].count(lvl)
        if count > owned:
            _fail(
                "tiles_not_conserved",
                f"seat {seat} has {count} {INDUSTRIES[k]} level {lvl} tiles on the board, but "
                f"a player has only {owned} {INDUSTRIES[k]} level {lvl} tiles",
            )
        if count > taken:
            _fail(
                "tiles_not_conserved",
                f"seat {seat} has {count} {INDUSTRIES[k]} level {lvl} tiles on the board but "
                f"only {taken} taken off its mat",
            )
    if era == CANAL:
        for loc_slots in d.loc_slots:
            owners = [owner[sl] for sl in loc_slots if owner[sl] >= 0]
            if len(owners) != len(set(owners)):
                _fail("one_industry_per_location", "canal era: one industry per location per seat")

    link_owner = [-1] * d.n_links
    link_index = {name: i for i, name in enumerate(d.link_names)}
    for lk in doc.links:
        li = link_index.get(lk.link)
        if li is None:
            _fail("unknown_link", f"no link line {lk.link!r}")
        if link_owner[li] >= 0:
            _fail("link_twice", f"two links on {lk.link}")
        if not 0 <= lk.owner < n:
            _fail("bad_owner", f"link {lk.link} belongs to no seat")
        if not (d.link_rail if era else d.link_canal)[li]:
            _fail("link_wrong_era", f"{lk.link} cannot carry a {doc.era} link")
        link_owner[li] = lk.owner
    for seat in range(n):
        if link_owner.count(seat) > d.rules.link_tiles:
            _fail(
                "too_many_links",
                f"seat {seat} has more than its {d.rules.link_tiles} link tiles on the board",
            )

    if not 0 <= doc.markets.coal <= d.coal_market.capacity:
        _fail("bad_market", "coal market count out of range")
    if not 0 <= doc.markets.iron <= d.iron_market.capacity:
        _fail("bad_market", "iron market count out of range")

    if len(doc.merchants) != d.n_merchants:
        _fail("bad_merchants", f"merchants must list all {d.n_merchants} merchant spaces")
    tile_ids = {t.id: i for i, t in enumerate(d.merchant_tiles)}
    merchant_tile, merchant_beer, used = [], [], set()
    for m, md in enumerate(doc.merchants):
        if md.location != d.locations[d.merchant_loc[m]].id:
            _fail("bad_merchants", f"merchant space {m} is at {d.locations[d.merchant_loc[m]].id}")
        active = d.merchant_min_players[m] <= n
        if md.tile is None:
            if active:
                _fail("bad_merchants", f"merchant space {m} at {md.location} needs a tile")
            tile = -1
        else:
            tile = tile_ids.get(md.tile, -1)
            if tile < 0 or tile in used:
                _fail("bad_merchants", f"unknown or repeated merchant tile {md.tile!r}")
            if not active or d.merchant_tiles[tile].min_players > n:
                _fail("bad_merchants", f"merchant tile {md.tile} is not used with {n} players")
            used.add(tile)
        if md.beer not in (0, 1) or (md.beer and (tile < 0 or not d.merchant_accepts[tile])):
            _fail("bad_merchants", "only a non-blank merchant tile has a beer barrel (0 or 1)")
        merchant_tile.append(tile)
        merchant_beer.append(md.beer)

    pending = []
    for p in doc.pending:
        if p.kind not in STEP_KINDS:
            _fail("bad_pending", f"unknown pending step {p.kind!r}")
        pending.append(ev.Step(p.kind, p.n, p.a, p.b))
    if pending and doc.phase != PLAY:
        _fail("bad_pending", "a pending decision needs the game in play")
    if doc.phase == SCORING and (deck or any(hands)):
        _fail("bad_phase", "an era ends only when the deck and every hand are empty")
    at_round_end = doc.turn == n and bool(pending)
    if not -1 <= doc.deciding < n or (doc.deciding >= 0) != at_round_end:
        _fail("bad_deciding", "a seat decides outside its turn only at a round's end")
    if doc.phase == PLAY and doc.turn >= n and doc.deciding < 0:
        _fail("bad_turn", "in play, turn must index the order")

    return State(
        players=n, era=era, round=doc.round, phase=doc.phase, order=list(doc.order),
        turn=doc.turn, actions_left=actions_left,
        money=[x.money for x in doc.seats], spent=[x.spent for x in doc.seats],
        income=[x.income_space for x in doc.seats], vp=[x.vp for x in doc.seats],
        hands=hands, deck=deck, discards=discards, facedown=facedown,
        wild_supply=[wild.location, wild.industry], mat=mats,
        slot_owner=owner, slot_ind=ind_, slot_level=level_, slot_cubes=cubes_,
        slot_flipped=flipped_, link_owner=link_owner, coal_market=doc.markets.coal,
        iron_market=doc.markets.iron, merchant_tile=merchant_tile, merchant_beer=merchant_beer,
        pending=pending, deciding=doc.deciding,
    )  # fmt: skip


def from_view(d: Birmingham, names: Names, view: dict[str, Any], rng: Random) -> dict[str, Any]:
    """The position document of a state ``view`` (a seat's) cannot tell from the real one,
    its hidden cards drawn with ``rng`` (``Game.determinize``, for the search bot). The
    wild cards in a hand are public (the view counts them), so they stay where they are."""
    wild = list(zip((d.cards.wild_location, d.cards.wild_industry), WILD_KINDS, strict=True))
    merchants = {m["merchant"]: m for m in view["merchants"]}
    return {
        "format": FORMAT,
        **bd.fields_from_view(d, view, rng, INDUSTRIES, lambda p: [
            w for w, key in wild for _ in range(p["wild_cards"][key])]),
        "wild_supply": view["wild_supply"],
        "merchants": [
            {"location": d.locations[loc].id,
             "tile": merchants[m]["tile"] if m in merchants else None,
             "beer": int(merchants[m]["beer"]) if m in merchants else 0}
            for m, loc in zip(names.merchant, d.merchant_loc, strict=True)
        ],
    }  # fmt: skip
