"""Position documents: the full Brass: Pittsburgh state as JSON, validated on load.

The form is documented in the "Positions" section of ``CLIENTS.md``: ``{"format",
"data_version", "state"}`` where ``state`` holds the fields of :class:`.state.State` under
the same names, cards named as a hand shows them (``location:erie``, ``industry:coal``; the
bare ``erie`` of the first release is still read). Fields a match's start would give may be
left out (:func:`_fill_defaults`). The document includes the hidden parts (hands, deck,
face-down cards and oilfield tiles): it is for puzzles, bug reports and tests, never for
players.

Refusals (``InvalidPosition``, HTTP 422): a malformed document (not an object, another
``format``, unknown fields, wrong types, an unknown board side) has the code
``invalid_position``, as in every game; an impossible position has a code naming the broken
fact (``data_version_mismatch``, ``unknown_card``, ``bad_player_count``, ``bad_seats``,
``cards_not_conserved``, ``bad_board``, ...).

A full state from one seat's view alone (``Game.determinize``, for the search bot,
:func:`from_view`): everything public is read from the view. What the seat cannot see is
drawn at random from what the view leaves possible: the cards (the player count's deck
minus its own hand and every face-up discard) dealt into the other hands, every face-down
discard and the deck, keeping each count the view shows; and the face-down oilfield tiles,
drawn from the tiles of the player count not yet revealed. The result is the position
document such a state exports (per-place fields by name, as the document allows), so
loading it checks it like any other.
"""

from __future__ import annotations

from collections import Counter
from random import Random
from typing import Any, NoReturn

import msgspec

from core.errors import IllegalMove, InvalidPosition
from plugins.brass.board_docs import check
from plugins.brass.client import Ids
from plugins.brass.hidden import deal_from_view, turn_from_view
from plugins.brass_pittsburgh.engine import STEP_KINDS
from plugins.brass_pittsburgh.names import Names, SideNames
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.state import OVER, PLACES, PLAY, SCORING, State, empty_board

FORMAT = "brass-pittsburgh/1"
CARD_FIELDS = ("hands", "discards", "facedown")
SEAT_FIELDS = {"money": "money", "spent": "spent", "income": "income_space", "vp": "vp",
               "whiskey": "whiskey", "light_trains": "light_trains",
               "link_supply": "link_supply", "mat": "mat", "discards": "discards"}  # fmt: skip
"""The state's per-seat fields a player's view shows as they are (state field: view's)."""
DRAWN = ("oilfield_tile", "merchant_tile")
"""Per-place fields a document must give: the tiles setup draws (the rest may be left out
or given as ``{place id: value}``, :data:`~.state.PLACES`)."""
PLACE_WORDS = {"space": "slot", "merchant": "merchant space"}
"""How the refusal of a per-place field's length names a kind of place."""
BUILT = {"line_owner": ("lines", "owner"), "line_link": ("lines", "link"),
         "line_cargo": ("lines", "cargo"), "route_owner": ("pipelines", "owner"),
         "route_pipeline": ("pipelines", "pipeline"), "slot_owner": ("tiles", "owner"),
         "slot_tile": ("tiles", "tile"), "slot_cubes": ("tiles", "resources"),
         "slot_flipped": ("tiles", "flipped")}  # fmt: skip
"""The per-place fields of what is built, and the view's list and field showing each (the
list's entries named by the place's id, as its kind in :data:`PLACES`)."""


def export(rules: Rules, state: State) -> dict[str, Any]:
    table = rules.cards[state.side]

    def names(kind: int) -> str:
        card = table.defs[kind]
        return f"{card.kind}:{card.name}"

    doc = msgspec.to_builtins(state)
    for key in CARD_FIELDS:
        doc[key] = [[names(c) for c in cards] for cards in doc[key]]
    doc["deck"] = [names(c) for c in state.deck]
    return {"format": FORMAT, "data_version": rules.data.version, "state": doc}


def _refuse(code: str, message: str) -> NoReturn:
    raise InvalidPosition(code, message)


def load(rules: Rules, doc: dict[str, Any]) -> State:
    try:
        return _load(rules, doc)
    except InvalidPosition:
        raise
    except (TypeError, ValueError, KeyError, IndexError, AttributeError) as exc:
        # A shape the checks below did not foresee is still a bad document, not a crash.
        raise InvalidPosition(
            "invalid_position", f"not a Brass: Pittsburgh position document: {exc!r}"
        ) from None


