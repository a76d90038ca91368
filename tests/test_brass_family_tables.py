"""The family's declaration tables a variant writes against: moves declared once
(``vocabulary.Declare``), log names and payloads from one table (``log_payloads.Named``),
the hidden cards of a seat's view (``hidden.deal_from_view``), data files declared by
their Structs (``dataset.DataSet``, ``boarddata.Amount``), their records by id and the
references between them (``data.by_id``, ``data.check_references``), the decisions every board
words (``board_docs.describe_step``) and places numbered within their location
(``client.numbered``)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from random import Random
from typing import Any

import msgspec
import pytest

from plugins.brass import board_docs as bd
from plugins.brass import client as fc
from plugins.brass.boarddata import Amount, Strict
from plugins.brass.client import Ids
from plugins.brass.data import CodedDataError, DataError, by_id, check_references
from plugins.brass.dataset import DataSet
from plugins.brass.events import Step
from plugins.brass.hidden import deal_from_view, turn_from_view
from plugins.brass.log_payloads import Named, named_payloads, rename_named
from plugins.brass.vocabulary import Declare, OrNone, Vocabulary

PLACES = Ids(["erie:0", "erie:1"], "unknown_space", "no space {name}")


class Put(msgspec.Struct, tag="put", frozen=True):
    slot: int
    other: int = -1


class Moved(msgspec.Struct, tag="moved", frozen=True):
    slot: int
    route: list[int]
    count: int


def test_a_declared_move_keeps_the_defaults_and_struct_options_it_is_given() -> None:
    move = Declare(__name__, {"space": str, "space?": str | None})
    named = move(
        Put,
        "Put it there.",
        "space>slot:space",
        "other:space?",
        defaults={"other": None},
        options={"kw_only": True, "omit_defaults": True},
    )
    with pytest.raises(TypeError):
        named("erie:1")  # keyword only
    assert msgspec.json.encode(named(space="erie:1")) == b'{"type":"put","space":"erie:1"}'
    vocab = Vocabulary({"space": PLACES, "space?": OrNone(PLACES)}, move.pairs)
    assert vocab.decode(named(space="erie:1")) == Put(slot=1)
    assert vocab.encode(Put(slot=0, other=1)) == named(space="erie:0", other="erie:1")


def test_a_move_declared_without_conversion_is_left_to_the_game() -> None:
    move = Declare(__name__, {"space": str})
    named = move(Put, "Put it there.", "space>slot:space", "other:space", convert=False)
    assert move.pairs == [] and named.__doc__ == "Put it there."


TABLE = {Moved: Named({"slot": "space"}, {"space": "space", "route": "space"}, {"note": str})}


def test_an_event_of_the_table_is_served_renamed_with_its_ids_as_names() -> None:
    out = rename_named(TABLE, {"space": PLACES}, Moved(1, [0, 1], 3),
                       {"slot": 1, "route": [0, 1], "count": 3})  # fmt: skip
    assert out == {"space": "erie:1", "route": ["erie:0", "erie:1"], "count": 3}
    payload = named_payloads(TABLE)["moved"]
    assert msgspec.convert({**out, "note": "x"}, payload).space == "erie:1"
    assert [f.name for f in msgspec.structs.fields(payload)] == ["space", "route", "count", "note"]


def test_a_retyped_field_is_served_with_the_type_the_table_gives() -> None:
    table = {Moved: Named(retyped={"route": dict[str, int]})}
    payload = named_payloads(table)["moved"]
    assert msgspec.convert({"slot": 1, "route": {"erie:0": 2}, "count": 3}, payload).route == {
        "erie:0": 2
    }
    with pytest.raises(msgspec.ValidationError):
        msgspec.convert({"slot": 1, "route": [0], "count": 3}, payload)


def test_an_event_outside_the_table_is_served_as_stored() -> None:
    out: dict[str, Any] = {"slot": 0}
    assert rename_named(TABLE, {"space": PLACES}, Put(slot=0), out) is out


def _view(seat: int | None, turn_seat: int | None = 0) -> dict[str, Any]:
    players = [{"hand_count": 2, "facedown_count": 1, "discards": []} for _ in range(2)]
    players[1]["discards"] = ["b"]
    return {"seat": seat, "players": players, "hand": ["a", "c"], "deck_count": 2,
            "turn_seat": turn_seat, "order": [1, 0], "phase": "play",
            "decision": {"seat": 1}}  # fmt: skip


def test_the_cards_a_view_hides_are_dealt_from_those_it_does_not_account_for() -> None:
    copies = [3, 3, 3]  # a, b, c
    index = "abc".index
    hands, facedown, deck = deal_from_view(_view(0), copies, index, Random(1))
    assert hands[0] == [0, 2]  # the seat's own hand as the view shows it
    assert [len(h) for h in hands] == [2, 2] and [len(f) for f in facedown] == [1, 1]
    held = Counter(deck) + Counter(hands[1]) + Counter(c for f in facedown for c in f)
    assert held == Counter({0: 2, 1: 2, 2: 2})  # 9 cards less a, c in hand and b discarded


def test_a_card_everyone_knows_is_in_a_hand_stays_there() -> None:
    view = {**_view(0), "deck_count": 3}  # w, a card of no deck, is public in seat 1's hand
    hands, _, deck = deal_from_view(view, [3, 3, 3, 0], "abcw".index, Random(1), [[], [3]])
    assert 3 in hands[1] and len(hands[1]) == 2 and 3 not in deck


def test_a_spectators_view_has_no_hidden_cards_to_deal() -> None:
    with pytest.raises(ValueError):
        deal_from_view(_view(None), [3, 3, 3], "abc".index, Random(1))


def test_a_round_end_waiting_for_a_seat_is_past_the_last_turn() -> None:
    assert turn_from_view(_view(0, turn_seat=0)) == (1, -1)
    assert turn_from_view(_view(0, turn_seat=None)) == (2, 1)


# --- data sets -------------------------------------------------------------------------


class Track(Strict):
    spaces: list[Amount]


def _data_set(tmp_path: Path, track: dict[str, Any], files: list[str] | None = None) -> Path:
    header = {"about": "a track", "version": "1.0", "source": "test", "confidence": "high",
              "provisional": [{"path": ["spaces", 0], "value": 3, "alternative": 2,
                               "why": "two printings"}]}  # fmt: skip
    manifest = {"title": "t", "edition": "e", "version": "1.0", "source": "s",
                "files": files or ["track.json"]}  # fmt: skip
    (tmp_path / "manifest.json").write_text(json.dumps(manifest))
    (tmp_path / "track.json").write_text(json.dumps({"_": header, **track}))
    return tmp_path


def test_a_files_header_is_read_apart_from_the_body_its_struct_declares(tmp_path: Path) -> None:
    files = DataSet(_data_set(tmp_path, {"spaces": [3, 1]}), {"track.json": Track}, ())
    assert files.docs["track.json"] == Track([3, 1])
    assert [m.alternative for m in files.provisional()["track.json"]] == [2]


@pytest.mark.parametrize(
    ("track", "files", "refusal"),
    [
        ({"spaces": [3, -1]}, None, "track.json: Expected `int` >= 0 - at `$.spaces[1]`"),
        ({"spaces": [2, 1]}, None, "track.json: _.provisional[0]: ['spaces', 0] holds 2"),
        ({"spaces": [3, 1]}, ["track.json", "extra.json"], "manifest.json: files: must list"),
    ],
    ids=["negative amount", "marked fact changed", "manifest lists another file"],
)
def test_a_data_set_refuses_a_file_naming_it_and_the_field(
    tmp_path: Path, track: dict[str, Any], files: list[str] | None, refusal: str
) -> None:
    with pytest.raises(DataError) as refused:
        DataSet(_data_set(tmp_path, track, files), {"track.json": Track}, ())
    assert str(refused.value).startswith(refusal)


@pytest.mark.parametrize(
    ("track", "files", "code"),
    [
        ({"spaces": [3, -1]}, None, "unreadable"),
        ({"spaces": [2, 1]}, None, "bad_value"),
        ({"spaces": [3, 1]}, ["track.json", "extra.json"], "bad_value"),
    ],
    ids=["negative amount", "marked fact changed", "manifest lists another file"],
)
def test_a_data_set_refuses_through_a_variants_coded_check(
    tmp_path: Path, track: dict[str, Any], files: list[str] | None, code: str
) -> None:
    with pytest.raises(CodedDataError) as refused:
        DataSet(_data_set(tmp_path, track, files), {"track.json": Track}, (), CodedDataError.check)
    assert refused.value.code == code


def test_a_set_level_provisional_flag_and_status_are_optional(tmp_path: Path) -> None:
    files = DataSet(_data_set(tmp_path, {"spaces": [3, 1]}), {"track.json": Track}, ())
    assert (files.manifest.provisional, files.manifest.status) == (False, "")
    files.check_version("layout.json", {"version": "1.0"})
    with pytest.raises(DataError, match=r"layout\.json: _\.version '0\.9' is stale"):
        files.check_version("layout.json", {"version": "0.9"})


class _Town(Strict):
    id: str
    market: str


def test_records_are_read_by_id_an_id_given_twice_refused_with_its_code() -> None:
    towns = [_Town("erie", "m1"), _Town("butler", "m2")]
    assert list(by_id("towns.json", towns, "town")) == ["erie", "butler"]
    with pytest.raises(CodedDataError) as refused:
        by_id("towns.json", [*towns, towns[0]], "town", CodedDataError.check)
    assert (refused.value.code, refused.value.message) == (
        "duplicate_id",
        "town: id 'erie' appears twice",
    )


def test_a_reference_to_no_record_is_refused_naming_the_file_and_the_culprit() -> None:
    refs = [("towns.json", f"town {t.id}", t.market, {"m1"}) for t in [_Town("erie", "m1")]]
    check_references(refs)
    with pytest.raises(DataError, match=r"towns\.json: town butler names unknown 'm9'"):
        check_references([*refs, ("towns.json", "town butler", "m9", {"m1"})])


# --- the decisions every board words -------------------------------------------------------


class _Decision(fc.Decision, kw_only=True):
    location: str | None = None
    link: str | None = None


_PROMPTS = bd.Prompts(discard="discard {n} card{s}", coal="{n} coal for {where}", iron="{n} iron",
                      liquidate="£{n} unpaid", offers={"more_sell": ("sell_also", "or done"),
                      "quality": ("claim_quality", "{n} star{s} or done")},
                      counted=frozenset({"quality"}), actions=["build", "pass"])  # fmt: skip


class _Names:
    location = ("erie",)
    link = ("erie~ohio",)


@pytest.mark.parametrize(
    ("step", "kind", "moves", "prompt"),
    [
        (Step("discard", 1), "discard", ["discard"], "discard 1 card"),
        (Step("discard", 2), "discard", ["discard"], "discard 2 cards"),
        (Step("link_coal", 1, 0), "pick_coal", ["pick_coal"], "1 coal for erie~ohio"),
        (Step("more_sell"), "sell_also", ["sell_also", "done"], "or done"),
        (Step("action"), "action", ["build", "pass"], "choose an action (2 left this turn)"),
    ],
    ids=["one card", "cards", "link coal", "offer", "action"],
)
def test_a_board_step_becomes_the_decision_the_variant_words(
    step: Step, kind: str, moves: list[str], prompt: str
) -> None:
    decision = bd.describe_step(_Names(), step, 2, _PROMPTS, _Decision)
    assert (decision.kind, decision.moves, decision.prompt) == (kind, moves, prompt)


@pytest.mark.parametrize(("stars", "prompt"), [(0, "0 stars or done"), (1, "1 star or done")])
def test_a_counted_offer_shows_the_steps_count_in_its_decision(stars: int, prompt: str) -> None:
    decision = bd.describe_step(_Names(), Step("quality", stars), 2, _PROMPTS, _Decision)
    assert (decision.kind, decision.count, decision.prompt) == ("claim_quality", stars, prompt)


def test_an_offer_not_counted_leaves_the_count_out() -> None:
    decision = bd.describe_step(_Names(), Step("more_sell", 3), 2, _PROMPTS, _Decision)
    assert decision.count is None


def test_places_are_numbered_from_0_within_their_location() -> None:
    assert fc.numbered(["erie", "ohio", "erie"]) == ["erie:0", "ohio:0", "erie:1"]
