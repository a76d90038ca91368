"""The breaker around each backend: outages become prompt 503s, answers close it again."""

from __future__ import annotations

import pytest

from core import breaker as breaker_module
from core.breaker import Breaker
from core.errors import ServiceUnavailable, VersionConflict


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    clock = Clock()
    monkeypatch.setattr(breaker_module.time, "monotonic", clock)
    return clock


def is_outage(exc: BaseException) -> bool:
    return isinstance(exc, ConnectionError)


def fail(breaker: Breaker, exc: BaseException) -> None:
    with breaker:
        raise exc


def test_an_outage_is_a_503_with_the_backends_code_and_retry_after(clock: Clock) -> None:
    breaker = Breaker("store_unavailable", "the event store", is_outage, cooldown=2.5)
    with pytest.raises(ServiceUnavailable) as info:
        fail(breaker, ConnectionError("refused"))
    assert info.value.status == 503 and info.value.code == "store_unavailable"
    assert info.value.retry_after == 3
    assert "the event store" in info.value.message and "refused" not in info.value.message


def test_after_an_outage_calls_fail_at_once_until_the_cooldown_is_over(clock: Clock) -> None:
    breaker = Breaker("store_unavailable", "the event store", is_outage, cooldown=1.0)
    with pytest.raises(ServiceUnavailable):
        fail(breaker, ConnectionError())
    reached = []
    with pytest.raises(ServiceUnavailable), breaker:
        reached.append("the backend")
    assert reached == []
    clock.now += 1.0
    with breaker:  # the probe answers: closed again
        reached.append("the probe")
    with breaker:
        reached.append("the next call")
    assert reached == ["the probe", "the next call"]


def test_while_one_probe_is_out_the_other_calls_still_fail_fast(clock: Clock) -> None:
    breaker = Breaker("queue_unavailable", "the job queue", is_outage, cooldown=1.0)
    with pytest.raises(ServiceUnavailable):
        fail(breaker, ConnectionError())
    clock.now += 1.5
    with breaker:  # the probe, still waiting for its answer
        with pytest.raises(ServiceUnavailable) as other, breaker:
            pass
        assert other.value.code == "queue_unavailable"


def test_a_failed_probe_opens_the_breaker_again(clock: Clock) -> None:
    breaker = Breaker("store_unavailable", "the event store", is_outage, cooldown=1.0)
    with pytest.raises(ServiceUnavailable):
        fail(breaker, ConnectionError())
    clock.now += 1.0
    with pytest.raises(ServiceUnavailable):
        fail(breaker, ConnectionError("still refused"))
    clock.now += 0.5
    with pytest.raises(ServiceUnavailable), breaker:
        pytest.fail("the breaker let a call through half a cooldown after a failed probe")


def test_errors_the_backend_answered_with_pass_through_and_close_it(clock: Clock) -> None:
    breaker = Breaker("store_unavailable", "the event store", is_outage, cooldown=1.0)
    with pytest.raises(ServiceUnavailable):
        fail(breaker, ConnectionError())
    clock.now += 1.0
    with pytest.raises(VersionConflict):
        fail(breaker, VersionConflict("m", 1, 2))
    with breaker:
        pass


def test_without_a_cooldown_every_call_is_tried(clock: Clock) -> None:
    breaker = Breaker("store_unavailable", "the event store", is_outage, cooldown=0)
    for _ in range(3):
        with pytest.raises(ServiceUnavailable):
            fail(breaker, ConnectionError())
    with breaker:
        pass


def test_a_probe_cancelled_before_its_answer_neither_closes_the_breaker_nor_blocks_probes(
    clock: Clock,
) -> None:
    """An awaited call cancelled mid-probe (its client went away) proves nothing: the
    breaker stays open, and the next call after the cooldown probes again."""
    breaker = Breaker("store_unavailable", "the event store", is_outage, cooldown=1.0)
    with pytest.raises(ServiceUnavailable):
        fail(breaker, ConnectionError("refused"))
    clock.now += 1.5
    with pytest.raises(KeyboardInterrupt):  # a BaseException, as a cancellation is
        fail(breaker, KeyboardInterrupt())
    breaker.__enter__()  # the next call probes again...
    with pytest.raises(ServiceUnavailable), breaker:  # ...while the others wait for it
        pass
    breaker.__exit__(None, None, None)
    with breaker:  # its answer closed the breaker
        pass
