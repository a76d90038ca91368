"""Event store throughput: appends (with an idempotency key) and reads, per backend.

    python3 bench/bench_store.py [appends]

Prints appends per second and read latencies for memory, SQLite (a temporary file), Redis
on 127.0.0.1:6379 and PostgreSQL on 127.0.0.1:5432 (database ``test``, a throwaway schema);
each skipped when no server answers. Single process, one writer.
"""

from __future__ import annotations

import sys
import tempfile
import time
import uuid

from core.events import NewEvent
from core.store.base import open_store

PG = "postgresql://postgres@127.0.0.1:5432/test"
EVENT = [NewEvent(type="played", data=b'{"seat":1,"card":12}', actor=1, rules_version="1")]


def measure(url: str, appends: int) -> str:
    store = open_store(url)
    try:
        start = time.perf_counter()
        for version in range(appends):
            store.append("bench", version, EVENT, f"key{version}", "digest")
        append_rate = appends / (time.perf_counter() - start)
        start = time.perf_counter()
        for _ in range(20):
            store.read("bench")
        full_ms = (time.perf_counter() - start) / 20 * 1e3
        start = time.perf_counter()
        for _ in range(500):
            store.read("bench", after=appends - 5)
        tail_us = (time.perf_counter() - start) / 500 * 1e6
    finally:
        if url.startswith("redis"):
            import redis

            client = redis.Redis(host="127.0.0.1", port=6379)
            for key in client.scan_iter(match=f"{url.rsplit('=', 1)[1]}*"):
                client.delete(key)
        store.close()
        if url.startswith("postgresql"):
            import psycopg

            with psycopg.connect(PG, autocommit=True) as conn:
                conn.execute(f"DROP SCHEMA {url.rsplit('=', 1)[1]} CASCADE")
    kind = url.split(":", 1)[0]
    return (
        f"{kind:10} {append_rate:9.0f} appends/s   read {appends} events {full_ms:7.2f} ms"
        f"   read last 5 {tail_us:7.0f} us"
    )


def main() -> None:
    appends = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
    urls = ["memory://", f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"]
    try:
        import redis

        redis.Redis(host="127.0.0.1", port=6379, socket_timeout=1).ping()
        urls.append(f"redis://127.0.0.1:6379/0?prefix=iwbench-{uuid.uuid4().hex[:8]}")
    except Exception:
        print("redis: no server on 127.0.0.1:6379, skipped")
    try:
        import psycopg

        psycopg.connect(PG, connect_timeout=2).close()
        urls.append(f"{PG}?schema=iwbench_{uuid.uuid4().hex[:8]}")
    except Exception:
        print(f"postgresql: no server at {PG}, skipped")
    for url in urls:
        print(measure(url, appends))


if __name__ == "__main__":
    main()
