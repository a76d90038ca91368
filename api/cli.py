"""The ``ironworks`` command: serve the API, run RQ workers, write the OpenAPI document."""

from __future__ import annotations

import argparse
import asyncio
import datetime
import inspect
import logging
import os
import re
import socket
import sqlite3
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import urlsplit, urlunsplit

import msgspec

from api import package_version
from core.errors import BadRequest, ServiceUnavailable
from core.service import MatchService

log = logging.getLogger(__name__)

OPENAPI_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"
"""The committed document, next to the packages in a source checkout."""


def checked_url(url: str, what: str = "store") -> str:
    """``url`` if a store (or queue) could ever be reached at it; a usage error otherwise,
    said before anything is built: a bad port or a Redis URL without a host was a traceback
    from the Redis client, a port out of range a server answering 503 for ever, and a query
    on a SQLite URL became part of the file's name (``m.db?mode=ro``)."""
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        if parts.query or parts.fragment or "?" in url or "#" in url:
            raise BadRequest(
                "unknown_store",
                f"a SQLite {what} URL is sqlite:///path, with no ?query or #fragment "
                f"(it would become part of the file's name), not {url!r}",
            )
        return url
    if parts.scheme in ("redis", "rediss", "postgresql", "postgres"):
        try:
            parts.port  # noqa: B018 - read for its ValueError
        except ValueError as exc:
            raise BadRequest(
                "unknown_store", f"the {what} URL {public_url(url)!r} has a bad port: {exc}"
            ) from None
        if parts.scheme.startswith("redis") and not parts.hostname:
            raise BadRequest(
                "unknown_store",
                f"a Redis {what} URL names its host: redis://host:port/db, not {url!r}",
            )
    return url


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from api.serving import APP_FACTORY, CONFIG_ENV, ServeConfig, build, run_processes
    from worker.bootstrap import build_service, store_url_from_env

    store_url = checked_url(args.store or store_url_from_env())
    if args.redis:
        checked_url(args.redis, "queue")
    if args.workers > 1 and store_url.startswith("memory:"):
        print("ironworks serve: --workers N needs a store the processes share: memory:// "
              "lives in one process", file=sys.stderr)  # fmt: skip
        return 2
    config = ServeConfig(
        store_url=store_url, redis_url=args.redis, client_seeds=not args.no_client_seeds,
        cors_origins=args.cors_origin, log_format=args.log_format, log_level=args.log_level,
        webhook_allow_private=args.webhook_allow_private or None,
    )  # fmt: skip
    serving = f"http://{args.host}:{args.port}"
    run = {
        "host": args.host, "port": args.port, "log_level": args.log_level,
        "log_config": None, "access_log": False,  # api.logging_setup logs each request
        # open event streams never finish by themselves: do not wait for them forever
        "timeout_graceful_shutdown": 5,
    }  # fmt: skip
    if args.workers == 1:
        app, service = build(config)
        if not can_listen(args.host, args.port):
            for close in app.on_shutdown:  # what uvicorn would have run: runner, store closed
                if inspect.isawaitable(done := close()):
                    asyncio.run(done)  # type: ignore[arg-type]
            return 1
        announce(startup_line(service, store_url, serving), config.log_format)
        uvicorn.run(app, **run)
        return 0
    with tempfile.TemporaryDirectory(prefix="ironworks-serve-") as run_dir:
        # Opened once here first, so the processes find the store's tables made.
        service = build_service(store_url=store_url, redis_url=args.redis)
        try:
            line = startup_line(service, store_url, serving, processes=args.workers)
        finally:
            service.runner.close()
            service.store.close()
        if not can_listen(args.host, args.port):
            return 1
        announce(line, config.log_format)
        config = msgspec.structs.replace(config, run_dir=run_dir)
        os.environ[CONFIG_ENV] = msgspec.json.encode(config).decode()
        # Each process writes its metrics here, /metrics adds them up (prometheus_client's
        # multiprocess mode); a fresh folder per run, so no dead process's figures linger.
        metrics_dir = Path(run_dir) / "metrics"
        metrics_dir.mkdir()
        os.environ.setdefault("PROMETHEUS_MULTIPROC_DIR", str(metrics_dir))
        run_processes(APP_FACTORY, args.workers, factory=True, **run)
    return 0