def _load(rules: Rules, doc: dict[str, Any]) -> State:
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        _refuse("invalid_position", f"a Brass: Pittsburgh position has format {FORMAT!r}")
    check(doc.get("data_version") == rules.data.version, "data_version_mismatch",
          f"the position was written for data {doc.get('data_version')!r}; this server "
          f"plays data {rules.data.version!r}")  # fmt: skip
    raw = doc.get("state")
    check(isinstance(raw, dict) and isinstance(raw.get("side"), str)
          and raw["side"] in rules.boards, "invalid_position",
          "state.side must name a board side of the data set")  # fmt: skip
    table = rules.cards[raw["side"]]

    def card(name: str) -> int:
        kind, _, bare = name.rpartition(":")
        index = table.index(bare)
        if kind and table.defs[index].kind != kind:
            raise KeyError(name)
        return index

    names = SideNames(rules.board_of(raw["side"]))
    raw = _fill_defaults(rules, names, dict(raw))
    try:
        for key in CARD_FIELDS:
            raw[key] = [[card(c) for c in cards] for cards in raw[key]]
        if raw["deck"] is None:
            raw["deck"] = _rest_of_deck(rules, raw)
        else:
            raw["deck"] = [card(c) for c in raw["deck"]]
    except (KeyError, TypeError) as exc:
        _refuse("unknown_card", f"the position names a card this game does not have: {exc}")
    derive = raw["link_supply"] is None
    if derive:
        raw["link_supply"] = [[] for _ in range(raw["players"])]
    try:
        state = msgspec.convert(raw, State)
    except msgspec.ValidationError as exc:
        _refuse("invalid_position", f"state: {exc}")
    if derive and len(state.mat) == state.players:
        state.link_supply = [_expected_supply(rules, state, seat) for seat in range(state.players)]
    _check(rules, names, state)
    return state


def _expected_supply(rules: Rules, s: State, seat: int) -> list[str]:
    """The heavy trains and pipelines ``seat`` has in its supply, by its mat and the board:
    every one not locked on the mat (its tile space is empty, or it never was on the mat)
    that it has not built."""
    d = rules.data
    built = _built_links(d, s, seat)
    return [
        link for link in (*d.heavy_trains, *d.pipelines)
        if not _locked(rules, s, seat, link) and link not in built
    ]  # fmt: skip


def _built_links(d: Any, s: State, seat: int) -> Counter[str]:
    """The heavy trains and pipelines of ``seat`` on the board."""
    built = Counter(link for link, owner in zip(s.line_link, s.line_owner, strict=False)
                    if owner == seat and link in d.heavy_trains)  # fmt: skip
    built.update(link for link, owner in zip(s.route_pipeline, s.route_owner, strict=False)
                 if owner == seat and link)  # fmt: skip
    return built


def _locked(rules: Rules, s: State, seat: int, link: str) -> bool:
    """Whether ``link`` still waits on ``seat``'s mat (its tile space is not empty)."""
    space = rules.mat.locked_by.get(link)
    left = s.mat[seat]
    return space is not None and 0 <= space < len(left) and left[space] > 0


def _fill_defaults(rules: Rules, names: SideNames, raw: dict[str, Any]) -> dict[str, Any]:
    """``raw`` with every field left out set as a match's start has it (empty board, full
    mats, starting money and income, the deck as the cards held nowhere else), and every
    per-place list given as ``{place name: value}`` spelled out in board order. The random
    parts of setup (merchant, oilfield and Quality Rewards tiles) have no default."""
    data, board = rules.data, names.board
    n = raw["players"]
    if not isinstance(n, int) or isinstance(n, bool):
        _refuse("invalid_position", "state.players must be the player count")
    per_seat: dict[str, Any] = {
        "money": data.constants.starting_money, "spent": 0,
        "income": data.income_track.start_space, "vp": 0, "whiskey": 0, "hands": [],
        "discards": [], "facedown": [], "light_trains": data.light_trains.count,
    }  # fmt: skip
    for key, value in per_seat.items():
        raw.setdefault(key, [value] * n)
    # Left out, each seat's supply is derived from its mat and its links on the board once
    # the rest is read (see :func:`_derive_link_supply`).
    raw.setdefault("link_supply", None)
    mat_spaces = Ids((t.id for t in rules.mat.tiles), "unknown_tile", "no mat space {name}")
    raw["mat"] = [
        _by_name(mat_spaces, left, rules.mat.initial()) if isinstance(left, dict) else left
        for left in raw.get("mat", [{}] * n)
    ]
    empty = empty_board(board)
    for key, (kind, _) in PLACES.items():
        given = raw.get(key)
        if isinstance(given, dict):
            raw[key] = _by_name(names.ids[kind], given, empty[key])
        elif given is None and key not in DRAWN:
            raw[key] = empty[key]
    if isinstance(raw.get("merchant_tile"), list):
        raw.setdefault("merchant_faceup", [bool(t) for t in raw["merchant_tile"]])
    if isinstance(raw.get("quality_rewards"), list):
        raw.setdefault("quality_faceup", [True] * len(raw["quality_rewards"]))
    raw.setdefault("deck", None)
    return raw


