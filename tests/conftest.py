"""Shared fixtures: the test-only game, a service on the memory store, Redis and PostgreSQL
access."""

from __future__ import annotations

import os
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from core.registry import GameRegistry
from core.service import MatchService
from core.store.memory import MemoryStore
from core.tasks import NullRunner

HIGHCARD_DIST = Path(__file__).parent / "highcard_dist"
"""A folder laid out like site-packages: the highcard package plus its dist-info, whose
entry point installs the game the way a third-party plugin would be installed."""

REDIS_HOST, REDIS_PORT = "127.0.0.1", 6379


def install_highcard() -> None:
    """Put the highcard distribution on the import path so its entry point is found."""
    if str(HIGHCARD_DIST) not in sys.path:
        sys.path.insert(0, str(HIGHCARD_DIST))


def installed_game_ids() -> list[str]:
    """Collection-time twin of the ``registry`` fixture: the same discovery, ids only."""
    install_highcard()
    registry = GameRegistry()
    registry.load_entry_points()
    return [game.id for game in registry.games()]


def highcard_path_env() -> dict[str, str]:
    """Environment for a subprocess (a worker) that must find the highcard plugin too."""
    env = dict(os.environ)
    parts = [str(HIGHCARD_DIST), str(Path(__file__).parent.parent)]
    if env.get("PYTHONPATH"):
        parts.append(env["PYTHONPATH"])
    env["PYTHONPATH"] = os.pathsep.join(parts)
    return env


@pytest.fixture(scope="session")
def registry() -> GameRegistry:
    """Every installed game plus highcard, all found through the entry-point group."""
    install_highcard()
    reg = GameRegistry()
    reg.load_entry_points()
    assert "highcard" in reg, reg.problems
    return reg


@pytest.fixture
def service(registry: GameRegistry) -> Iterator[MatchService]:
    """A service on the memory store whose jobs run inline, in order, in the caller."""
    from worker.inprocess import InlineRunner

    runner = InlineRunner()
    svc = MatchService(MemoryStore(), registry, runner, snapshot_every=5)
    runner.bind(svc)
    yield svc


@pytest.fixture
def jobs() -> NullRunner:
    """The job list of :func:`svc`."""
    return NullRunner()


@pytest.fixture
def svc(registry: GameRegistry, jobs: NullRunner) -> MatchService:
    """A service on the memory store whose jobs are only collected in ``jobs``, so a test
    runs them by hand, one at a time (or drops them, as a dead worker would)."""
    return MatchService(MemoryStore(), registry, jobs)


def redis_available() -> bool:
    try:
        import redis

        redis.Redis(host=REDIS_HOST, port=REDIS_PORT, socket_timeout=1).ping()
        return True
    except Exception:
        return False


@pytest.fixture
def redis_url() -> Iterator[str]:
    """A Redis URL with a key prefix of its own; the keys are deleted afterwards.

    Skips when no Redis answers, unless IRONWORKS_REQUIRE_REDIS is set (CI), where it fails.
    """
    if not redis_available():
        why = f"no Redis answers on {REDIS_HOST}:{REDIS_PORT}"
        if os.environ.get("IRONWORKS_REQUIRE_REDIS"):
            pytest.fail(f"{why}, and IRONWORKS_REQUIRE_REDIS is set")
        pytest.skip(why)
    import redis

    prefix = f"iwtest-{uuid.uuid4().hex[:12]}"
    yield f"redis://{REDIS_HOST}:{REDIS_PORT}/0?prefix={prefix}"
    client = redis.Redis(host=REDIS_HOST, port=REDIS_PORT)
    for key in client.scan_iter(match=f"{prefix}*", count=1000):
        client.delete(key)


POSTGRES_URL = os.environ.get(
    "IRONWORKS_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"
)
"""The database the PostgreSQL tests use; each test gets a schema of its own in it."""


def postgres_available() -> bool:
    try:
        import psycopg

        psycopg.connect(POSTGRES_URL, connect_timeout=1).close()
        return True
    except Exception:
        return False


@pytest.fixture
def postgres_url() -> Iterator[str]:
    """A PostgreSQL URL with a schema of its own, dropped afterwards.

    Skips when no PostgreSQL answers, unless IRONWORKS_REQUIRE_POSTGRES is set (CI), where
    it fails.
    """
    if not postgres_available():
        why = f"no PostgreSQL answers at {POSTGRES_URL}"
        if os.environ.get("IRONWORKS_REQUIRE_POSTGRES"):
            pytest.fail(f"{why}, and IRONWORKS_REQUIRE_POSTGRES is set")
        pytest.skip(why)
    import psycopg

    schema = f"iwtest_{uuid.uuid4().hex[:12]}"
    yield f"{POSTGRES_URL}?schema={schema}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")
        conn.execute(f"DROP SCHEMA IF EXISTS {schema}_webhooks CASCADE")  # core.webhooks
