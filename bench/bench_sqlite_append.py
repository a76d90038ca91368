"""CPU instructions of one awaited SQLite append as a move makes it, load-free (callgrind).

    PYTHONPATH=$PWD python bench/bench_sqlite_append.py [--appends 1000] [--baseline CHECKOUT]

A fresh store file; 16 streams appended to in turn through the store's async twin on the
event loop, each append 3 events of about a Brass move's size (a Birmingham move stores
2.6 events of 48 bytes of JSON on average), an idempotency key (a random UUID, as clients
send), a request digest and the waiting mark. After 200 appends to warm up, callgrind counts
``--appends`` more alone (``os.sched_yield`` marks them, as in ``bench_http.py``) and the
count per append is printed. ``--baseline CHECKOUT`` measures that checkout's store the same
way first (its ``core`` imported instead of this one's), for a before/after in one session.
Needs valgrind.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import tempfile
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STREAMS = 16
WARM = 200


def appends(count: int, warm: int) -> None:
    """The measured run (in the child callgrind runs)."""
    from core.events import NewEvent
    from core.store.sqlite import SQLiteStore

    data = b'{"seat":1,"card":12,"location":"walsall","level":2}'
    events = [NewEvent(type="built", data=data, actor=1, rules_version="1")] * 3
    streams = [uuid.uuid4().hex for _ in range(STREAMS)]
    versions = dict.fromkeys(streams, 0)
    with tempfile.TemporaryDirectory(prefix="iwbench-append-") as tmp:
        store = SQLiteStore(Path(tmp) / "append.sqlite3")
        aio = store.aio

        async def run(n: int) -> None:
            for i in range(n):
                stream = streams[i % STREAMS]
                key, digest = uuid.uuid4().hex, "d" * 64
                result = await aio.append(stream, versions[stream], events, key, digest, True)
                versions[stream] = result.last_version

        async def measured() -> None:
            await run(warm)
            os.sched_yield()  # callgrind dumps its counts here (--dump-before)
            await run(count)
            os.sched_yield()

        asyncio.run(measured())
        store.close()


def count_instructions(checkout: Path, count: int) -> float:
    with tempfile.TemporaryDirectory(prefix="iwbench-cg-") as tmp:
        out = Path(tmp) / "callgrind.out"
        cmd = [
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
            "--dump-before=sched_yield", sys.executable, __file__, "--run", str(count),
        ]  # fmt: skip
        env = {**os.environ, "PYTHONPATH": str(checkout), "PYTHONHASHSEED": "0"}
        subprocess.run(cmd, env=env, capture_output=True, check=True)
        dumped = Path(f"{out}.2").read_text()  # .1: setup and warm-up; .2: the appends
        return int(dumped.split("\ntotals: ", 1)[1].split()[0]) / count


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appends", type=int, default=1000)
    parser.add_argument("--baseline", type=Path, help="another checkout, measured first")
    parser.add_argument("--run", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run:
        appends(args.run, WARM)
        return
    checkouts = ([args.baseline.resolve()] if args.baseline else []) + [ROOT]
    for checkout in checkouts:
        per_append = count_instructions(checkout, args.appends)
        print(f"{checkout}: {per_append / 1e3:.1f}k CPU instructions per awaited append")


if __name__ == "__main__":
    main()
