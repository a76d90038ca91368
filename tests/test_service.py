"""The command service: decide with the match's own randomness, append with optimistic
concurrency and idempotency, enqueue what the match waits for, refuse bad input clearly."""

from __future__ import annotations

import copy
import hashlib
import pickle
from collections.abc import Sequence
from random import Random
from typing import Any

import msgspec
import pytest

from core.errors import (
    BadRequest,
    Conflict,
    IdempotencyMismatch,
    IllegalMove,
    InvalidPosition,
    NotFound,
    ServiceUnavailable,
    VersionConflict,
)
from core.events import AppendResult, NewEvent
from core.game import SYSTEM
from core.hooks import hookimpl
from core.match import MatchState
from core.registry import GameRegistry
from core.rng import decision_rng
from core.service import MatchService
from core.store.memory import MemoryStore
from core.tasks import Job, NullRunner
from worker.jobs import execute

SEED = "a-secret-seed-that-must-stay-on-the-server"


def _dealt(svc: MatchService, jobs: NullRunner) -> tuple[MatchState, list[str]]:
    """A two-seat highcard match with both seats claimed and the first round dealt."""
    match = svc.create_match("highcard", 2, seed=SEED)
    tokens = [svc.claim_seat(match.match_id, seat) for seat in range(2)]
    assert execute(svc, jobs.jobs[-1]) == "done"
    return svc.load(match.match_id), tokens


def _play(card: int) -> bytes:
    return msgspec.json.encode({"type": "play", "card": card})


def _hand(svc: MatchService, match: MatchState, seat: int) -> list[int]:
    return svc.view(match, seat)["hand"]


def _registry_with(game: Any) -> GameRegistry:
    class Plugin:
        @staticmethod
        @hookimpl
        def ironworks_games() -> list[Any]:
            return [game]

    games = GameRegistry()
    games.register(Plugin, name="test")
    return games


# --- illegal input -----------------------------------------------------------------------


def test_card_not_in_hand_is_refused_with_a_code_and_a_sentence(
    svc: MatchService, jobs: NullRunner
) -> None:
    match, tokens = _dealt(svc, jobs)
    not_mine = _hand(svc, match, 1)[0]
    with pytest.raises(IllegalMove) as info:
        svc.submit(match.match_id, tokens[0], _play(not_mine), match.version)
    assert info.value.code == "card_not_in_hand"
    assert str(not_mine) in info.value.message and " " in info.value.message
    assert svc.store.version(match.match_id) == match.version


def test_playing_out_of_turn_is_refused_as_not_your_turn(
    svc: MatchService, jobs: NullRunner
) -> None:
    match, tokens = _dealt(svc, jobs)
    with pytest.raises(IllegalMove) as info:
        svc.submit(match.match_id, tokens[1], _play(_hand(svc, match, 1)[0]), match.version)
    assert info.value.code == "not_your_turn" and info.value.status == 422


@pytest.mark.parametrize(
    "body", [b"{}", b'{"type": "fly"}', b'{"type": "play", "card": "ace"}', b"not json"]
)
def test_a_body_that_is_no_move_is_a_bad_move(
    svc: MatchService, jobs: NullRunner, body: bytes
) -> None:
    match, tokens = _dealt(svc, jobs)
    with pytest.raises(BadRequest) as info:
        svc.submit(match.match_id, tokens[0], body, match.version)
    assert info.value.code == "bad_move" and "High Card" in info.value.message


@pytest.mark.parametrize("game_id", ["highcard", "brass-birmingham", "age-of-steam"])
def test_a_move_of_no_such_type_or_field_is_refused_naming_the_types_or_fields(
    svc: MatchService, game_id: str
) -> None:
    """Every game alike: msgspec alone said "Invalid value 'teleport' - at `$.type`" (no
    types named), and for a game whose moves forbid unknown fields "Object contains unknown
    field" (no fields named), where another game listed them."""
    game = svc.games.get(game_id)
    tags = sorted(str(k.tag) for k in msgspec.inspect.type_info(game.Move).types)
    some = tags[0]

    def refusal(body: dict[str, Any]) -> str:
        with pytest.raises(BadRequest) as info:
            svc.decode_move(game, msgspec.json.encode(body))
        assert info.value.code == "bad_move"
        return info.value.message

    types = f"its move types: {', '.join(tags)}"
    assert refusal({"type": "teleport"}) == (
        f"not a move of {game.title}: no move type 'teleport'; {types}"
    )
    assert refusal({"card": 1}) == f"not a move of {game.title}: a move names its 'type'; {types}"
    unknown = refusal({"type": some, "colour": "red"})
    expected = f"not a move of {game.title}: the {some!r} move has no field 'colour'"
    assert unknown.startswith(expected)
    assert "its fields: " in unknown and "type" in unknown.rsplit("its fields: ", 1)[1]


