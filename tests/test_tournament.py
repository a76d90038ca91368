"""Tournaments: seats rotate fairly, win rates come with honest intervals, and the figures
come from real matches between bots that see only their seat's view."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from api.cli import main
from worker.tournament import (
    Entrant,
    MatchRecord,
    SeatRecord,
    play_match,
    seating,
    summarize,
    wilson,
)


def test_wilson_interval_matches_the_textbook_figures() -> None:
    low, high = wilson(70, 100)
    assert (round(low, 3), round(high, 3)) == (0.604, 0.781)
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0


def test_every_entrant_sits_in_every_seat_equally_often() -> None:
    a, b = Entrant("search", "hard"), Entrant("greedy")
    seats = [seating([a, b], 3, n) for n in range(4)]
    assert seats[0] == [a, b, a] and seats[1] == [b, a, b]
    for seat in range(2):
        assert sum(s[seat] == a for s in seats) == 2


def _seat(entrant: str, score: float, rank: int, tied: int = 1) -> SeatRecord:
    return SeatRecord(entrant=entrant, score=score, rank=rank, tied=tied, margin=0.0,
                      eliminated=False, negative_income=False, move_times=[0.1])  # fmt: skip


def test_a_shared_first_place_counts_as_a_share_of_a_win() -> None:
    records = [
        MatchRecord(number=0, decisions=10, seats=[_seat("a", 5, 1), _seat("b", 3, 2)]),
        MatchRecord(number=1, decisions=20, seats=[_seat("b", 4, 1, 2), _seat("a", 4, 1, 2)]),
    ]
    summary = summarize(records, [Entrant("a"), Entrant("b")])
    assert summary["entrants"]["a"]["wins"] == 1.5
    assert summary["entrants"]["b"]["win_rate"] == 0.25
    assert summary["mean_decisions"] == 15


def test_greedy_beats_random_at_brass_birmingham() -> None:
    records = [play_match("brass-birmingham", 2, [Entrant("greedy"), Entrant("random")], n,
                          "t") for n in range(2)]  # fmt: skip
    for record in records:
        greedy = next(s for s in record.seats if s.entrant == "greedy")
        assert greedy.rank == 1 and greedy.margin > 0


def test_tournament_command_prints_the_table_and_writes_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t.json"
    code = main(["tournament", "--game", "brass-birmingham", "--players", "2", "--bots",
                 "greedy,random", "--games", "2", "--quiet", "--json", str(out)])  # fmt: skip
    assert code == 0
    printed = capsys.readouterr().out
    assert "greedy" in printed and "95% interval" in printed
    doc = json.loads(out.read_text())
    assert doc["summary"]["matches"] == 2 and len(doc["matches"]) == 2


def test_tournament_command_refuses_unknown_games_and_bots(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["tournament", "--game", "chess", "--players", "2", "--bots", "greedy"]) == 2
    assert "no game 'chess'" in capsys.readouterr().err
    args = ["tournament", "--game", "brass-birmingham", "--players", "2", "--bots", "minimax"]
    assert main(args) == 2
    assert "unknown bot" in capsys.readouterr().err


def test_tournament_think_budgets_count_the_thinking_process_cpu_time(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import time

    import worker.tournament as tournament

    clocks: list[object] = []
    real = tournament.get_bot

    def spy(*args: object, **kwargs: object) -> object:
        clocks.append(kwargs.get("clock"))
        return real(*args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(tournament, "get_bot", spy)
    entrants = [Entrant("search", "easy", 20), Entrant("greedy")]
    play_match("brass-birmingham", 2, entrants, 0, "clock", clock="cpu")
    play_match("brass-birmingham", 2, entrants, 1, "clock", clock="wall")
    assert clocks == [time.process_time] * 2 + [time.perf_counter] * 2


def test_a_stopped_tournament_keeps_the_matches_it_finished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import worker.tournament as tournament

    real = tournament.play_match

    def stop_at_the_third(*args: object) -> MatchRecord:
        if args[3] == 2:
            raise KeyboardInterrupt
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(tournament, "play_match", stop_at_the_third)
    out = tmp_path / "t.json"
    with pytest.raises(KeyboardInterrupt):
        main(["tournament", "--game", "brass-birmingham", "--players", "2", "--bots",
              "greedy,random", "--games", "5", "--quiet", "--json", str(out)])  # fmt: skip
    doc = json.loads(out.read_text())
    assert doc["summary"]["matches"] == 2
    assert [m["number"] for m in doc["matches"]] == [0, 1]


def test_a_resumed_tournament_plays_only_the_matches_its_file_lacks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import worker.tournament as tournament

    played: list[int] = []
    real = tournament.play_match

    def spy(*args: object) -> MatchRecord:
        played.append(args[3])  # type: ignore[arg-type]
        return real(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(tournament, "play_match", spy)
    out = tmp_path / "t.json"
    command = ["tournament", "--game", "brass-birmingham", "--players", "2", "--bots",
               "greedy,random", "--quiet", "--json", str(out), "--seed", "r"]  # fmt: skip
    assert main([*command, "--games", "2"]) == 0
    first = json.loads(out.read_text())
    assert main([*command, "--games", "3", "--resume"]) == 0
    doc = json.loads(out.read_text())
    assert played == [0, 1, 2]
    assert [m["number"] for m in doc["matches"]] == [0, 1, 2]
    assert doc["matches"][:2] == first["matches"]
    assert doc["summary"]["matches"] == 3 and doc["summary"]["bots"] == "greedy,random"
    assert all(m["code"] for m in doc["matches"])


def test_a_tournament_resumes_only_the_same_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "t.json"
    command = ["tournament", "--game", "brass-birmingham", "--players", "2", "--games", "1",
               "--quiet", "--json", str(out)]  # fmt: skip
    assert main([*command, "--bots", "greedy,random"]) == 0
    capsys.readouterr()
    assert main([*command, "--bots", "random,greedy", "--resume"]) == 2
    assert "played with bots 'greedy,random'" in capsys.readouterr().err
    assert main([*command, "--bots", "greedy,random", "--seed", "other", "--resume"]) == 2
    assert "seed" in capsys.readouterr().err
