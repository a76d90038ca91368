"""Clients see names, never indices: every listed move, view and log entry uses ids the
view or the board metadata shows, unknown names are refused with a code, and the view's
decision says which moves answer it."""

from __future__ import annotations

import re
from pathlib import Path
from random import Random
from typing import Any

import msgspec
import pytest
from bb_helpers import GAME, act, load

from core.errors import IllegalMove
from core.game import SYSTEM
from plugins.brass_birmingham import moves as mv
from plugins.brass_birmingham.data import INDUSTRIES

BOARD = GAME.metadata["board"]
SPACE_ICONS = {sp["space"]: set(sp["icons"]) for sp in BOARD["spaces"]}
LINKS = {li["link"] for li in BOARD["links"]}
CLIENTS_MD = Path(__file__).resolve().parents[2] / GAME.metadata["clients"]


def tag(move: Any) -> str:
    return type(move).__struct_config__.tag


def assert_move_speaks_the_view(move: Any, view: dict[str, Any]) -> None:
    """Each field of ``move`` is an id the seat's view (or the board) shows, and the move
    type is one the view's decision names."""
    seat = view["seat"]
    tiles = {t["space"]: t for t in view["tiles"]}
    merchants = {m["merchant"]: m for m in view["merchants"]}
    assert tag(move) in view["decision"]["moves"], (move, view["decision"])
    t = type(move)
    if t in (mv.Build, mv.Discard):
        assert move.card in view["hand"]
    if t is mv.Build:
        assert move.industry in SPACE_ICONS[move.space]
    if t in (mv.Network, mv.SecondLink):
        assert move.link in LINKS and move.link not in {li["link"] for li in view["links"]}
    if t in (mv.Develop, mv.DevelopAlso, mv.FreeDevelop):
        assert view["players"][seat]["next_tiles"][move.industry]
    if t in (mv.Sell, mv.SellAlso):
        tile = tiles[move.space]
        assert tile["owner"] == seat and not tile["flipped"]
        assert tile["industry"] in merchants[move.merchant]["buys"]
    if t is mv.Liquidate:
        assert tiles[move.space]["owner"] == seat
    if t in (mv.PickCoal, mv.PickIron):
        kind = "coal" if t is mv.PickCoal else "iron"
        assert tiles[move.space]["industry"] == kind and tiles[move.space]["resources"] > 0
    if t is mv.PickBeer:
        if move.source in merchants:
            assert merchants[move.source]["beer"]
            assert move.source == view["decision"]["merchant"]
        else:
            brewery = tiles[move.source]
            assert brewery["industry"] == "brewery" and brewery["resources"] > 0


def play_checking_names(players: int, seed: int, seen: set[str]) -> None:
    """A random game; every listed move is checked against the seat's view and every log
    entry, for every reader, against index ids."""
    rng = Random(seed)
    state = None
    for e in GAME.setup(GAME.Options(), players, rng):
        state = GAME.evolve(state, e)
    while tasks := GAME.pending_tasks(state):
        task = tasks[0]
        if task.kind == "system":
            events = GAME.decide(state, SYSTEM, task.move, rng)
        else:
            view = GAME.view(state, task.seat)
            assert view["decision"]["seat"] == task.seat
            legal = GAME.legal_moves(state, task.seat)
            for move in legal:
                assert_move_speaks_the_view(move, view)
                seen.add(tag(move))
            events = GAME.decide(state, task.seat, legal[rng.randrange(len(legal))], rng)
        for e in events:
            for seat in (None, *range(players)):
                assert_no_index_ids(GAME.redact(e, seat))
            state = GAME.evolve(state, e)


@pytest.mark.parametrize("players", [2, 4])
def test_every_listed_move_names_only_ids_the_view_shows(players: int) -> None:
    wanted = {"build", "network", "sell", "discard", "loan", "pick_coal", "develop"}
    seen: set[str] = set()
    for seed in range(8):  # random bots rarely sell: play on until every kind was listed
        play_checking_names(players, seed, seen)
        if wanted <= seen:
            break
    assert wanted <= seen


def assert_no_index_ids(doc: dict[str, Any]) -> None:
    """Log entries name spaces, links, merchants, industries and cards, never by index."""
    for key in ("space", "link", "merchant", "industry"):
        if key in doc:
            assert isinstance(doc[key], str), doc
    for card in doc.get("cards") or []:
        assert isinstance(card, str), doc


def test_hand_and_moves_use_one_card_scheme() -> None:
    assert all(re.fullmatch(r"(location|industry|wild):[a-z_/]+", c) for c in GAME.names.card)
    assert "wild:location" in GAME.names.card and "wild:industry" in GAME.names.card