def test_a_seat_cannot_submit_the_dealers_move(svc: MatchService, jobs: NullRunner) -> None:
    match, tokens = _dealt(svc, jobs)
    with pytest.raises(IllegalMove) as info:
        svc.submit(match.match_id, tokens[0], b'{"type": "deal"}', match.version)
    assert info.value.code == "dealer_only"


# --- randomness ----------------------------------------------------------------------------


def test_same_seed_deals_the_same_cards(svc: MatchService, jobs: NullRunner) -> None:
    first, _ = _dealt(svc, jobs)
    second, _ = _dealt(svc, jobs)
    other = svc.create_match("highcard", 2, seed="another-seed")
    assert first.game_state == second.game_state
    assert other.game_state.deck != first.game_state.deck


def test_decide_gets_the_generator_of_the_seed_and_the_version(
    registry: GameRegistry, jobs: NullRunner
) -> None:
    from highcard.game import HighCard  # importable once the registry fixture ran

    drawn: list[float] = []

    class Recording(HighCard):
        def decide(self, state: Any, actor: int, move: Any, rng: Random) -> list[Any]:
            drawn.append(rng.random())
            return super().decide(state, actor, move, rng)

    games = _registry_with(Recording())
    svc = MatchService(MemoryStore(), games, jobs)
    match, tokens = _dealt(svc, jobs)
    dealt_at = match.version - 1
    card = _hand(svc, match, 0)[0]
    svc.submit(match.match_id, tokens[0], _play(card), match.version)
    assert drawn == [
        decision_rng(SEED, dealt_at).random(),
        decision_rng(SEED, match.version).random(),
    ]
    assert decision_rng(SEED, 3).random() != decision_rng(SEED, 4).random()
    assert decision_rng(SEED, 3).random() != decision_rng(SEED + "x", 3).random()


@pytest.mark.parametrize(
    "first_draw",
    [
        lambda rng: rng.random(), lambda rng: rng.randrange(1000), lambda rng: rng.getstate(),
        lambda rng: rng.shuffle(cards := list(range(40))) or cards,
        lambda rng: rng.choices("abc", k=4), lambda rng: rng.randbytes(5),
        lambda rng: copy.deepcopy(rng).random(),
        lambda rng: pickle.loads(pickle.dumps(rng)).random(),
    ],
)  # fmt: skip
def test_a_decision_generator_seeded_when_it_first_draws_draws_as_one_seeded_at_once(
    first_draw: Any,
) -> None:
    """The generator's numbers are part of every recorded game: seeding it lazily must
    not change one of them, whichever way a game first draws."""
    label = f"{SEED}\x1f7\x1fdecide".encode()
    seeded = Random(int.from_bytes(hashlib.sha256(label).digest()[:16], "big"))
    lazy = decision_rng(SEED, 7)

    assert first_draw(lazy) == first_draw(seeded)
    assert [lazy.random() for _ in range(3)] == [seeded.random() for _ in range(3)]
    assert isinstance(lazy, Random)


def test_the_seed_never_reaches_views_or_redacted_events(service: MatchService) -> None:
    match = service.create_match("highcard", 3, seed=SEED)
    token = service.claim_seat(match.match_id, 0)
    for seat in (1, 2):
        service.hand_to_bot(match.match_id, seat, "random", None)
    stored = b"".join(e.data for e in service.store.read(match.match_id))
    assert SEED.encode() in stored  # it is kept server-side...
    seen = []
    while service.result(match := service.load(match.match_id)) is None:
        for seat in (None, 0, 1, 2):
            seen.append(service.view(match, seat))
        move = service.legal_moves(match, 0)[0]
        service.submit(match.match_id, token, msgspec.json.encode(move), match.version)
    for seat in (None, 0, 1, 2):
        seen += service.redacted_events(match.match_id, seat)
    shown = msgspec.json.encode(seen)
    assert SEED.encode() not in shown  # ...and never leaves it
    assert b"token_hash" not in shown


# --- optimistic concurrency and idempotency ------------------------------------------------