def _by_name(ids: Ids, given: dict[str, Any], default: list[Any]) -> list[Any]:
    """A per-place list from ``{place name: value}``; places left out keep ``default``."""
    out = list(default)
    for name, value in given.items():
        try:
            out[ids.index_of(name)] = value
        except IllegalMove as err:
            raise InvalidPosition(err.code, err.message) from None
    return out


def _rest_of_deck(rules: Rules, raw: dict[str, Any]) -> list[int]:
    """The player count's deck minus every card held elsewhere, in card-table order."""
    copies = rules.deck_copies(raw["side"], raw["players"])
    held: Counter[int] = Counter()
    for key in CARD_FIELDS:
        for cards in raw[key]:
            held.update(cards)
    rest = Counter({k: c for k, c in enumerate(copies) if c}) - held
    return sorted(rest.elements())


def _check(rules: Rules, names: SideNames, s: State) -> None:
    d, n = rules.data, s.players
    check(n in d.constants.players and n in d.sides[s.side].players, "bad_player_count",
          f"{n} players cannot play on the {s.side} side")  # fmt: skip
    per_seat = ("money", "spent", "income", "vp", "whiskey", "hands", "discards", "facedown")
    for key in (*per_seat, "mat", "light_trains", "link_supply"):
        check(len(getattr(s, key)) == n, "bad_seats", f"{key} needs one entry per player ({n})")
    check(sorted(s.order) == list(range(n)), "bad_order", "order must list every seat once")
    check(s.phase in (PLAY, SCORING, OVER) and s.era in (0, 1), "bad_phase",
          "phase is play, scoring or over; era is 0 or 1 (counted from 0)")  # fmt: skip
    for key, (kind, _) in (*PLACES.items(), ("merchant_faceup", ("merchant", False))):
        size = len(names.ids[kind])
        check(len(getattr(s, key)) == size, "bad_board", f"{key} needs one entry per "
              f"{PLACE_WORDS.get(kind, kind)} of the side ({size})")  # fmt: skip
    held = Counter(s.deck)
    for cards in (*s.hands, *s.discards, *s.facedown):
        held.update(cards)
    copies = rules.deck_copies(s.side, n)
    check(held == Counter({k: c for k, c in enumerate(copies) if c}), "cards_not_conserved",
          f"the cards in play must be the {n}-player deck")  # fmt: skip
    for seat in range(n):
        left = s.mat[seat]
        check(len(left) == len(rules.mat.tiles)
              and all(0 <= k <= t.count for k, t in zip(left, rules.mat.tiles, strict=False)),
              "bad_mat", f"seat {seat}: mat needs 0..count tiles per space")  # fmt: skip
        check(s.money[seat] >= 0, "negative_money", f"seat {seat} has negative money")
        check(0 <= s.whiskey[seat] <= d.constants.whiskey_max, "bad_whiskey",
              f"seat {seat} holds more whiskey than the cap")  # fmt: skip
        check(0 <= s.income[seat] <= rules.income.last_space, "bad_income",
              f"seat {seat}'s income marker is off the track")  # fmt: skip
        unknown = set(s.link_supply[seat]) - d.heavy_trains.keys() - d.pipelines.keys()
        check(not unknown, "unknown_link",
              f"seat {seat}'s supply holds unknown links {sorted(unknown)}")  # fmt: skip
        for link, count in _built_links(d, s, seat).items():
            check(count <= 1 and not _locked(rules, s, seat, link), "links_not_conserved",
                  f"seat {seat} has {link} on the board "
                  + ("twice" if count > 1 else "while its mat space still locks it"))  # fmt: skip
        want = _expected_supply(rules, s, seat)
        check(Counter(s.link_supply[seat]) == Counter(want), "links_not_conserved",
              f"seat {seat}'s link supply must hold the heavy trains and pipelines its mat "
              f"has unlocked and it has not built: {sorted(want)}, not "
              f"{sorted(s.link_supply[seat])} (a link unlocks once its mat space is "
              "empty)")  # fmt: skip
    for slot, tile in enumerate(s.slot_tile):
        check((tile == "") == (s.slot_owner[slot] < 0) and not (tile and tile not in d.mat.tiles),
              "bad_slot", f"slot {names.space[slot]}: owner and tile disagree")  # fmt: skip
    _unique_known(s.merchant_tile, d.merchant_tiles.keys(), "merchant tile")
    _unique_known(s.oilfield_tile, d.oilfield_tiles.keys(), "oilfield tile")
    _unique_known(s.quality_rewards, d.quality_rewards.keys(), "Quality Rewards tile")
    unknown_steps = {step.kind for step in s.pending} - STEP_KINDS
    check(not unknown_steps, "bad_pending", f"unknown pending decisions {sorted(unknown_steps)}")
    check(not s.pending or s.phase == PLAY, "bad_pending",
          "a decision can be pending only during play")  # fmt: skip
    check(len(s.quality_faceup) == len(s.quality_rewards), "bad_board",
          "quality_faceup needs one entry per Quality Rewards tile")  # fmt: skip


