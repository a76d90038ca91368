"""The event store contract, run against every backend (memory, SQLite, Redis, PostgreSQL)."""

from __future__ import annotations

import multiprocessing
import threading
import time
from pathlib import Path

import pytest
import store_backends
from store_backends import Backend, append_later, tick

import core.store.postgres
import core.store.redis
import core.store.sqlite
import core.store.wakeup
from core.errors import BadRequest, IdempotencyMismatch, VersionConflict
from core.events import NewEvent, Snapshot
from core.store.base import open_store
from core.store.sqlite import SQLiteStore

backend = store_backends.backend_fixture(store_backends.BACKENDS + store_backends.AWAITED_BACKENDS)
durable = store_backends.backend_fixture(store_backends.DURABLE_BACKENDS)

spawn = multiprocessing.get_context("spawn")


def fill(backend: Backend, stream_id: str, count: int) -> None:
    backend.store.append(stream_id, 0, [tick(0, n) for n in range(count)])


# --- appending ----------------------------------------------------------------------------


def test_expected_version_zero_creates_the_stream_with_full_envelopes(backend: Backend) -> None:
    store = backend.store
    before = time.time()
    events = [
        NewEvent(type="started", data=b'{"deck":[3,1,2]}', actor=None, rules_version="1"),
        NewEvent(type="dealt", data='{"name":"Zoë"}'.encode(), actor=-1, rules_version="1"),
        NewEvent(type="played", data=b"{}", actor=2, rules_version="2b"),
    ]
    result = store.append("m1", 0, events, idempotency_key="k1", request_digest="d1")

    assert (result.stream_id, result.first_version, result.last_version) == ("m1", 1, 3)
    assert not result.replayed
    stored = store.read("m1")
    assert [e.version for e in stored] == [1, 2, 3]
    assert [(e.type, e.data, e.actor, e.rules_version) for e in stored] == [
        (e.type, e.data, e.actor, e.rules_version) for e in events
    ]
    assert all(e.stream_id == "m1" and e.idempotency_key == "k1" for e in stored)
    assert all(before - 1 <= e.timestamp <= time.time() + 1 for e in stored)
    assert store.version("m1") == 3


def test_versions_stay_gapless_across_appends(backend: Backend) -> None:
    store = backend.store
    store.append("m1", 0, [tick(0, 0)])
    result = store.append("m1", 1, [tick(0, 1), tick(0, 2)])
    store.append("m1", 3, [tick(0, 3)])

    assert (result.first_version, result.last_version) == (2, 3)
    assert [e.version for e in store.read("m1")] == [1, 2, 3, 4]
    assert [e.idempotency_key for e in store.read("m1")] == [None] * 4


def test_stale_expected_version_raises_conflict_with_current_version(backend: Backend) -> None:
    fill(backend, "m1", 3)

    with pytest.raises(VersionConflict) as caught:
        backend.store.append("m1", 2, [tick(1, 0)])

    assert caught.value.current_version == 3
    assert caught.value.expected == 2
    assert caught.value.status == 409 and caught.value.code == "version_conflict"
    assert backend.store.version("m1") == 3


def test_expected_version_zero_on_an_existing_stream_conflicts(backend: Backend) -> None:
    fill(backend, "m1", 2)

    with pytest.raises(VersionConflict) as caught:
        backend.store.append("m1", 0, [tick(1, 0)])

    assert caught.value.current_version == 2
    assert [e.actor for e in backend.store.read("m1")] == [0, 0]


def test_expected_version_beyond_a_missing_stream_conflicts_and_creates_nothing(
    backend: Backend,
) -> None:
    with pytest.raises(VersionConflict) as caught:
        backend.store.append("ghost", 4, [tick(0, 0)])

    assert caught.value.current_version == 0
    assert backend.store.version("ghost") == 0
    assert backend.store.count_streams() == 0


# --- idempotency --------------------------------------------------------------------------