@pytest.mark.parametrize("offset", [-1, 1])
def test_a_stale_or_future_expected_version_is_a_conflict_naming_the_current_one(
    svc: MatchService, jobs: NullRunner, offset: int
) -> None:
    match, tokens = _dealt(svc, jobs)
    card = _hand(svc, match, 0)[0]
    with pytest.raises(VersionConflict) as info:
        svc.submit(match.match_id, tokens[0], _play(card), match.version + offset)
    assert info.value.current_version == match.version
    assert info.value.code == "version_conflict" and info.value.status == 409
    assert svc.store.version(match.match_id) == match.version


def test_a_retried_idempotency_key_returns_the_first_result_and_appends_nothing(
    svc: MatchService, jobs: NullRunner
) -> None:
    match, tokens = _dealt(svc, jobs)
    card = _hand(svc, match, 0)[0]
    first = svc.submit(match.match_id, tokens[0], _play(card), match.version, "key-1")
    after_first = svc.store.version(match.match_id)
    again = svc.submit(match.match_id, tokens[0], _play(card), match.version, "key-1")
    assert not first.replayed and again.replayed
    assert (again.first_version, again.version) == (first.first_version, first.version)
    assert svc.store.version(match.match_id) == after_first == first.version


def test_a_retry_after_the_match_moved_on_still_returns_the_first_result(
    svc: MatchService, jobs: NullRunner
) -> None:
    match, tokens = _dealt(svc, jobs)
    first = svc.submit(
        match.match_id, tokens[0], _play(_hand(svc, match, 0)[0]), match.version, "k"
    )
    now = svc.load(match.match_id)
    svc.submit(match.match_id, tokens[1], _play(_hand(svc, now, 1)[0]), now.version)
    moved_on = svc.store.version(match.match_id)
    again = svc.submit(
        match.match_id, tokens[0], _play(_hand(svc, match, 0)[0]), match.version, "k"
    )
    assert again.replayed and again.version == first.version
    assert svc.store.version(match.match_id) == moved_on


def test_the_same_key_with_another_move_is_refused(svc: MatchService, jobs: NullRunner) -> None:
    match, tokens = _dealt(svc, jobs)
    low, high = _hand(svc, match, 0)
    svc.submit(match.match_id, tokens[0], _play(low), match.version, "key-2")
    with pytest.raises(IdempotencyMismatch) as info:
        svc.submit(match.match_id, tokens[0], _play(high), match.version, "key-2")
    assert info.value.code == "idempotency_key_reused" and info.value.message


class _KeyRacedStore(MemoryStore):
    """Lets a rival request with the same Idempotency-Key land between the key check and the
    version check of the next keyed append, which then finds the version taken."""

    rival: str | None = None
    """The request digest of the rival, set by the test."""

    def append(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        idempotency_key: str | None = None,
        request_digest: str | None = None,
        waiting: bool | None = None,
    ) -> AppendResult:
        if idempotency_key is None or self.rival is None:
            return super().append(
                stream_id, expected_version, events, idempotency_key, request_digest, waiting
            )
        rival, self.rival = self.rival, None
        super().append(stream_id, expected_version, events[:1], idempotency_key, rival)
        raise VersionConflict(stream_id, expected_version, expected_version + 1)


def test_a_race_lost_to_the_same_request_answers_as_a_retry(
    registry: GameRegistry, jobs: NullRunner
) -> None:
    svc = MatchService(_KeyRacedStore(), registry, jobs)
    match, tokens = _dealt(svc, jobs)
    low = _hand(svc, match, 0)[0]
    svc.store.rival = _digest_of(svc, match, 0, low)  # type: ignore[attr-defined]
    result = svc.submit(match.match_id, tokens[0], _play(low), match.version, "key-3")
    assert result.replayed and result.version == match.version + 1


def test_a_race_lost_to_another_request_with_the_same_key_is_refused(
    registry: GameRegistry, jobs: NullRunner
) -> None:
    svc = MatchService(_KeyRacedStore(), registry, jobs)
    match, tokens = _dealt(svc, jobs)
    low, high = _hand(svc, match, 0)
    svc.store.rival = _digest_of(svc, match, 0, high)  # type: ignore[attr-defined]
    with pytest.raises(IdempotencyMismatch):
        svc.submit(match.match_id, tokens[0], _play(low), match.version, "key-3")