def can_listen(host: str, port: int) -> bool:
    """Whether ``serve`` can listen on ``host:port`` now; if not (a name that does not
    resolve, a port in use, an address of another machine) one line says why. uvicorn
    found out only after the startup line had said it was serving, and told it in log lines
    of its own (exit 3). A bind tried and let go, as uvicorn's own (``SO_REUSEADDR``), so a
    port left in TIME_WAIT is no refusal."""
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
        family, kind, proto, _, address = found[0]
        with socket.socket(family, kind, proto) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            probe.bind(address)
    except OSError as exc:  # socket.gaierror among them
        print(f"ironworks serve: cannot listen on {host}:{port}: {exc.strerror or exc}",
              file=sys.stderr)  # fmt: skip
        return False
    return True


def announce(line: str, log_format: str) -> None:
    """The startup line: as it is on a console, one JSON object among the others in JSON."""
    if log_format == "json":
        fields = {"event": line, "level": "info", "logger": "ironworks", "timestamp": _now()}
        line = msgspec.json.encode(fields).decode()
    print(line, file=sys.stderr, flush=True)


def _now() -> str:
    return datetime.datetime.now(datetime.UTC).isoformat().replace("+00:00", "Z")


class RedactSecrets(logging.Filter):
    """Blanks stream tickets in any log line that quotes a URL with its query string (the
    request lines of :mod:`api.logging_setup` leave the query out altogether); seat tokens
    travel in headers, which no log line shows."""

    _TICKET = re.compile(r"(?i)([?&]ticket=)[^&\s]*")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                self._TICKET.sub(r"\1…", a) if isinstance(a, str) else a for a in record.args
            )
        elif isinstance(record.msg, str):
            record.msg = self._TICKET.sub(r"\1…", record.msg)
        return True


def startup_line(service: MatchService, store_url: str, serving: str, processes: int = 1) -> str:
    """What an operator needs to see at once: which store, how many API processes, which
    runner, who does the jobs, which games (and whether clients may choose seeds)."""
    games = _games(service.games)
    runner, workers = _describe_runner(service.runner)
    if processes > 1:
        workers = workers.replace("this API process", f"each of the {processes} API processes")
    seeds = "allowed" if service.client_seeds else "refused"
    return (
        f"ironworks {package_version()} serving {serving} | api processes: {processes} | "
        f"store {public_url(store_url)} | runner {runner} | workers: {workers} | "
        f"games: {games} | client seeds: {seeds}"
    )


def _describe_runner(runner: Any) -> tuple[str, str]:
    from worker.inprocess import InProcessRunner
    from worker.rq_runner import RQRunner

    if isinstance(runner, RQRunner):
        kwargs = runner.connection.get_connection_kwargs()
        where = f"{kwargs.get('host', '?')}:{kwargs.get('port', '?')}/{kwargs.get('db', 0)}"
        try:
            alive = f"{runner.live_workers()} RQ worker(s) alive on the queue"
        except ServiceUnavailable:
            alive = "unknown: the queue does not answer"
        return f"rq (queue {runner.keys.queue!r} on redis {where})", alive
    if isinstance(runner, InProcessRunner):
        pool = runner.pool
        thinking = f" (search bots think in {pool.processes} process(es))" if pool else ""
        return f"in-process{thinking}", "job threads of this API process"
    return type(runner).__name__, "none"