def _unique_known(ids: list[str], known: Any, what: str) -> None:
    used = [i for i in ids if i]
    check(len(set(used)) == len(used), "duplicate_tile", f"a {what} is placed twice")
    unknown = set(used) - set(known)
    check(not unknown, "unknown_tile", f"unknown {what} {sorted(unknown)}")


def from_view(rules: Rules, names: Names, view: dict[str, Any], rng: Random) -> dict[str, Any]:
    """The position document of a state ``view`` (a seat's) cannot tell from the real one,
    its hidden parts drawn with ``rng``."""
    players, side, card = view["players"], view["side"], names.card
    n = len(players)
    hands, facedown, deck = deal_from_view(view, rules.deck_copies(side, n), card.index_of, rng)
    oilfields = view["oilfields"]
    hidden = [f for f, o in enumerate(oilfields) if o["face_down"]]
    drawn = dict(zip(hidden, rng.sample(_unrevealed_oilfield_tiles(rules, view), len(hidden)),
                     strict=True))  # fmt: skip
    turn, deciding = turn_from_view(view)
    merchants = {m["merchant"]: m for m in view["merchants"]}
    merchant_spaces = names.sides[side].merchant
    state = {
        "players": n, "era": view["era"] - 1, "round": view["round"], "phase": view["phase"],
        "order": view["order"], "turn": turn, "actions_left": view["actions_left"],
        **{key: [p[shown] for p in players] for key, shown in SEAT_FIELDS.items()},
        "hands": [[card[c] for c in h] for h in hands],
        "facedown": [[card[c] for c in f] for f in facedown],
        "deck": [card[c] for c in deck],
        "pending": [[p["kind"], p["n"], p["a"], p["b"]] for p in view["pending"]],
        "deciding": deciding, "side": side,
        **{key: {x[PLACES[key][0]]: x[shown] for x in view[part]}
           for key, (part, shown) in BUILT.items()},
        "oil": [o["oil"] for o in oilfields],
        "oil_pending": [o["oil_later"] for o in oilfields],
        "oilfield_tile": [drawn.get(f) or o["tile"] or "" for f, o in enumerate(oilfields)],
        "oilfield_revealed": [o["in_play"] and not o["face_down"] for o in oilfields],
        "oil_city_owner": [-1 if o["oil_city_owner"] is None else o["oil_city_owner"]
                           for o in oilfields],
        "oil_city_flipped": [o["oil_city_flipped"] for o in oilfields],
        "market_cubes": [{res: lad["cubes"] for res, lad in m["ladders"].items()}
                         for m in view["markets"]],
        "merchant_tile": [merchants[m]["tile"] if m in merchants else ""
                          for m in merchant_spaces],
        "merchant_faceup": [m in merchants and merchants[m]["face_up"]
                            for m in merchant_spaces],
        "quality_rewards": [q["reward"] for q in view["quality_rewards"]],
        "quality_faceup": [q["face_up"] for q in view["quality_rewards"]],
    }  # fmt: skip
    return {"format": FORMAT, "data_version": view["data_version"], "state": state}


def _unrevealed_oilfield_tiles(rules: Rules, view: dict[str, Any]) -> list[str]:
    """The oilfield tiles of the player count that no revealed oilfield shows."""
    d = rules.data
    shown = {o["tile"] for o in view["oilfields"] if o["tile"]}
    players = len(view["players"])
    return [t for t in rules.board_of(view["side"]).side.oilfield_tile_display
            if d.oilfield_tiles[t].min_players <= players and t not in shown]  # fmt: skip