def test_retried_idempotency_key_returns_first_result_and_appends_nothing(
    backend: Backend,
) -> None:
    store = backend.store
    fill(backend, "m1", 1)
    first = store.append("m1", 1, [tick(1, 0), tick(1, 1)], "move-7", "digest-a")
    store.append("m1", 3, [tick(2, 0)])

    again = store.append("m1", 3, [tick(1, 0), tick(1, 1)], "move-7", "digest-a")

    assert not first.replayed and again.replayed
    assert (again.first_version, again.last_version) == (first.first_version, first.last_version)
    assert store.version("m1") == 4
    seen = store.lookup("m1", "move-7")
    assert seen is not None
    assert (seen[0].first_version, seen[0].last_version, seen[1]) == (2, 3, "digest-a")


def test_retried_key_wins_over_a_stale_expected_version(backend: Backend) -> None:
    """A client retrying after a lost response still has the old version; it must get its
    first result back, not a conflict."""
    fill(backend, "m1", 1)
    backend.store.append("m1", 1, [tick(1, 0)], "move-1", "d")

    again = backend.store.append("m1", 1, [tick(1, 0)], "move-1", "d")

    assert again.replayed and again.last_version == 2


def test_a_conflicting_append_keeps_neither_its_events_nor_its_key(backend: Backend) -> None:
    """The key is no retry of anything: the same request at the right version goes in."""
    fill(backend, "m1", 2)

    with pytest.raises(VersionConflict):
        backend.store.append("m1", 1, [tick(1, 0)], "move-1", "d")

    assert backend.store.lookup("m1", "move-1") is None and backend.store.version("m1") == 2
    assert not backend.store.append("m1", 2, [tick(1, 0)], "move-1", "d").replayed


def test_idempotency_key_reused_for_a_different_request_is_refused(backend: Backend) -> None:
    fill(backend, "m1", 1)
    backend.store.append("m1", 1, [tick(1, 0)], "move-1", "digest-a")

    with pytest.raises(IdempotencyMismatch) as caught:
        backend.store.append("m1", 2, [tick(1, 9)], "move-1", "digest-b")

    assert caught.value.code == "idempotency_key_reused" and caught.value.status == 422
    assert backend.store.version("m1") == 2


def test_an_empty_idempotency_key_is_still_a_key(backend: Backend) -> None:
    backend.store.append("m1", 0, [tick(1, 0)], "", "d")

    assert backend.store.append("m1", 1, [tick(1, 0)], "", "d").replayed


def test_idempotency_keys_belong_to_one_stream(backend: Backend) -> None:
    backend.store.append("m1", 0, [tick(1, 0)], "move-1", "d")

    other = backend.store.append("m2", 0, [tick(1, 0)], "move-1", "d")

    assert not other.replayed
    assert backend.store.version("m2") == 1
    assert backend.store.lookup("m2", "never-used") is None


def test_retried_idempotency_key_is_recognised_after_a_restart(durable: Backend) -> None:
    durable.store.append("m1", 0, [tick(1, 0)], "create-1", "d")
    durable.store.close()

    restarted = durable.reopen()
    again = restarted.append("m1", 0, [tick(1, 0)], "create-1", "d")

    assert again.replayed and (again.first_version, again.last_version) == (1, 1)
    assert [e.version for e in restarted.read("m1")] == [1]


def test_retried_idempotency_key_is_recognised_in_a_new_process(durable: Backend) -> None:
    fill(durable, "m1", 1)
    child = spawn.Process(target=append_later, args=(durable.url, "m1", 0.0, "from-child"))
    child.start()
    child.join(30)
    assert child.exitcode == 0

    again = durable.reopen().append("m1", 1, [tick(99, 0)], "from-child", "digest")

    assert again.replayed and again.last_version == 2
    assert durable.store.version("m1") == 2


def test_a_store_opened_before_a_fork_works_in_the_child_and_the_parent(
    durable: Backend, notification_only: None
) -> None:
    """RQ forks a work horse per job from a process that may already hold the store."""
    fill(durable, "m1", 1)
    durable.store.wait("m1", 0, timeout=1)  # the Redis listener thread exists before the fork

    def child() -> None:
        durable.store.append("m1", 1, [tick(1, 0)])
        started = time.monotonic()
        assert durable.store.wait("m1", 2, timeout=10)
        assert time.monotonic() - started < 5, "the child was not woken by the parent's append"

    forked = multiprocessing.get_context("fork").Process(target=child)
    forked.start()
    assert durable.store.wait("m1", 1, timeout=10), "the parent missed the child's append"
    time.sleep(0.3)  # let the child get into its wait
    durable.store.append("m1", 2, [tick(0, 2)])
    forked.join(30)

    assert forked.exitcode == 0
    assert [e.actor for e in durable.store.read("m1")] == [0, 1, 0]