def public_url(url: str) -> str:
    """``url`` without its password, fit for logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    host = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def _worker(args: argparse.Namespace) -> int:
    from redis.exceptions import ConnectionError as RedisConnectionError

    from worker.bootstrap import ALLOW_PRIVATE_ENV, store_url_from_env
    from worker.rq_runner import run_worker

    redis_url = args.redis or os.environ.get("REDIS_URL")
    if not redis_url:
        print("ironworks worker: give --redis URL or set REDIS_URL", file=sys.stderr)
        return 2
    checked_url(redis_url, "queue")
    store_url = checked_url(args.store or store_url_from_env())
    if args.webhook_allow_private:
        # Every service the worker builds (one per store its jobs name) reads it from there.
        os.environ[ALLOW_PRIVATE_ENV] = "1"
    if args.metrics_port is not None:
        from prometheus_client import start_http_server

        from api.metrics import observe_service

        # A worker's jobs run in its own process (no fork per job): count them here, where
        # the API's /metrics cannot see them.
        observe_service()
        try:
            start_http_server(args.metrics_port, addr=args.metrics_host)
        except OSError as exc:  # in use, or not an address of this machine
            print(f"ironworks worker: cannot serve metrics on {args.metrics_host}:"
                  f"{args.metrics_port}: {exc.strerror or exc}", file=sys.stderr)  # fmt: skip
            return 1
    print(worker_line(store_url, redis_url), file=sys.stderr, flush=True)
    try:
        run_worker(redis_url, store_url, burst=args.burst)
    except RedisConnectionError as exc:
        print(f"ironworks worker: cannot reach Redis at {public_url(redis_url)}: {exc}",
              file=sys.stderr)  # fmt: skip
        return 1
    return 0


def worker_line(store_url: str, redis_url: str) -> str:
    """The worker's counterpart of :func:`startup_line`."""
    from core.registry import default_registry
    from worker.rq_runner import Keys

    url, keys = Keys.of_url(redis_url)
    return (
        f"ironworks {package_version()} worker | store {public_url(store_url)} | "
        f"queue {keys.queue!r} on {public_url(url)} | games: {_games(default_registry())}"
    )


def _games(registry: Any) -> str:
    games = ", ".join(f"{g.id} {g.rules_version}" for g in registry.games()) or "none"
    skipped = len(registry.problems)
    return games + (f" ({skipped} plugin(s) skipped: see /health)" if skipped else "")


def _check_plugin(args: argparse.Namespace) -> int:
    from core.conformance import params_for, run_checks
    from core.registry import default_registry

    registry = default_registry()
    if args.game not in registry:
        installed = ", ".join(g.id for g in registry.games()) or "none"
        print(f"ironworks check-plugin: no game {args.game!r} is installed (installed: "
              f"{installed})", file=sys.stderr)  # fmt: skip
        for problem in registry.problems:
            print(f"  plugin {problem.plugin} skipped: {problem.error}", file=sys.stderr)
        return 2
    game = registry.get(args.game)
    for players in args.players or ():
        if not game.min_players <= players <= game.max_players:
            print(f"ironworks check-plugin: {game.title} takes {game.min_players} to "
                  f"{game.max_players} players, not {players}", file=sys.stderr)  # fmt: skip
            return 2
    params = params_for(game)
    if args.playouts is not None:
        params = msgspec.structs.replace(params, playouts=args.playouts)
    if args.players is not None:
        params = msgspec.structs.replace(params, players=args.players)
    print(f"conformance of {game.id} {game.rules_version}: {params}", flush=True)
    passed = run_checks(game, params, lambda line: print(line, flush=True))
    print("all checks passed" if passed else "some checks failed")
    return 0 if passed else 1


def _tournament(args: argparse.Namespace) -> int:
    from worker.tournament import main as tournament_main

    return tournament_main(args)


def _play(args: argparse.Namespace) -> int:
    from worker.remote import main as play_main

    return play_main(args)


def installed_games_document() -> str:
    """The OpenAPI document text for the games installed in this environment."""
    from litestar.testing import TestClient

    from api.app import DOCS_PATH, create_app
    from api.openapi_doc import render_document
    from core.registry import default_registry
    from core.store.memory import MemoryStore

    service = MatchService(MemoryStore(), default_registry())
    quiet = logging.root.manager.disable
    logging.disable(logging.INFO)  # the app's log of its one request is no output of ours
    try:
        with TestClient(create_app(service)) as client:
            response = client.get(f"{DOCS_PATH}/openapi.json")
            response.raise_for_status()
            return render_document(response.json())
    finally:
        logging.disable(quiet)