class _LookupRacedStore(MemoryStore):
    """Lets the first copy of a keyed request land right after its retry looked the key up
    and found nothing, so the retry then loads a match already past its expected version."""

    first_copy: Any = None
    """Submits the first copy; set by the test, run once."""

    def lookup(self, stream_id: str, idempotency_key: str) -> Any:
        seen = super().lookup(stream_id, idempotency_key)
        if self.first_copy is not None:
            first_copy, self.first_copy = self.first_copy, None
            first_copy()
        return seen


def test_a_retry_overlapping_its_first_copy_answers_as_a_retry_not_a_conflict(
    registry: GameRegistry, jobs: NullRunner
) -> None:
    svc = MatchService(_LookupRacedStore(), registry, jobs)
    match, tokens = _dealt(svc, jobs)
    low = _hand(svc, match, 0)[0]
    submit = (match.match_id, tokens[0], _play(low), match.version, "key-4")
    first = []
    svc.store.first_copy = lambda: first.append(svc.submit(*submit))  # type: ignore[attr-defined]
    svc.live.clear()  # a process that has not served the match looks the key up first
    retry = svc.submit(*submit)
    assert not first[0].replayed and retry.replayed
    assert (retry.first_version, retry.version) == (first[0].first_version, first[0].version)
    assert svc.store.version(match.match_id) == match.version + 1


class _AppendRacedStore(MemoryStore):
    """Lets the first copy of a keyed request land just before its retry's append."""

    first_copy: Any = None

    def append(self, *args: Any, **kwargs: Any) -> Any:
        if self.first_copy is not None:
            first_copy, self.first_copy = self.first_copy, None
            first_copy()
        return super().append(*args, **kwargs)


def test_a_retry_on_the_live_state_overlapping_its_first_copy_answers_as_a_retry(
    registry: GameRegistry, jobs: NullRunner
) -> None:
    svc = MatchService(_AppendRacedStore(), registry, jobs)
    match, tokens = _dealt(svc, jobs)
    low = _hand(svc, match, 0)[0]
    submit = (match.match_id, tokens[0], _play(low), match.version, "key-5")
    first = []
    svc.store.first_copy = lambda: first.append(svc.submit(*submit))  # type: ignore[attr-defined]
    retry = svc.submit(*submit)
    assert not first[0].replayed and retry.replayed
    assert (retry.first_version, retry.version) == (first[0].first_version, first[0].version)
    assert svc.store.version(match.match_id) == match.version + 1


def _digest_of(svc: MatchService, match: MatchState, seat: int, card: int) -> str:
    """The request digest the service computes for ``seat`` playing ``card``."""
    from core.service import _digest

    return _digest(svc.decode_move(svc.game_of(match), _play(card)), seat)


# --- tasks ---------------------------------------------------------------------------------


def test_the_deal_is_enqueued_for_the_version_it_was_computed_for(
    svc: MatchService, jobs: NullRunner
) -> None:
    match = svc.create_match("highcard", 2, seed=SEED)
    assert jobs.jobs == [
        Job(match_id=match.match_id, version=match.version, kind="system", move=b'{"type":"deal"}')
    ]


def test_pending_tasks_are_enqueued_again_after_every_append(
    svc: MatchService, jobs: NullRunner
) -> None:
    match, tokens = _dealt(svc, jobs)
    # Created at version 2; each seat claim moved the stream on, so the deal that was still
    # pending was enqueued again for versions 3 and 4; the deal itself left a human's turn.
    assert [(j.kind, j.version) for j in jobs.jobs] == [("system", 2), ("system", 3), ("system", 4)]
    svc.hand_to_bot(match.match_id, 1, "random", tokens[1])
    before = len(jobs.jobs)
    svc.submit(
        match.match_id, tokens[0], _play(_hand(svc, match, 0)[0]), svc.load(match.match_id).version
    )
    bot_job = jobs.jobs[before:]
    now = svc.load(match.match_id)
    assert bot_job == [Job(match_id=match.match_id, version=now.version, kind="bot", seat=1)]


def test_finishing_a_round_enqueues_the_next_deal(svc: MatchService, jobs: NullRunner) -> None:
    match, tokens = _dealt(svc, jobs)
    svc.submit(match.match_id, tokens[0], _play(_hand(svc, match, 0)[0]), match.version)
    now = svc.load(match.match_id)
    svc.submit(match.match_id, tokens[1], _play(_hand(svc, now, 1)[0]), now.version)
    end_of_round = svc.load(match.match_id)
    assert jobs.jobs[-1].kind == "system" and jobs.jobs[-1].version == end_of_round.version
    assert msgspec.json.decode(jobs.jobs[-1].move) == {"type": "deal"}