def test_events_are_unchanged_after_a_restart(durable: Backend) -> None:
    fill(durable, "m1", 3)
    before = durable.store.read("m1")

    assert durable.reopen().read("m1") == before


# --- reading ------------------------------------------------------------------------------


def test_read_returns_events_after_a_version_up_to_a_limit(backend: Backend) -> None:
    fill(backend, "m1", 6)
    store = backend.store

    assert [e.version for e in store.read("m1", after=2, limit=3)] == [3, 4, 5]
    assert [e.version for e in store.read("m1", after=4)] == [5, 6]
    assert [e.version for e in store.read("m1", limit=2)] == [1, 2]
    assert store.read("m1", after=6) == []
    assert store.read("m1", after=2, limit=0) == []
    assert store.read("nobody") == []


def test_version_of_a_missing_stream_is_zero(backend: Backend) -> None:
    assert backend.store.version("nobody") == 0


@pytest.mark.parametrize("name", ["\x00", "m1\x00", "\x00m1"], ids=["nul", "trailing", "leading"])
def test_a_name_holding_a_nul_is_an_unknown_stream(backend: Backend, name: str) -> None:
    """PostgreSQL's text holds no NUL: a read of such a name was a DataError (a 500 for
    ``/matches/%00/...`` there), where every other store answered "no such stream"."""
    fill(backend, "m1", 2)
    store = backend.store
    assert store.read(name) == [] and store.read(name, 0, 5) == []
    assert store.version(name) == 0
    assert store.lookup(name, "key") is None and store.lookup("m1", name) is None
    assert store.load_snapshot(name) is None
    assert [info.stream_id for info in store.list_streams()] == ["m1"]


@pytest.mark.parametrize("name", ["\x00", "m1\x00", "\x00m2"], ids=["nul", "trailing", "leading"])
def test_a_write_naming_a_nul_is_refused_and_stores_nothing(backend: Backend, name: str) -> None:
    """The memory, SQLite and Redis stores took an append to a NUL-named stream that
    PostgreSQL cannot store: a match that existed on one backend was unknown on another."""
    fill(backend, "m1", 2)
    store = backend.store
    with pytest.raises(ValueError, match="NUL"):
        store.append(name, 0, [tick(0, 0)])
    with pytest.raises(ValueError, match="NUL"):
        store.append("m1", 2, [tick(0, 2)], idempotency_key=f"k{name}")
    with pytest.raises(ValueError, match="NUL"):
        store.save_snapshot(name, Snapshot(version=1, format="f", data=b"x"))
    assert store.read(name) == [] and store.version(name) == 0 and store.version("m1") == 2
    assert store.load_snapshot(name) is None
    assert [info.stream_id for info in store.list_streams()] == ["m1"]
    assert store.append("m1", 2, [tick(0, 2)], idempotency_key="k").last_version == 3


def test_streams_are_listed_newest_first_with_offset_and_limit(backend: Backend) -> None:
    for i in range(5):
        backend.store.append(f"m{i}", 0, [tick(0, n) for n in range(i + 1)])
    store = backend.store

    assert store.count_streams() == 5
    listed = store.list_streams()
    assert [(s.stream_id, s.version) for s in listed] == [
        ("m4", 5), ("m3", 4), ("m2", 3), ("m1", 2), ("m0", 1),
    ]  # fmt: skip
    assert [s.stream_id for s in store.list_streams(offset=1, limit=2)] == ["m3", "m2"]
    assert store.list_streams(offset=5) == []
    assert [s.created_at for s in listed] == sorted((s.created_at for s in listed), reverse=True)


