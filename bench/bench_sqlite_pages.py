"""Pages the SQLite store writes per move: recorded Brass games replayed through the service
(blocking path, system steps inline) on a fresh store, interleaved across ``--matches``
matches as a server meets them; the write-ahead log is never checkpointed meanwhile, so its
size counts every page each commit wrote.

    PYTHONPATH=$PWD python bench/bench_sqlite_pages.py [--matches 16]

Printed: WAL frames (pages) per move, and each table's pages at the end (SQLite's ``dbstat``).
"""

from __future__ import annotations

import argparse
import random
import shutil
import sys
import tempfile
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_http import record_games

from worker.bootstrap import build_service
from worker.inprocess import InlineRunner

FRAME_HEADER = 24
"""A WAL frame: this header and one page."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=16)
    args = parser.parse_args()
    games = record_games("brass-birmingham", 2, 4)
    tmp = Path(tempfile.mkdtemp(prefix="iwbench-pages-"))
    path = tmp / "pages.sqlite3"
    try:
        service = build_service(store_url=f"sqlite:///{path}", runner=InlineRunner())
        conn = service.store._conn()  # type: ignore[attr-defined]
        conn.execute("PRAGMA wal_autocheckpoint=0")
        plays = []
        for n in range(args.matches):
            game = games[n % len(games)]
            match = service.create_match("brass-birmingham", 2, seed=game.seed)
            tokens = [service.claim_seat(match.match_id, seat) for seat in range(2)]
            plays.append((match.match_id, tokens, list(game.moves)))
        wal = Path(f"{path}-wal")
        start, moves, rng = wal.stat().st_size, 0, random.Random(1)
        while plays:
            match_id, tokens, rest = play = rng.choice(plays)
            if not rest:
                plays.remove(play)
                continue
            seat, move = rest.pop(0)
            version = service.load(match_id).version
            service.submit(match_id, tokens[seat], move, version, uuid.uuid4().hex)
            moves += 1
        page = conn.execute("PRAGMA page_size").fetchone()[0]
        written = wal.stat().st_size - start
        frames = written / (page + FRAME_HEADER)
        print(
            f"{moves} moves over {args.matches} matches: {frames / moves:.2f} WAL frames of "
            f"{page} bytes per move ({written / moves / 1024:.1f} KiB)"
        )
        for table in ("events", "idempotency_keys", "streams", "snapshots"):
            pages = conn.execute("SELECT count(*) FROM dbstat WHERE name = ?", (table,))
            print(f"  {table}: {pages.fetchone()[0]} pages")
        service.runner.close()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