class _DownQueue(NullRunner):
    """A queue that refuses every job, as RQ does with its Redis down."""

    def enqueue(self, job: Job) -> None:
        raise ServiceUnavailable("queue_unavailable", "the job queue did not answer")


def test_a_change_whose_jobs_cannot_be_queued_is_stored_and_answered_as_done(
    registry: GameRegistry,
) -> None:
    svc = MatchService(MemoryStore(), registry, _DownQueue())
    match = svc.create_match("highcard", 2, seed=SEED)  # its deal could not be queued
    token = svc.claim_seat(match.match_id, 0)
    svc.hand_to_bot(match.match_id, 1, "random", None)
    now = svc.load(match.match_id)
    assert [s.bot for s in now.seats] == [None, "random"] and now.seats[0].token_hash
    assert svc.jobs_for(now) == [
        Job(match_id=match.match_id, version=now.version, kind="system", move=b'{"type":"deal"}')
    ]
    assert svc.seat_for_token(now, token) == 0


class _AnswerLostStore(MemoryStore):
    """Stores the next append, then fails as if the answer had been lost on the way."""

    lose_next = False
    store_it = True
    """False: the failing append stores nothing either."""

    def append(self, *args: Any, **kwargs: Any) -> AppendResult:
        if self.lose_next and not self.store_it:
            self.lose_next = False
            raise ServiceUnavailable("store_unavailable", "the event store did not answer")
        result = super().append(*args, **kwargs)
        if self.lose_next:
            self.lose_next = False
            raise ServiceUnavailable("store_unavailable", "the event store did not answer")
        return result


def test_the_jobs_of_a_move_whose_answer_was_lost_are_queued_once_the_store_is_back(
    registry: GameRegistry, jobs: NullRunner
) -> None:
    svc = MatchService(_AnswerLostStore(), registry, jobs)
    match, tokens = _dealt(svc, jobs)
    svc.submit(match.match_id, tokens[0], _play(_hand(svc, match, 0)[0]), match.version)
    now = svc.load(match.match_id)
    last_card = (match.match_id, tokens[1], _play(_hand(svc, now, 1)[0]), now.version, "k")
    svc.store.lose_next = True  # type: ignore[attr-defined]
    with pytest.raises(ServiceUnavailable):
        svc.submit(*last_card)  # the round is over, but the next deal was never queued
    queued = len(jobs.jobs)
    assert svc.submit(*last_card).replayed
    assert jobs.jobs[queued:] == []  # a retry is no reason to queue anything
    assert svc.settle() == 1
    end_of_round = svc.load(match.match_id)
    assert jobs.jobs[queued:] == svc.jobs_for(end_of_round) != []
    assert svc.settle() == 0, "settled once is settled"


@pytest.mark.parametrize("stored", [True, False])
def test_a_match_whose_creation_failed_unanswered_is_settled_whether_it_exists_or_not(
    registry: GameRegistry, jobs: NullRunner, stored: bool
) -> None:
    svc = MatchService(_AnswerLostStore(), registry, jobs)
    svc.store.lose_next, svc.store.store_it = True, stored  # type: ignore[attr-defined]
    with pytest.raises(ServiceUnavailable):
        svc.create_match("highcard", 2, seed=SEED, match_id="m")
    assert jobs.jobs == []
    assert svc.settle() == int(stored)
    assert [job.match_id for job in jobs.jobs] == ["m"] * stored


class _ReadsFailAfterAppendStore(MemoryStore):
    """Appends, then fails every read until told otherwise: the store went away right after
    it stored a change, before the service could read the match again."""

    fail_reads = False

    def append(self, *args: Any, **kwargs: Any) -> AppendResult:
        result = super().append(*args, **kwargs)
        self.fail_reads = self.arm
        return result

    arm = False

    def read(self, *args: Any, **kwargs: Any) -> Any:
        if self.fail_reads:
            raise ServiceUnavailable("store_unavailable", "the event store did not answer")
        return super().read(*args, **kwargs)