def test_a_listed_stream_shows_its_current_version(backend: Backend) -> None:
    fill(backend, "m1", 1)
    backend.store.append("m1", 1, [tick(0, 1)])

    assert [(s.stream_id, s.version) for s in backend.store.list_streams()] == [("m1", 2)]


# --- snapshots ----------------------------------------------------------------------------


def test_a_stream_has_no_snapshot_until_one_is_saved(backend: Backend) -> None:
    fill(backend, "m1", 3)
    assert backend.store.load_snapshot("m1") is None
    assert backend.store.load_snapshot("missing") is None


def test_a_saved_snapshot_comes_back_byte_for_byte(backend: Backend) -> None:
    fill(backend, "m1", 3)
    data = bytes(range(256)) * 4  # a pickle is binary: every byte value must survive
    backend.store.save_snapshot("m1", Snapshot(version=3, format="1:game:2", data=data))

    assert backend.store.load_snapshot("m1") == Snapshot(version=3, format="1:game:2", data=data)
    assert backend.store.load_snapshot("m2") is None


def test_a_later_snapshot_replaces_an_earlier_one_never_the_reverse(backend: Backend) -> None:
    fill(backend, "m1", 9)
    store = backend.store
    store.save_snapshot("m1", Snapshot(version=4, format="a", data=b"four"))
    store.save_snapshot("m1", Snapshot(version=8, format="b", data=b"eight"))
    store.save_snapshot("m1", Snapshot(version=6, format="c", data=b"six"))  # a slower racer

    assert store.load_snapshot("m1") == Snapshot(version=8, format="b", data=b"eight")


def test_snapshots_are_kept_across_a_restart(durable: Backend) -> None:
    fill(durable, "m1", 2)
    durable.store.save_snapshot("m1", Snapshot(version=2, format="f", data=b"\x00state"))

    reopened = durable.reopen()

    assert reopened.load_snapshot("m1") == Snapshot(version=2, format="f", data=b"\x00state")
    assert [e.version for e in reopened.read("m1")] == [1, 2]


# --- streams waiting for a job -------------------------------------------------------------


def waiting_ids(store: object) -> list[str]:
    return [s.stream_id for s in store.waiting_streams()]  # type: ignore[attr-defined]


def test_a_new_stream_counts_as_waiting_unless_marked_otherwise(backend: Backend) -> None:
    store = backend.store
    store.append("unmarked", 0, [tick(0, 0)])
    store.append("idle", 0, [tick(0, 0)], waiting=False)
    store.append("busy", 0, [tick(0, 0)], waiting=True)

    assert waiting_ids(store) == ["busy", "unmarked"]  # newest first


def test_each_append_sets_clears_or_keeps_the_waiting_mark(backend: Backend) -> None:
    store = backend.store
    store.append("m1", 0, [tick(0, 0)], waiting=True)
    store.append("m1", 1, [tick(0, 1)], waiting=False)
    assert waiting_ids(store) == []
    store.append("m1", 2, [tick(0, 2)])  # no word: the mark stays
    assert waiting_ids(store) == []
    store.append("m1", 3, [tick(0, 3)], waiting=True)

    assert [(s.stream_id, s.version) for s in store.waiting_streams()] == [("m1", 4)]


def test_an_empty_append_at_the_current_version_changes_only_the_mark(backend: Backend) -> None:
    store = backend.store
    store.append("m1", 0, [tick(0, 0)], waiting=True)

    store.append("m1", 1, [], waiting=False)

    assert waiting_ids(store) == [] and store.version("m1") == 1
    with pytest.raises(VersionConflict):
        store.append("m1", 0, [], waiting=True)  # a stale look: refused
    store.append("missing", 0, [], waiting=True)  # nothing to mark: nothing made
    assert waiting_ids(store) == [] and store.version("missing") == 0
    assert [s.stream_id for s in store.list_streams()] == ["m1"]


def test_waiting_streams_page_like_the_stream_list(backend: Backend) -> None:
    for n in range(5):
        backend.store.append(f"m{n}", 0, [tick(0, n)], waiting=n != 2)

    assert waiting_ids(backend.store) == ["m4", "m3", "m1", "m0"]
    page = backend.store.waiting_streams(offset=1, limit=2)
    assert [s.stream_id for s in page] == ["m3", "m1"]


