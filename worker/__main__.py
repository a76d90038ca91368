"""``python -m worker``: the same RQ worker as ``ironworks worker``."""

from __future__ import annotations

import argparse
import os

from worker.bootstrap import store_url_from_env
from worker.rq_runner import run_worker


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m worker",
        description="Run an ironworks RQ worker: it plays bot seats and system tasks of "
        "matches, and re-enqueues work that a dead worker left unfinished.",
    )
    parser.add_argument(
        "--redis",
        default=os.environ.get("REDIS_URL"),
        help="Redis URL of the job queue, optionally with ?prefix=NAME (default: $REDIS_URL)",
    )
    parser.add_argument(
        "--store",
        default=store_url_from_env(),
        help="event store whose unfinished matches this worker watches, also used for jobs "
        "that do not name a store (default: $IRONWORKS_STORE or sqlite:///ironworks.sqlite3)",
    )
    parser.add_argument(
        "--burst", action="store_true", help="exit once the queue is empty instead of waiting"
    )
    args = parser.parse_args(argv)
    if not args.redis:
        parser.error("give --redis URL or set REDIS_URL")
    run_worker(args.redis, args.store, burst=args.burst)


if __name__ == "__main__":
    main()