def test_a_match_stored_before_the_store_went_away_is_answered_as_created(
    registry: GameRegistry, jobs: NullRunner
) -> None:
    """create_match read the match back after appending it: a store lost just then made a
    stored match a 503. Its first jobs wait for the store to come back (settle)."""
    store = _ReadsFailAfterAppendStore()
    svc = MatchService(store, registry, jobs)
    store.arm = True
    match = svc.create_match("highcard", 2, seed=SEED)
    assert match.version == store.version(match.match_id) and match.game_id == "highcard"
    assert jobs.jobs == []
    store.arm = store.fail_reads = False
    assert svc.settle() == 1 and [j.kind for j in jobs.jobs] == ["system"]


def test_a_seat_handed_to_a_bot_before_the_store_went_away_is_answered_as_handed(
    registry: GameRegistry, jobs: NullRunner
) -> None:
    store = _ReadsFailAfterAppendStore()
    svc = MatchService(store, registry, jobs)
    match = svc.create_match("highcard", 2, seed=SEED)
    store.arm = True
    handed = svc.hand_to_bot(match.match_id, 1, "random", None)
    assert handed.seats[1].bot == "random"
    assert handed.version == store.version(match.match_id) == match.version + 1
    store.arm = store.fail_reads = False
    assert svc.load(match.match_id).seats[1].bot == "random"


def test_a_keyed_claim_retried_gets_the_same_token_and_claims_once(svc: MatchService) -> None:
    """A claim whose answer was lost left the seat taken and its token unknown for good."""
    match = svc.create_match("highcard", 2, seed=SEED)
    token = svc.claim_seat(match.match_id, 0, idempotency_key="claim-key-0000001")
    version = svc.store.version(match.match_id)
    assert svc.claim_seat(match.match_id, 0, idempotency_key="claim-key-0000001") == token
    assert svc.store.version(match.match_id) == version
    assert svc.seat_for_token(svc.load(match.match_id), token) == 0
    with pytest.raises(Conflict, match="already taken"):
        svc.claim_seat(match.match_id, 0, idempotency_key="another-key-00001")
    with pytest.raises(IdempotencyMismatch):
        # the key of another request:
        svc.claim_seat(match.match_id, 1, idempotency_key="claim-key-0000001")
    other = svc.claim_seat(match.match_id, 1, idempotency_key="claim-key-0000002")
    assert other != token and svc.seat_for_token(svc.load(match.match_id), other) == 1


def test_keyed_claim_tokens_depend_on_the_secret_seed(registry: GameRegistry) -> None:
    """Knowing the key is not enough to know the token: it needs the match's seed too."""
    tokens = set()
    for seed in ("seed-one", "seed-two"):
        svc = MatchService(MemoryStore(), registry, NullRunner())
        svc.create_match("highcard", 2, seed=seed, match_id="m")
        tokens.add(svc.claim_seat("m", 0, idempotency_key="the-same-key-0001"))
    assert len(tokens) == 2


def test_a_job_for_an_old_version_is_dropped(svc: MatchService, jobs: NullRunner) -> None:
    match = svc.create_match("highcard", 2, seed=SEED)
    deal = jobs.jobs[-1]
    svc.claim_seat(match.match_id, 0)  # the stream moves on before the worker runs
    at = svc.store.version(match.match_id)
    assert execute(svc, deal) == "stale"
    assert svc.store.version(match.match_id) == at


def test_a_duplicated_job_makes_one_move(svc: MatchService, jobs: NullRunner) -> None:
    match = svc.create_match("highcard", 2, seed=SEED)
    deal = jobs.jobs[-1]
    assert execute(svc, deal) == "done"
    dealt_at = svc.store.version(match.match_id)
    assert execute(svc, deal) == "stale"
    assert svc.store.version(match.match_id) == dealt_at == match.version + 1


def test_a_job_replayed_after_losing_the_race_is_answered_from_its_key(
    svc: MatchService, jobs: NullRunner
) -> None:
    match = svc.create_match("highcard", 2, seed=SEED)
    deal = jobs.jobs[-1]
    first = svc.apply(match, SYSTEM, deal.move or b"", deal.version, deal.id)
    again = svc.apply(match, SYSTEM, deal.move or b"", deal.version, deal.id)
    assert again.replayed and again.version == first.version
    assert svc.store.version(match.match_id) == first.version


# --- creating matches ----------------------------------------------------------------------