def test_the_waiting_mark_is_kept_across_a_restart(durable: Backend) -> None:
    durable.store.append("m1", 0, [tick(0, 0)], waiting=True)
    durable.store.append("m2", 0, [tick(0, 0)], waiting=False)

    assert waiting_ids(durable.reopen()) == ["m1"]


# --- waiting ------------------------------------------------------------------------------


@pytest.fixture
def notification_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Redis and PostgreSQL waiters also re-read the version now and then in case a
    notification was lost; push that far out so the wake-up tests prove the pub/sub and
    LISTEN/NOTIFY paths themselves."""
    monkeypatch.setattr(core.store.wakeup, "SAFETY_POLL_SECONDS", 60.0)


def test_wait_wakes_when_another_thread_appends(backend: Backend, notification_only: None) -> None:
    fill(backend, "m1", 1)
    timer = threading.Timer(0.2, backend.store.append, args=("m1", 1, [tick(1, 0)]))
    started = time.monotonic()
    timer.start()

    woke = backend.store.wait("m1", 1, timeout=10)

    timer.join()
    assert woke
    assert 0.15 <= time.monotonic() - started < 2
    assert backend.store.version("m1") == 2


def test_wait_times_out_without_new_events(backend: Backend) -> None:
    fill(backend, "m1", 2)
    started = time.monotonic()

    assert not backend.store.wait("m1", 2, timeout=0.3)
    assert time.monotonic() - started >= 0.3


def test_wait_returns_at_once_when_the_stream_is_already_past(backend: Backend) -> None:
    fill(backend, "m1", 2)
    started = time.monotonic()

    assert backend.store.wait("m1", 1, timeout=10)
    assert time.monotonic() - started < 1


def test_wait_on_a_stream_that_does_not_exist_yet_wakes_on_its_creation(
    backend: Backend, notification_only: None
) -> None:
    timer = threading.Timer(0.2, fill, args=(backend, "later", 1))
    started = time.monotonic()
    timer.start()

    assert backend.store.wait("later", 0, timeout=10)
    assert time.monotonic() - started < 2
    timer.join()


def test_wait_wakes_when_another_process_appends(durable: Backend, notification_only: None) -> None:
    fill(durable, "m1", 1)
    child = spawn.Process(target=append_later, args=(durable.url, "m1", 0.3))
    child.start()

    woke = durable.store.wait("m1", 1, timeout=30)
    noticed = time.time()

    child.join(30)
    assert woke and child.exitcode == 0
    appended = durable.store.read("m1", after=1)[0]
    # Woken by the notification (or SQLite's short poll), not by the timeout.
    assert noticed - appended.timestamp < 0.5


# --- opening by URL -----------------------------------------------------------------------


def test_sqlite_url_with_three_slashes_is_relative_to_the_working_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    store = open_store("sqlite:///data/events.sqlite3")
    try:
        assert isinstance(store, SQLiteStore)
        assert (tmp_path / "data" / "events.sqlite3").exists()
    finally:
        store.close()


def test_sqlite_url_with_four_slashes_is_absolute(tmp_path: Path) -> None:
    store = open_store(f"sqlite:///{tmp_path}/abs.sqlite3")
    try:
        assert store.path == f"{tmp_path}/abs.sqlite3"  # type: ignore[attr-defined]
        assert (tmp_path / "abs.sqlite3").exists()
    finally:
        store.close()


def test_sqlite_store_uses_write_ahead_logging(tmp_path: Path) -> None:
    store = SQLiteStore(tmp_path / "wal.sqlite3")
    try:
        mode = store._conn().execute("PRAGMA journal_mode").fetchone()[0]
        assert mode == "wal"
    finally:
        store.close()


def test_sqlite_stores_event_data_as_blobs_and_the_waiting_mark_as_an_integer(
    tmp_path: Path,
) -> None:
    # The store binds them as bytearray and int (cheaper to bind than bytes and bool): the
    # file must hold what binding bytes and bool stored, and reads must give bytes back.
    store = SQLiteStore(tmp_path / "types.sqlite3")
    try:
        data = b'{"seat":1}'
        store.append("s", 0, [tick(0, 0)], waiting=False)
        store.append("s", 1, [NewEvent(type="t", data=data, actor=1, rules_version="1")], "k",
                     waiting=True)  # fmt: skip
        conn = store._conn()
        kinds = conn.execute("SELECT DISTINCT typeof(data) FROM events").fetchall()
        marks = conn.execute("SELECT typeof(waiting), waiting FROM streams").fetchall()
        assert kinds == [("blob",)] and marks == [("integer", 1)]
        read = store.read("s", after=1)[0].data
        assert type(read) is bytes and read == data
    finally:
        store.close()


def test_a_new_sqlite_file_takes_the_stores_page_size_and_an_older_file_keeps_its_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    new = SQLiteStore(tmp_path / "new.sqlite3")
    monkeypatch.setattr(core.store.sqlite, "PAGE_SIZE", 4096)  # as files were made before
    old = SQLiteStore(tmp_path / "old.sqlite3")
    old.append("s", 0, [tick(0, 0)], "k0")
    old.close()
    monkeypatch.undo()
    reopened = SQLiteStore(tmp_path / "old.sqlite3")
    try:
        sizes = [s._conn().execute("PRAGMA page_size").fetchone()[0] for s in (new, reopened)]
        assert sizes == [core.store.sqlite.PAGE_SIZE, 4096] and sizes[0] != 4096
        reopened.append("s", 1, [tick(0, 1)], "k1")
        assert [e.version for e in reopened.read("s")] == [1, 2]
        assert reopened.append("s", 0, [tick(0, 0)], "k0").replayed
    finally:
        new.close()
        reopened.close()


def test_sqlite_takes_a_streams_version_from_its_events_not_its_row(tmp_path: Path) -> None:
    # A move no longer rewrites its stream's row; files written before kept the version
    # there too, and whatever the row says, the events are the truth.
    store = SQLiteStore(tmp_path / "rows.sqlite3")
    try:
        store.append("s", 0, [tick(0, 0), tick(0, 1)])
        store._conn().execute("UPDATE streams SET version = 7")
        assert store.version("s") == 2
        assert [(i.stream_id, i.version) for i in store.list_streams()] == [("s", 2)]
        assert [(i.stream_id, i.version) for i in store.waiting_streams()] == [("s", 2)]
        with pytest.raises(VersionConflict):
            store.append("s", 7, [tick(0, 2)])
        assert store.append("s", 2, [tick(0, 2)], waiting=False).last_version == 3
        assert store.version("s") == 3 and store.waiting_streams() == []
    finally:
        store.close()


def test_sqlite_in_memory_database_is_refused_since_threads_would_not_share_it() -> None:
    with pytest.raises(BadRequest) as caught:
        open_store("sqlite:///:memory:")
    assert caught.value.code == "unsupported_store"


def test_unknown_store_url_is_refused_with_a_code() -> None:
    with pytest.raises(BadRequest) as caught:
        open_store("mysql://localhost/x")
    assert caught.value.code == "unknown_store"


@pytest.mark.redis
def test_redis_keys_live_under_the_url_prefix(redis_url: str) -> None:
    import redis

    from core.store.redis import RedisStore

    store = open_store(redis_url)
    try:
        assert isinstance(store, RedisStore)
        prefix = redis_url.rsplit("prefix=", 1)[1]
        assert store.prefix == prefix and "prefix" not in store.url
        store.append("m1", 0, [tick(0, 0)], "k", "d")
        keys = {k.decode() for k in redis.Redis.from_url(store.url).scan_iter(f"{prefix}*")}
        assert keys and all(k.startswith(f"{prefix}:") for k in keys)
    finally:
        store.close()


def test_redis_url_without_prefix_uses_the_default_prefix() -> None:
    from core.store.redis import split_prefix

    assert split_prefix("redis://h:6379/2") == ("redis://h:6379/2", "ironworks")
    assert split_prefix("redis://h/0?prefix=a&socket_timeout=5") == (
        "redis://h/0?socket_timeout=5",
        "a",
    )
