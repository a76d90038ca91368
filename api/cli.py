"""The ``ironworks`` command: serve the API, run RQ workers, write the OpenAPI document."""

from __future__ import annotations

import argparse
import copy
import logging
import os
import re
import sys
import threading
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from api import package_version
from core.errors import ServiceUnavailable
from core.service import MatchService

log = logging.getLogger(__name__)

OPENAPI_PATH = Path(__file__).resolve().parent.parent / "openapi" / "openapi.json"
"""The committed document, next to the packages in a source checkout."""
SETTLE_EVERY = 2.0
"""Seconds between two attempts to queue the jobs an outage kept this process from queuing."""


def _serve(args: argparse.Namespace) -> int:
    import uvicorn

    from api.app import create_app
    from worker.bootstrap import build_service, store_url_from_env
    from worker.inprocess import InProcessRunner

    store_url = args.store or store_url_from_env()
    service = build_service(
        store_url=store_url, redis_url=args.redis, client_seeds=not args.no_client_seeds,
        webhook_allow_private=args.webhook_allow_private or None,
    )  # fmt: skip
    print(
        startup_line(service, store_url, f"http://{args.host}:{args.port}"),
        file=sys.stderr,
        flush=True,
    )
    if isinstance(service.runner, InProcessRunner):
        # Jobs queued in a thread died with the last process; RQ workers reconcile by themselves
        threading.Thread(target=_resume_left_work, args=(service,), daemon=True).start()
    stop = threading.Event()
    threading.Thread(target=_settle_until, args=(service, stop), daemon=True).start()
    try:
        uvicorn.run(
            create_app(service, cors_origins=args.cors_origin), host=args.host, port=args.port,
            log_level=args.log_level, log_config=uvicorn_log_config(),
            # open event streams never finish by themselves: do not wait for them forever
            timeout_graceful_shutdown=5,
        )  # fmt: skip
    finally:
        stop.set()
        service.runner.close()
        service.store.close()
        if service.webhooks is not None:
            service.webhooks.store.close()
    return 0


class RedactSecrets(logging.Filter):
    """Blanks stream tickets in access-log lines (the request line holds the query string);
    seat tokens travel in headers, which access logs do not show."""

    _TICKET = re.compile(r"(?i)([?&]ticket=)[^&\s]*")

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                self._TICKET.sub(r"\1…", a) if isinstance(a, str) else a for a in record.args
            )
        elif isinstance(record.msg, str):
            record.msg = self._TICKET.sub(r"\1…", record.msg)
        return True


def uvicorn_log_config() -> dict[str, Any]:
    """uvicorn's logging, with :class:`RedactSecrets` on the access log."""
    from uvicorn.config import LOGGING_CONFIG

    config = copy.deepcopy(LOGGING_CONFIG)
    config.setdefault("filters", {})["redact_secrets"] = {"()": RedactSecrets}
    config["handlers"]["access"].setdefault("filters", []).append("redact_secrets")
    return config


def _settle_until(service: MatchService, stop: threading.Event) -> None:
    """Queue what outages kept this process from queuing, once the backends are back: the
    RQ workers' reconcilers would find it too, the in-process runner has nobody else."""
    while not stop.wait(SETTLE_EVERY):
        try:
            if settled := service.settle():
                log.warning("queued the jobs of %d match(es) left behind by an outage", settled)
        except Exception:  # the loop must outlive any one bad match
            log.exception("settling matches failed; retrying")


def _resume_left_work(service: MatchService) -> None:
    from worker.reconciler import Reconciler

    try:
        Reconciler(service).scan()
    except ServiceUnavailable as exc:
        log.warning("work left by the last run not resumed: %s", exc.message)


def startup_line(service: MatchService, store_url: str, serving: str) -> str:
    """What an operator needs to see at once: which store, which runner, who does the jobs,
    which games (and whether clients may choose seeds)."""
    games = _games(service.games)
    runner, workers = _describe_runner(service.runner)
    seeds = "allowed" if service.client_seeds else "refused"
    return (
        f"ironworks {package_version()} serving {serving} | store {public_url(store_url)} | "
        f"runner {runner} | workers: {workers} | games: {games} | client seeds: {seeds}"
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
    from worker.bootstrap import ALLOW_PRIVATE_ENV, store_url_from_env
    from worker.rq_runner import run_worker

    redis_url = args.redis or os.environ.get("REDIS_URL")
    if not redis_url:
        print("ironworks worker: give --redis URL or set REDIS_URL", file=sys.stderr)
        return 2
    store_url = args.store or store_url_from_env()
    if args.webhook_allow_private:
        # Every service the worker builds (one per store its jobs name) reads it from there.
        os.environ[ALLOW_PRIVATE_ENV] = "1"
    print(worker_line(store_url, redis_url), file=sys.stderr, flush=True)
    run_worker(redis_url, store_url, burst=args.burst)
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


def _tournament(args: argparse.Namespace) -> int:
    from worker.tournament import main as tournament_main

    return tournament_main(args)


def installed_games_document() -> str:
    """The OpenAPI document text for the games installed in this environment."""
    from litestar.testing import TestClient

    from api.app import DOCS_PATH, create_app
    from api.openapi_doc import render_document
    from core.registry import default_registry
    from core.store.memory import MemoryStore

    service = MatchService(MemoryStore(), default_registry())
    with TestClient(create_app(service)) as client:
        response = client.get(f"{DOCS_PATH}/openapi.json")
        response.raise_for_status()
        return render_document(response.json())


def _openapi(args: argparse.Namespace) -> int:
    text = installed_games_document()
    path = Path(args.output)
    if args.check:
        current = path.read_text(encoding="utf-8") if path.exists() else ""
        if current != text:
            print(
                f"{path} is out of date: run `ironworks openapi` to regenerate it", file=sys.stderr
            )
            return 1
        print(f"{path} is up to date")
        return 0
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    print(f"wrote {path}")
    return 0


def build_parser() -> argparse.ArgumentParser:
    from worker.bootstrap import ALLOW_PRIVATE_ENV, DEFAULT_STORE

    parser = argparse.ArgumentParser(
        prog="ironworks", description="Event-sourced board game service."
    )
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
    serve.add_argument("--port", type=int, default=8000, help="port (default: %(default)s)")
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
    serve.add_argument("--log-level", default="info", help="uvicorn log level (default: info)")
    serve.add_argument(
        "--cors-origin", action="append", default=[], metavar="ORIGIN",
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

    tournament = commands.add_parser(
        "tournament",
        help="play bots against each other in memory and print their figures",
        description="Play seat-rotated matches between bots in memory (no store, no server) "
        "and print win rates with Wilson 95%% intervals, mean scores and margins, game length, "
        "eliminations, negative final income and move-time p50/p95 per bot.",
    )
    tournament.add_argument("--game", required=True, help="game id, e.g. brass-birmingham")
    tournament.add_argument("--players", type=int, required=True, help="seats per match")
    tournament.add_argument(
        "--bots", required=True,
        help="comma-separated bots cycled over the seats: random, greedy, search[:LEVEL]"
        "[@THINK_MS], e.g. search:hard,greedy",
    )  # fmt: skip
    tournament.add_argument("--games", type=int, default=20, help="matches (default: 20)")
    tournament.add_argument(
        "--processes", type=int, default=1,
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
    tournament.add_argument("--quiet", action="store_true", help="no progress bar")
    tournament.set_defaults(run=_tournament)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return args.run(args)


if __name__ == "__main__":
    sys.exit(main())