def test_a_match_can_start_from_a_position_document(svc: MatchService, jobs: NullRunner) -> None:
    played, _ = _dealt(svc, jobs)
    game = svc.game_of(played)
    doc = game.export_position(played.game_state)
    copy = svc.create_match("highcard", 2, position=doc, seed="other")
    assert game.export_position(copy.game_state) == doc
    assert svc.legal_moves(copy, 0) == svc.legal_moves(played, 0)
    assert svc.redacted_events(copy.match_id, None)[0]["payload"]["from_position"] is True


def test_an_impossible_position_is_refused_and_creates_nothing(
    svc: MatchService, jobs: NullRunner
) -> None:
    played, _ = _dealt(svc, jobs)
    doc = svc.game_of(played).export_position(played.game_state)
    doc["deck"] = [*doc["deck"], doc["hands"][0][0]]
    streams = svc.store.count_streams()
    with pytest.raises(InvalidPosition) as info:
        svc.create_match("highcard", 2, position=doc)
    assert info.value.code == "duplicate_card" and info.value.message
    assert svc.store.count_streams() == streams


def test_a_position_for_another_player_count_is_refused(
    svc: MatchService, jobs: NullRunner
) -> None:
    played, _ = _dealt(svc, jobs)
    doc = svc.game_of(played).export_position(played.game_state)
    with pytest.raises(BadRequest) as info:
        svc.create_match("highcard", 3, position=doc)
    assert info.value.code == "bad_player_count"


@pytest.mark.parametrize("players", [0, 1, 5, -2])
def test_a_player_count_outside_the_game_is_refused(svc: MatchService, players: int) -> None:
    with pytest.raises(BadRequest) as info:
        svc.create_match("highcard", players)
    assert info.value.code == "bad_player_count" and "2 to 4" in info.value.message


@pytest.mark.parametrize(
    "options", [{"rounds": "three"}, {"rounds": 2.5}, {"hand_size": None}, ["rounds", 3]]
)
def test_options_of_the_wrong_type_are_refused(svc: MatchService, options: Any) -> None:
    with pytest.raises(BadRequest) as info:
        svc.create_match("highcard", 2, options)
    assert info.value.code == "bad_options" and info.value.message.startswith("options")


def test_an_unknown_option_is_refused_by_name(svc: MatchService) -> None:
    with pytest.raises(BadRequest) as info:
        svc.create_match("highcard", 2, {"rounds": 2, "jokers": True})
    assert info.value.code == "bad_options" and "jokers" in info.value.message


def test_an_unknown_option_is_refused_even_when_the_game_struct_would_ignore_it() -> None:
    from highcard.game import HighCard

    class LaxOptions(msgspec.Struct, kw_only=True):
        rounds: int = 3
        hand_size: int = 2

    class LaxHighCard(HighCard):
        Options = LaxOptions

    svc = MatchService(MemoryStore(), _registry_with(LaxHighCard()))
    with pytest.raises(BadRequest) as info:
        svc.create_match("highcard", 2, {"rounds": 2, "jokers": True})
    assert info.value.code == "bad_options" and "jokers" in info.value.message


def test_an_unknown_game_is_not_found(svc: MatchService) -> None:
    with pytest.raises(NotFound) as info:
        svc.create_match("chess", 2)
    assert info.value.code == "unknown_game"


def test_options_are_kept_with_the_match(svc: MatchService) -> None:
    match = svc.create_match("highcard", 2, {"rounds": 1, "hand_size": 3})
    assert (match.options.rounds, match.options.hand_size) == (1, 3)
    assert len(match.game_state.deck) == 2 * 3 * 1


def test_a_seat_claim_racing_a_move_is_retried_on_the_new_version(
    svc: MatchService, jobs: NullRunner, monkeypatch: pytest.MonkeyPatch
) -> None:
    match = svc.create_match("highcard", 2, seed=SEED)
    real_append = svc.store.append
    raced = []

    def append_after_a_rival(
        stream_id: str, expected: int, events: Any, *args: Any, **kwargs: Any
    ) -> Any:
        if not raced:  # the dealer's move lands between our load and our append
            raced.append("racing")
            raced[0] = execute(svc, jobs.jobs[-1])
        return real_append(stream_id, expected, events, *args, **kwargs)

    monkeypatch.setattr(svc.store, "append", append_after_a_rival)
    token = svc.claim_seat(match.match_id, 0)
    assert raced == ["done"]
    after = svc.load(match.match_id)
    assert svc.seat_for_token(after, token) == 0
    assert [e.type for e in svc.store.read(match.match_id)][-2:] == ["dealt", "core.seat_claimed"]