@pytest.mark.parametrize(
    ("move", "code"),
    [
        (mv.Build("location:atlantis", "dudley:0", "coal"), "unknown_card"),
        (mv.Build("location:dudley", "dudley:9", "coal"), "unknown_space"),
        (mv.Build("location:dudley", "dudley:0", "steel"), "unknown_industry"),  # type: ignore[arg-type]
        (mv.Network("dudley~birmingham"), "unknown_link"),  # ends must be sorted
        (mv.Sell("birmingham:0", "oxford:7"), "unknown_merchant"),
        (mv.Develop("steel"), "unknown_industry"),  # type: ignore[arg-type]
    ],
)
def test_an_unknown_name_is_refused_with_a_code_saying_what_names_look_like(
    move: Any, code: str
) -> None:
    s = load(hands={0: ["dudley", "coventry"]})
    with pytest.raises(IllegalMove) as err:
        GAME.decide(s, 0, move, Random(0))
    assert err.value.code == code and "'" in err.value.message


def test_beer_named_from_an_unknown_source_or_another_merchant_is_refused() -> None:
    mill = {"space": "birmingham:0", "owner": 0, "industry": "cotton", "level": 1}
    own = {"space": "stafford:0", "owner": 0, "industry": "brewery", "level": 1, "cubes": 1}
    merchants = {"shrewsbury": ["mt_any"], "gloucester": ["mt_manufacturer_a", "mt_blank_a"],
                 "oxford": ["mt_cotton_a", "mt_blank_b"]}  # fmt: skip
    s = load(hands={0: ["coventry", "coventry"]}, tiles=[mill, own],
             links={"birmingham~oxford": 0}, merchants=merchants)  # fmt: skip
    s, _ = act(s, 0, mv.Sell("birmingham:0", "oxford:0"))
    for source, code in (("atlantis:0", "unknown_source"), ("shrewsbury:0", "beer_source")):
        with pytest.raises(IllegalMove) as err:
            GAME.decide(s, 0, mv.PickBeer(source), Random(0))
        assert err.value.code == code
    decision = GAME.view(s, 0)["decision"]
    assert decision["kind"] == "pick_beer" and decision["merchant"] == "oxford:0"
    assert decision["space"] == "birmingham:0" and decision["moves"] == ["pick_beer"]


def test_view_lists_tiles_links_markets_and_merchants_by_name() -> None:
    tiles = [{"space": "dudley:0", "owner": 1, "industry": "coal", "level": 1, "cubes": 2}]
    s = load(hands={0: ["coventry"]}, tiles=tiles, links={"birmingham~dudley": 1})
    view = GAME.view(s, 0)
    assert view["tiles"] == [{"space": "dudley:0", "location": "dudley", "owner": 1,
                              "industry": "coal", "level": 1, "flipped": False,
                              "resources": 2}]  # fmt: skip
    assert view["links"] == [{"link": "birmingham~dudley", "ends": ["birmingham", "dudley"],
                              "owner": 1, "kind": "canal"}]  # fmt: skip
    # 13 coal: the cheapest filled space is £1, the one £1 vacancy buys at £1
    assert view["markets"]["coal"] == {"cubes": 13, "capacity": 14, "buy_price": 1,
                                       "sell_price": 1}  # fmt: skip
    assert view["markets"]["iron"]["buy_price"] == 2 and view["markets"]["iron"]["cubes"] == 8
    oxford = next(m for m in view["merchants"] if m["merchant"] == "oxford:0")
    assert oxford == {"merchant": "oxford:0", "location": "oxford", "tile": "mt_manufacturer_a",
                      "buys": ["manufacturer"], "beer": True,
                      "bonus": {"kind": "income", "amount": 2}}  # fmt: skip
    assert view["decision"] == {"seat": 0, "kind": "action", "moves": [
        "build", "network", "develop", "sell", "loan", "scout", "pass"],
        "prompt": "choose an action (2 left this turn)"}  # fmt: skip


def test_board_metadata_lists_every_build_space_with_its_icons() -> None:
    assert len(BOARD["spaces"]) == GAME.data.n_slots
    assert SPACE_ICONS["birmingham:2"] == {"iron"}
    assert SPACE_ICONS["belper:0"] == {"cotton", "manufacturer"}
    assert all(icons <= set(INDUSTRIES) for icons in SPACE_ICONS.values())
    assert "kidderminster~worcester" in LINKS and len(LINKS) == GAME.data.n_links


def test_log_entries_name_what_they_touch() -> None:
    tiles = [{"space": "dudley:1", "owner": 1, "industry": "iron", "level": 1, "cubes": 3}]
    s = load(hands={0: ["dudley", "coventry"]}, tiles=tiles)
    _, events = act(s, 0, mv.Build("location:dudley", "dudley:0", "coal"))
    log = [GAME.redact(e, 1) for e in events]
    assert {"seat": 0, "cards": ["location:dudley"]} in log
    assert {"seat": 0, "space": "dudley:0", "industry": "coal", "level": 1} in log
    assert {"space": "dudley:0", "cubes": 2, "sold": 0, "money": 0} in log


def test_every_json_move_in_the_client_guide_decodes_as_a_move() -> None:
    blocks = re.findall(r"```json\n(.*?)```", CLIENTS_MD.read_text(), re.S)
    moves = [
        doc["move"]
        for block in blocks
        for doc in [msgspec.json.decode(block)]
        if isinstance(doc, dict) and "move" in doc
    ]
    assert len(moves) >= 8
    for move in moves:
        msgspec.convert(move, GAME.Move)
