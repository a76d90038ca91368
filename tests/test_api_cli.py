"""The ``ironworks`` command: help texts, and a real server on SQLite streaming live events."""

from __future__ import annotations

import asyncio
import inspect
import json
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import highcard_path_env

from api.cli import build_parser, main
from core.registry import GameRegistry
from core.service import MatchService
from core.store.base import open_store
from core.tasks import NullRunner


@pytest.mark.parametrize(
    ("command", "mentions"),
    [
        (
            "serve",
            [
                "--host",
                "--port",
                "--store",
                "IRONWORKS_STORE",
                "sqlite:///",
                "--no-client-seeds",
                "--workers",
                "--log-format",
            ],
        ),
        ("worker", ["--redis", "--store", "--burst"]),
        ("openapi", ["--output", "--check"]),
        ("check-plugin", ["--playouts", "--players", "conformance"]),
    ],
)
def test_each_subcommand_explains_itself(
    command: str, mentions: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main([command, "--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    for word in mentions:
        assert word in text


@pytest.mark.parametrize(
    "command", ["serve", "worker", "openapi", "check-plugin", "tournament", "play"]
)
def test_help_texts_print_a_percent_sign_once(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """argparse fills in ``%(prog)s`` only in a description that has one: the tournament's
    "Wilson 95%% intervals" was printed as written, doubled sign and all."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    assert "%%" not in capsys.readouterr().out


def test_openapi_check_of_a_missing_file_says_it_is_missing_and_how_to_write_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """It said "out of date" of a file that is not there."""
    path = tmp_path / "openapi.json"
    assert main(["openapi", "--check", "--output", str(path)]) == 1
    err = capsys.readouterr().err
    assert f"{path} does not exist: run `ironworks openapi --output {path}` to write it" in err


def test_version_names_the_installed_distribution(capsys: pytest.CaptureFixture[str]) -> None:
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exit_:
        main(["--version"])
    assert exit_.value.code == 0
    assert capsys.readouterr().out.strip() == f"ironworks {version('ironworks')}"


def test_startup_lines_name_the_backends_without_their_passwords(registry: GameRegistry) -> None:
    from api.cli import startup_line, worker_line

    store = "sqlite:///matches.sqlite3"
    redis = "redis://:hunter2@127.0.0.1:6390/3?prefix=shop"
    service = MatchService(open_store("memory://"), registry, NullRunner())
    serving = startup_line(service, "redis://:hunter2@127.0.0.1:6390/3", "http://0.0.0.0:80")
    working = worker_line(store, redis)
    assert "hunter2" not in serving + working
    assert "store redis://:***@127.0.0.1:6390/3" in serving and "highcard" in serving
    assert (
        f"store {store}" in working and "queue 'shop' on redis://:***@127.0.0.1:6390/3" in working
    )


def test_worker_without_redis_url_says_what_is_missing(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main(["worker"]) == 2
    assert "REDIS_URL" in capsys.readouterr().err


@pytest.mark.parametrize(
    "argv",
    [
        ["serve", "--port", "99999"],
        ["serve", "--port", "eighty"],
        ["serve", "--workers", "0"],
        ["serve", "--log-level", "loud"],
        ["worker", "--metrics-port", "-1"],
        ["check-plugin", "brass-birmingham", "--playouts", "-1"],
        ["tournament", "--game", "brass-birmingham", "--players", "2", "--bots", "random",
         "--games", "-1"],
        ["tournament", "--game", "brass-birmingham", "--players", "2", "--bots", "random",
         "--processes", "0"],
        ["play", "http://127.0.0.1:8000", "m", "--decisions", "0"],
        ["play", "http://127.0.0.1:8000", "m", "--patience", "0"],
        ["play", "http://127.0.0.1:8000", "m", "--patience", "soon"],
    ],
)  # fmt: skip
def test_bad_numbers_and_levels_are_usage_errors_naming_the_option(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert f"argument {argv[-2]}:" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "command", "says"),
    [
        (["serve", "--bogus"], "ironworks serve", "unrecognized arguments: --bogus"),
        (["worker", "--burst", "x"], "ironworks worker", "unrecognized arguments: x"),
        (["serve", "--port", "0"], "ironworks serve", "argument --port: must be 1 or more"),
        (["tournament"], "ironworks tournament", "required: --game, --players, --bots"),
        (["play"], "ironworks play", "required: url, match"),
        (["bogus"], "ironworks", "invalid choice: 'bogus'"),
        ([], "ironworks", "required: COMMAND"),
    ],
)
def test_a_usage_error_is_one_line_naming_the_command_that_refused_it(
    argv: list[str], command: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Not argparse's usage block first (seven lines for serve), and an option a command
    does not take is refused by that command, not by ``ironworks`` with its usage."""
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err
    assert err.startswith(f"{command}: error: ") and says in err
    assert err.rstrip().endswith(f"(see `{command} --help`)")


@pytest.mark.parametrize(
    ("origin", "accepted"),
    [
        ("http://localhost:5173", True),
        ("https://play.example", True),
        ("*", True),
        ("localhost:5173", False),
        ("http://host/", False),
        ("ftp://host", False),
        ("http://host:99999", False),
    ],
)
def test_a_cors_origin_a_browser_would_never_send_is_a_usage_error(
    origin: str, accepted: bool, capsys: pytest.CaptureFixture[str]
) -> None:
    """Origins are compared as strings: one with a path or without its scheme matched no
    page, and CORS stayed off without a word."""
    if accepted:
        args = build_parser().parse_args(["serve", "--cors-origin", origin])
        assert args.cors_origin == [origin]
        return
    with pytest.raises(SystemExit) as exit_:
        build_parser().parse_args(["serve", "--cors-origin", origin])
    assert exit_.value.code == 2
    assert "argument --cors-origin: an origin is scheme://host[:port]" in capsys.readouterr().err


def test_openapi_check_prints_its_verdict_and_no_log_lines() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "api.cli", "openapi", "--check"],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().endswith("openapi.json is up to date")
    assert done.stderr == ""


def test_serve_with_an_unknown_store_url_says_which_urls_work(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["serve", "--store", "bogus://x"]) == 2
    err = capsys.readouterr().err
    assert "ironworks serve: unknown store URL 'bogus://x'" in err and "sqlite:///" in err


@pytest.mark.parametrize("where", ["not_a_database/m.sqlite3", "a_folder", "not_a_database"])
def test_serve_refuses_a_sqlite_store_it_cannot_open_as_a_usage_error(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Waiting would not mend these (a folder that cannot be made, a folder given as the
    file, a file that is no database), so the server does not come up to answer 503s."""
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **options: None)  # came up: no 2
    (tmp_path / "a_folder").mkdir()
    (tmp_path / "not_a_database").write_text("plain text, not SQLite\n")
    assert main(["serve", "--store", f"sqlite:///{tmp_path / where}"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ironworks serve: cannot open SQLite store {tmp_path / where}: ")
    assert err.count("\n") == 1
    assert (tmp_path / "not_a_database").read_text() == "plain text, not SQLite\n"


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["serve", "--store", "redis://"], "a Redis store URL names its host"),
        (["serve", "--store", "redis://:notaport/0"], "has a bad port"),
        (["serve", "--store", "postgresql://127.0.0.1:99999/x"], "has a bad port"),
        (["serve", "--store", "sqlite:///{tmp}/m.db?mode=ro"], "no ?query or #fragment"),
        (["serve", "--store", "memory://", "--redis", "redis://h:70000"], "queue URL"),
        (["worker", "--redis", "redis://:x", "--store", "memory://"], "has a bad port"),
    ],
    ids=["redis_no_host", "redis_port", "postgres_port", "sqlite_query", "queue", "worker"],
)
def test_a_store_or_queue_url_that_can_never_answer_is_a_usage_error(
    argv: list[str],
    says: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bad port or a Redis URL without a host was the Redis client's traceback, a port out
    of range a server answering 503 for ever, and ``?mode=ro`` part of a SQLite file's name."""
    import uvicorn

    monkeypatch.setattr(uvicorn, "run", lambda app, **options: pytest.fail("served"))
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main([a.replace("{tmp}", str(tmp_path)) for a in argv]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"ironworks {argv[0]}: ") and says in err and err.count("\n") == 1
    assert list(tmp_path.iterdir()) == []


def test_a_worker_whose_metrics_port_is_taken_says_so_in_one_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """It was a traceback from the metrics server's bind."""
    import worker.rq_runner

    monkeypatch.setattr(worker.rq_runner, "run_worker", lambda *a, **k: pytest.fail("ran"))
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        argv = ["worker", "--redis", "redis://127.0.0.1:1/0", "--store", "memory://",
                "--metrics-port", str(port)]  # fmt: skip
        assert main(argv) == 1
    err = capsys.readouterr().err
    assert f"ironworks worker: cannot serve metrics on 127.0.0.1:{port}: " in err
    assert "Traceback" not in err


@pytest.mark.parametrize("locked", ["m.sqlite3", "m-webhooks.sqlite3"])
def test_a_sqlite_store_locked_past_its_wait_at_startup_is_one_line_and_exit_1(
    locked: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another process holding the file's lock (a backup, a stuck server) is no usage error,
    and waiting may mend it: one line saying so, exit 1, no traceback, nothing served."""
    import sqlite3

    import uvicorn

    from core.store.sqlite import SQLiteStore

    monkeypatch.setattr(uvicorn, "run", lambda app, **options: pytest.fail("served"))
    monkeypatch.setattr(SQLiteStore.__init__, "__defaults__", (0.2,))  # its 5 s wait, shorter
    monkeypatch.delenv("REDIS_URL", raising=False)
    store = f"sqlite:///{tmp_path / 'm.sqlite3'}"
    for path in ("m.sqlite3", "m-webhooks.sqlite3"):
        open_store(f"sqlite:///{tmp_path / path}").close()
    capsys.readouterr()
    holder = sqlite3.connect(tmp_path / locked, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        assert main(["serve", "--store", store]) == 1
    finally:
        holder.close()
    err = capsys.readouterr().err
    assert err.startswith(f"ironworks serve: the SQLite store {store} is locked by another ")
    assert err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.parametrize("scheme", ["redis", "postgresql"])
def test_serve_starts_while_a_network_store_is_down_to_answer_503_until_it_is_back(
    scheme: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import uvicorn

    served: list[Any] = []
    monkeypatch.setattr(uvicorn, "run", lambda app, **options: served.append(app))
    monkeypatch.delenv("REDIS_URL", raising=False)
    store = f"{scheme}://127.0.0.1:{free_port()}/0"
    assert main(["serve", "--store", store, "--port", str(free_port())]) == 0
    (app,) = served
    for hook in app.on_shutdown:  # what uvicorn would run: the runner and the store closed
        if inspect.isawaitable(done := hook()):
            asyncio.run(done)  # type: ignore[arg-type]


@pytest.mark.parametrize("workers", ["1", "2"])
def test_serve_that_cannot_listen_says_so_in_one_line_before_announcing_itself(
    workers: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A port in use (or a host that does not resolve) was found out by uvicorn after the
    startup line had said "serving http://...", in log lines of its own, exit 3."""
    import uvicorn

    import api.serving

    monkeypatch.setattr(uvicorn, "run", lambda app, **options: pytest.fail("served"))
    monkeypatch.setattr(api.serving, "run_processes", lambda *a, **k: pytest.fail("served"))
    store = f"sqlite:///{tmp_path / 'm.sqlite3'}"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        argv = ["serve", "--store", store, "--port", str(port), "--workers", workers]
        assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"ironworks serve: cannot listen on 127.0.0.1:{port}: ")
    assert err.count("\n") == 1 and "serving" not in err
    assert main(["serve", "--store", store, "--host", "no-such-host.invalid"]) == 1
    assert "cannot listen on no-such-host.invalid:8000: " in capsys.readouterr().err


def test_worker_that_cannot_reach_redis_says_so_without_a_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["worker", "--redis", f"redis://127.0.0.1:{free_port()}", "--store",
                 "memory://"]) == 1  # fmt: skip
    assert "ironworks worker: cannot reach Redis at redis://127.0.0.1:" in capsys.readouterr().err


@pytest.mark.parametrize("options", ["{bad", '{"no_such_option": 1}'])
def test_tournament_refuses_options_the_game_does_not_have(
    options: str, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["tournament", "--game", "brass-birmingham", "--players", "2", "--bots", "random",
            "--games", "1", "--options", options, "--quiet"]  # fmt: skip
    assert main(argv) == 2
    assert "--options is not options of Brass: Birmingham" in capsys.readouterr().err


@pytest.mark.parametrize("where", ["a directory", "a missing folder under a file"])
def test_output_paths_that_cannot_be_written_are_usage_errors_before_any_work(
    where: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A tournament finds out before its matches are played, not when the first one is over
    and its record cannot be kept; neither command ends in a traceback."""
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    path = str(tmp_path) if where == "a directory" else str(blocker / "out.json")
    assert main(["openapi", "--output", path]) == 2
    assert f"ironworks openapi: cannot use {path}" in capsys.readouterr().err
    argv = ["tournament", "--game", "brass-birmingham", "--players", "2", "--bots", "random",
            "--games", "1", "--quiet", "--json", path]  # fmt: skip
    assert main(argv) == 2
    assert f"ironworks tournament: cannot write --json {path}" in capsys.readouterr().err


def test_check_plugin_refuses_a_player_count_the_game_does_not_take(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["check-plugin", "brass-birmingham", "--players", "9"]) == 2
    assert "Brass: Birmingham takes 2 to 4 players, not 9" in capsys.readouterr().err


def test_play_refuses_a_server_url_that_is_not_http(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play", "localhost:8000", "m", "--token", "t", "--bot", "random"]) == 2
    assert "must start with http:// or https://" in capsys.readouterr().err


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def db_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'matches.sqlite3'}"


SERVER_STDERR_SHOWN = 8000
"""Characters of the end of a served server's stderr a test prints when it is done (pytest
shows a test's printed stderr when it fails)."""


@contextmanager
def serving(
    db_url: str, *options: str, log: Path | None = None
) -> Iterator[tuple[str, subprocess.Popen[bytes]]]:
    """``ironworks serve`` on a SQLite file with the in-process runner, highcard installed;
    yields its base URL and its process.

    The server's stderr goes to a file (``log``, or a temporary one), never to a pipe nobody
    reads, which a chatty server would fill and then block on; its end is printed to the
    test's stderr when the server is stopped, so a failing test shows what the server said."""
    port = free_port()
    env = highcard_path_env()
    env.pop("REDIS_URL", None)
    env.pop("IRONWORKS_STORE", None)
    with tempfile.TemporaryDirectory() as scratch:
        path = log or Path(scratch) / "serve.stderr"
        with path.open("wb") as stderr:
            proc = subprocess.Popen(
                [sys.executable, "-m", "api.cli", "serve", "--port", str(port), "--log-level",
                 "warning", "--store", db_url, *options],
                env=env, stdout=subprocess.DEVNULL, stderr=stderr,
            )  # fmt: skip
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    httpx.get(f"{base}/health/live", timeout=1)
                    break
                except httpx.TransportError:
                    if proc.poll() is not None or time.monotonic() > deadline:
                        pytest.fail(f"server did not start: {_tail(path)}")
                    time.sleep(0.2)
            yield base, proc
        finally:
            proc.terminate()
            proc.wait(timeout=10)
            said = _tail(path)
            if said:
                print(f"--- the server's stderr ({path.name}) ---\n{said}", file=sys.stderr)


def _tail(path: Path) -> str:
    return path.read_bytes()[-SERVER_STDERR_SHOWN:].decode(errors="replace")


@pytest.fixture
def server(db_url: str) -> Iterator[str]:
    with serving(db_url) as (base, _):
        yield base


def test_serve_names_store_runner_workers_and_games_and_can_refuse_client_seeds(
    db_url: str, tmp_path: Path
) -> None:
    from importlib.metadata import version

    log = tmp_path / "serve.stderr"
    with serving(db_url, "--no-client-seeds", log=log) as (base, _):
        body = {"game": "highcard", "players": 2}
        refused = httpx.post(f"{base}/matches", json={**body, "seed": "mine"})
        created = httpx.post(f"{base}/matches", json=body)
        ready = httpx.get(f"{base}/health/ready")
    line = log.read_text().splitlines()[0]
    assert line.startswith(f"ironworks {version('ironworks')} ")
    for part in (f"store {db_url}", "api processes: 1", "runner in-process", "workers: ",
                 "highcard", "refused"):  # fmt: skip
        assert part in line, line
    assert refused.status_code == 403 and refused.json()["code"] == "client_seed_refused"
    assert created.status_code == 201 and created.json()["client_seed"] is False
    assert ready.status_code == 200 and ready.json()["ok"] is True


def test_a_chatty_server_never_blocks_on_its_stderr_and_the_test_is_shown_what_it_said(
    db_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """400 requests logged at info are ~90 KB of stderr, more than a pipe holds (64 KiB): a
    server writing to a pipe nobody reads stopped answering part way."""
    with serving(db_url, "--log-level", "info") as (base, _), httpx.Client(timeout=10) as client:
        answers = [client.get(f"{base}/health/live").status_code for _ in range(400)]
    assert answers == [200] * 400
    said = capsys.readouterr().err
    assert "the server's stderr" in said and "Finished server process" in said
    assert said.count("path=/health/live") > 10


def wait_for_turn(server: str, match_id: str) -> dict[str, Any]:
    """The match once somebody is to act (the dealer runs on the server's own thread)."""
    for _ in range(100):
        state = httpx.get(f"{server}/matches/{match_id}").json()
        if state["to_act"]:
            return state
        time.sleep(0.1)
    pytest.fail(f"nobody is to act: {state}")


@pytest.fixture
def match_left_before_the_deal(db_url: str, registry: GameRegistry) -> str:
    """A match stored by a process that stopped before its dealer job ran."""
    store = open_store(db_url)
    match = MatchService(store, registry, NullRunner()).create_match("highcard", 2)
    store.close()
    return match.match_id


def test_served_store_resumes_work_left_by_a_stopped_process(
    match_left_before_the_deal: str, server: str
) -> None:
    assert wait_for_turn(server, match_left_before_the_deal)["view"]["round"] == 1


def test_served_stream_delivers_a_move_made_after_it_opened(server: str) -> None:
    health = httpx.get(f"{server}/health").json()
    assert health["store"] == "sqlite"
    match_id = httpx.post(f"{server}/matches", json={"game": "highcard", "players": 2}).json()["id"]
    tokens = [
        httpx.post(f"{server}/matches/{match_id}/seats/{seat}/claim").json()["token"]
        for seat in (0, 1)
    ]
    state = wait_for_turn(server, match_id)
    seat, version = state["to_act"][0], state["version"]
    auth = {"Authorization": f"Bearer {tokens[seat]}"}
    received: list[dict] = []
    opened = threading.Event()

    def listen() -> None:
        with httpx.stream(
            "GET", f"{server}/matches/{match_id}/stream", headers=auth, timeout=20,
            params={"after": version, "until_version": version + 1},
        ) as response:  # fmt: skip
            opened.set()  # the server answered with headers: the stream is open
            for line in response.iter_lines():
                if line.startswith("data: "):
                    received.append(json.loads(line.removeprefix("data: ")))

    listener = threading.Thread(target=listen)
    listener.start()
    assert opened.wait(20), "the stream never opened"
    move = httpx.get(f"{server}/matches/{match_id}/moves", headers=auth).json()["moves"][0]
    played = httpx.post(
        f"{server}/matches/{match_id}/moves", headers=auth,
        json={"move": move, "expected_version": version},
    )  # fmt: skip
    assert played.status_code == 200, played.text
    listener.join(timeout=20)
    assert not listener.is_alive()
    assert [(e["version"], e["type"]) for e in received] == [(version + 1, "played")]
    assert received[0]["payload"]["seat"] == seat
    assert received[0]["payload"]["card"] == move["card"]