def _openapi(args: argparse.Namespace) -> int:
    text = installed_games_document()
    path = Path(args.output)
    try:
        if args.check:
            current = path.read_text(encoding="utf-8") if path.exists() else None
            if current != text:
                verdict = "is out of date" if current is not None else "does not exist"
                output = "" if path == OPENAPI_PATH else f" --output {path}"
                command = f"ironworks openapi{output}"
                print(f"{path} {verdict}: run `{command}` to write it", file=sys.stderr)
                return 1
            print(f"{path} is up to date")
            return 0
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    except OSError as exc:  # a directory, a read-only place: the path given is at fault
        print(f"ironworks openapi: cannot use {path}: {exc.strerror or exc}", file=sys.stderr)
        return 2
    print(f"wrote {path}")
    return 0


LOG_LEVELS = ("critical", "error", "warning", "info", "debug")


def at_least(low: int) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` up, refused as a usage error (exit 2,
    no traceback) rather than failing later, deep in whatever the number was for."""

    def number(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be {low} or more, not {value}")
        return value

    return number


def port(text: str) -> int:
    """An argparse type: a TCP port to listen on."""
    value = at_least(1)(text)
    if value > 65535:
        raise argparse.ArgumentTypeError(f"a port is 1 to 65535, not {value}")
    return value


def origin(text: str) -> str:
    """An argparse type: a browser origin as it sends it (``scheme://host[:port]``, no path
    and no trailing slash), or ``*``. A browser's ``Origin`` is compared as a string, so
    ``localhost:5173`` or ``http://host/`` would never match, and CORS would stay off
    for the page without a word."""
    if text == "*":
        return text
    parts = urlsplit(text)
    try:
        port_ok = parts.port is None or parts.port > 0
    except ValueError:  # not a number, or out of range
        port_ok = False
    if (
        not port_ok
        or parts.scheme not in ("http", "https")
        or not parts.hostname
        or parts.path
        or parts.query
        or parts.fragment
        or parts.username is not None
    ):
        raise argparse.ArgumentTypeError(
            f"an origin is scheme://host[:port] (e.g. http://localhost:5173) or *, not {text!r}"
        )
    return text


class Parser(argparse.ArgumentParser):
    """argparse's parser, saying a usage error in one line (which command, what is wrong,
    where the help is) instead of the command's whole usage block before it; its
    subcommands' parsers are of this class too."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    from api.logging_setup import LOG_FORMATS
    from worker.bootstrap import ALLOW_PRIVATE_ENV, DEFAULT_STORE

    parser = Parser(prog="ironworks", description="Event-sourced board game service.")
    parser.add_argument("--version", action="version", version=f"ironworks {package_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    serve = commands.add_parser(
        "serve",
        help="run the REST API",
        description="Run the REST API with uvicorn. Jobs (bots, system steps) go to RQ when "
        "--redis or REDIS_URL is set, otherwise to a thread inside this process. "
        "The web table is served at /, interactive docs at /docs.",
    )
    serve.add_argument(
        "--host", default="127.0.0.1", help="interface to bind (default: %(default)s)"
    )
    serve.add_argument("--port", type=port, default=8000, help="port (default: %(default)s)")
    serve.add_argument(
        "--store",
        default=None,
        help=f"event store URL: sqlite:///path, redis://host:port/db, "
        f"postgresql://user@host:port/db[?schema=NAME] or memory:// "
        f"(default: $IRONWORKS_STORE, else {DEFAULT_STORE})",
    )
    serve.add_argument(
        "--redis", default=None, help="Redis URL for RQ queues (default: $REDIS_URL)"
    )
    serve.add_argument(
        "--log-level", type=str.lower, choices=LOG_LEVELS, default="info",
        help="least severe level logged (default: %(default)s)",
    )  # fmt: skip
    serve.add_argument(
        "--log-format", choices=LOG_FORMATS, default="console",
        help="console: readable lines; json: one JSON object a line, each request with its "
        "request id, route, status, latency and, for a move, match, seat and move type "
        "(default: %(default)s)",
    )  # fmt: skip
    serve.add_argument(
        "--workers", type=at_least(1), default=1, metavar="N",
        help="run N API processes on the one port, sharing the store (not memory://); "
        "the in-process runner then runs jobs in each of them (default: 1)",
    )  # fmt: skip
    serve.add_argument(
        "--cors-origin", action="append", default=[], metavar="ORIGIN", type=origin,
        help="let pages from ORIGIN (e.g. http://localhost:5173, or *) call the API from a "
        "browser; repeat for several origins (default: none, CORS off)",
    )  # fmt: skip
    serve.add_argument(
        "--no-client-seeds",
        action="store_true",
        help="refuse matches whose creator chooses the seed (403 client_seed_refused): "
        "whoever knows a seed can deal the same cards in a match of their own",
    )
    serve.add_argument(
        "--webhook-allow-private", action="store_true",
        help="let webhooks call loopback, private and link-local addresses (default: "
        f"refused, so a hook cannot reach what only this server can; also ${ALLOW_PRIVATE_ENV}=1)",
    )  # fmt: skip
    serve.set_defaults(run=_serve)

    worker = commands.add_parser(
        "worker",
        help="run an RQ worker for bot moves and system steps",
        description="Run an RQ worker that executes the jobs API processes enqueue (bot "
        "moves, system steps) and re-enqueues work that a dead worker left unfinished. Start "
        "as many as needed; all must use the API's store. Also run as `python -m worker`.",
    )
    worker.add_argument(
        "--redis",
        default=None,
        help="Redis URL of the queues, optionally with ?prefix=NAME (default: $REDIS_URL)",
    )
    worker.add_argument(
        "--store", default=None, help="event store URL (default: $IRONWORKS_STORE, else "
        f"{DEFAULT_STORE})",
    )  # fmt: skip
    worker.add_argument("--burst", action="store_true", help="exit once the queues are empty")
    worker.add_argument(
        "--metrics-port", type=port, default=None, metavar="PORT",
        help="serve this worker's Prometheus metrics (its jobs, bot think time, moves, store "
        "appends) at http://HOST:PORT/metrics",
    )  # fmt: skip
    worker.add_argument(
        "--metrics-host", default="127.0.0.1", help="address of --metrics-port (default: 127.0.0.1)"
    )
    worker.add_argument(
        "--webhook-allow-private", action="store_true",
        help=f"deliver webhooks to private addresses too (as serve's; also ${ALLOW_PRIVATE_ENV}=1)",
    )  # fmt: skip
    worker.set_defaults(run=_worker)

    openapi = commands.add_parser(
        "openapi",
        help="write the OpenAPI document",
        description="Write the OpenAPI document of the API, with the move and event schemas of "
        "every game installed in this environment, as stable sorted JSON.",
    )
    openapi.add_argument(
        "--output", default=str(OPENAPI_PATH), help="where to write it (default: %(default)s)"
    )
    openapi.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 if the file differs from what the app generates",
    )
    openapi.set_defaults(run=_openapi)

    check = commands.add_parser(
        "check-plugin",
        help="run the conformance suite on an installed game",
        description="Run the plugin conformance suite (core.conformance: random playouts to "
        "the end, replay equality, listed moves accepted and unlisted refused, no hidden-field "
        "leak, position round trip, seed determinism) on a game installed in this environment "
        "through the ironworks.games entry points. Exits 1 if a check fails.",
    )
    check.add_argument("game", help="the game id, e.g. brass-birmingham")
    check.add_argument(
        "--playouts", type=at_least(1), default=None,
        help="random playouts per player count (default: the game's own conformance metadata)",
    )  # fmt: skip
    check.add_argument(
        "--players", type=at_least(1), action="append", default=None, metavar="N",
        help="player count to test; repeat for several (default: every count the game takes)",
    )  # fmt: skip
    check.set_defaults(run=_check_plugin)

    tournament = commands.add_parser(
        "tournament",
        help="play bots against each other in memory and print their figures",
        description="Play seat-rotated matches between bots in memory (no store, no server) "
        "and print win rates with Wilson 95% intervals, mean scores and margins, game length, "
        "eliminations, negative final income and move-time p50/p95 per bot.",
    )
    tournament.add_argument("--game", required=True, help="game id, e.g. brass-birmingham")
    tournament.add_argument("--players", type=at_least(1), required=True, help="seats per match")
    tournament.add_argument(
        "--bots", required=True,
        help="comma-separated bots cycled over the seats: random, greedy, search[:LEVEL]"
        "[@THINK_MS], e.g. search:hard,greedy",
    )  # fmt: skip
    tournament.add_argument("--games", type=at_least(1), default=20, help="matches (default: 20)")
    tournament.add_argument(
        "--processes", type=at_least(1), default=1,
        help="play matches in this many processes (default: 1)",
    )  # fmt: skip
    tournament.add_argument(
        "--clock", choices=["cpu", "wall"], default="cpu",
        help="what search bots' think budgets count: cpu (default) is the thinking "
        "process's CPU time, so figures hold on a busy machine; wall is elapsed time, as "
        "the service counts it (then use at most one process per idle core)",
    )  # fmt: skip
    tournament.add_argument("--seed", default="tournament", help="seed of the whole run")
    tournament.add_argument("--options", default=None, help="the game's options as JSON")
    tournament.add_argument(
        "--json",
        default=None,
        metavar="FILE",
        help="also write the summary and every match's record here (rewritten as each "
        "match ends, so a stopped tournament keeps the matches it finished)",
    )
    tournament.add_argument(
        "--resume", action="store_true",
        help="go on with the tournament in the --json file: keep its matches, play the "
        "ones it lacks up to --games (same game, players, bots, seed, clock and options)",
    )  # fmt: skip
    tournament.add_argument("--quiet", action="store_true", help="no progress bar")
    tournament.set_defaults(run=_tournament)

    play = commands.add_parser(
        "play",
        help="play a seat of a match on a remote server with a bot",
        description="Play one seat of a match on a running ironworks with a bot, through the "
        "REST API only (the seat's token, view and legal moves; the game's plugin must be "
        "installed here for its determinize hook): an AI opponent run as a service of its "
        "own. Runs until the match is over.",
    )
    play.add_argument("url", help="the server's base URL, e.g. http://127.0.0.1:8000")
    play.add_argument("match", help="the match id")
    play.add_argument(
        "--token", default=None,
        help="the seat's token (default: $IRONWORKS_SEAT_TOKEN, which keeps it out of the "
        "process list)",
    )  # fmt: skip
    play.add_argument(
        "--bot", default="search",
        help="random, greedy or search[:LEVEL][@THINK_MS], e.g. search:hard (default: search, "
        "at its default level)",
    )  # fmt: skip
    play.add_argument(
        "--decisions", type=at_least(1), default=None, metavar="N",
        help="stop after N decisions (default: play until the match is over)",
    )  # fmt: skip
    play.add_argument(
        "--patience", type=at_least(1), default=None, metavar="SECONDS",
        help="give up (exit 2, 'stalled') once the match has stayed at one version this long "
        "while the bot waits for the other seats (default: wait as long as they take)",
    )  # fmt: skip
    play.add_argument("--quiet", action="store_true", help="print only the final line")
    play.set_defaults(run=_play)
    return parser


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line's arguments; one a command does not take is refused by that
    command (``ironworks serve: error: unrecognized arguments: …``), not by ``ironworks``."""
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if extra:
        commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        commands.choices[args.command].error(f"unrecognized arguments: {' '.join(extra)}")
    return args


def main(argv: list[str] | None = None) -> int:
    args = parse(argv)
    try:
        return args.run(args)
    except BadRequest as exc:  # a setting refused on the way in, such as the store URL
        print(f"ironworks {args.command}: {exc.message}", file=sys.stderr)
        return 2
    except ServiceUnavailable as exc:  # a backend needed to start did not answer
        print(f"ironworks {args.command}: {exc.message}; start again once it answers",
              file=sys.stderr)  # fmt: skip
        return 1
    except sqlite3.OperationalError as exc:
        if not _locked(exc):
            raise
        # Another process (a migration, a backup, a stuck server) held the SQLite file's
        # lock past the store's wait: not a usage error, and no traceback either.
        store = public_url(getattr(args, "store", None) or _default_store())
        print(f"ironworks {args.command}: the SQLite store {store} is locked by another "
              f"process ({exc}, after waiting for it); start again once it lets go",
              file=sys.stderr)  # fmt: skip
        return 1


def _locked(exc: sqlite3.OperationalError) -> bool:
    code = (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF
    return code in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED) or "locked" in str(exc)


def _default_store() -> str:
    from worker.bootstrap import store_url_from_env

    return store_url_from_env()


if __name__ == "__main__":
    sys.exit(main())
