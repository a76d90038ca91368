"""High Card.

Each of ``rounds`` rounds the dealer (a system task) deals ``hand_size`` cards from a
shuffled deck to every seat. Seats then play one card each, in turn from the round's
leader; the highest card wins the round. Unplayed cards are discarded face down. Most
rounds won wins; ties are shared. Hands and the deck order are hidden.
"""

from __future__ import annotations

import copy
from random import Random
from typing import Annotated, Any

import msgspec

from core.errors import IllegalMove, InvalidPosition
from core.game import SYSTEM, Result, Task


class Options(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    # Bounded because setup builds the whole deck: API fuzzing reads these limits from the
    # OpenAPI document, and unbounded ones let it ask for decks of billions of cards.
    rounds: Annotated[int, msgspec.Meta(ge=1, le=20)] = 3
    hand_size: Annotated[int, msgspec.Meta(ge=1, le=10)] = 2


class Deal(msgspec.Struct, tag="deal"):
    """System: deal the next round."""


class Play(msgspec.Struct, tag="play"):
    card: int


Move = Deal | Play


class Started(msgspec.Struct, tag="started"):
    players: int
    rounds: int
    hand_size: int
    deck: list[int]


class Dealt(msgspec.Struct, tag="dealt"):
    hands: list[list[int]]


class Played(msgspec.Struct, tag="played"):
    seat: int
    card: int


class RoundWon(msgspec.Struct, tag="round_won"):
    seat: int


Event = Started | Dealt | Played | RoundWon


class State(msgspec.Struct, kw_only=True):
    players: int
    rounds: int
    hand_size: int
    deck: list[int]
    hands: list[list[int]]
    table: list[int | None]
    wins: list[int]
    round: int = 0
    leader: int = 0
    to_act: int | None = None
    gone: list[int] = []
    """Cards played in finished rounds (face up, so every seat knows them)."""


class HighCard:
    id = "highcard"
    title = "High Card"
    rules_version = "1"
    min_players = 2
    max_players = 4
    Options = Options
    Move = Move
    Event = Event
    metadata: dict[str, Any] = {"test_only": True}

    def setup(self, options: Options, players: int, rng: Random) -> list[Any]:
        deck = list(range(1, players * options.hand_size * options.rounds + 1))
        rng.shuffle(deck)
        return [Started(players, options.rounds, options.hand_size, deck)]

    def evolve(self, state: State | None, event: Any) -> State:
        match event:
            case Started():
                return State(
                    players=event.players, rounds=event.rounds, hand_size=event.hand_size,
                    deck=list(event.deck), hands=[[] for _ in range(event.players)],
                    table=[None] * event.players, wins=[0] * event.players,
                )  # fmt: skip
            case Dealt():
                dealt = sum(len(h) for h in event.hands)
                state.deck = state.deck[dealt:]
                state.hands = [list(h) for h in event.hands]
                state.table = [None] * state.players
                state.round += 1
                state.to_act = state.leader
            case Played():
                state.hands[event.seat].remove(event.card)
                state.table[event.seat] = event.card
                nxt = (event.seat + 1) % state.players
                state.to_act = None if nxt == state.leader else nxt
            case RoundWon():
                state.wins[event.seat] += 1
                state.leader = event.seat
                state.gone = state.gone + [c for c in state.table if c is not None]
                state.hands = [[] for _ in range(state.players)]
        return state

    def decide(self, state: State, actor: int, move: Any, rng: Random) -> list[Any]:
        match move:
            case Deal():
                if actor != SYSTEM:
                    raise IllegalMove("dealer_only", "only the dealer deals")
                if state.to_act is not None or state.round >= state.rounds or any(state.hands):
                    raise IllegalMove("not_dealing_time", "cards are dealt only between rounds")
                n, k = state.players, state.hand_size
                return [Dealt([state.deck[i * k : (i + 1) * k] for i in range(n)])]
            case Play(card=card):
                if actor != state.to_act:
                    raise IllegalMove("not_your_turn", "it is not your turn to play")
                if card not in state.hands[actor]:
                    raise IllegalMove("card_not_in_hand", f"card {card} is not in your hand")
                events: list[Any] = [Played(actor, card)]
                if (actor + 1) % state.players == state.leader:
                    table = [*state.table]
                    table[actor] = card
                    best = max(range(state.players), key=lambda s: table[s] or 0)
                    events.append(RoundWon(best))
                return events
        raise IllegalMove("unknown_move", "High Card has no such move")

    def legal_moves(self, state: State, seat: int) -> list[Any]:
        if seat != state.to_act:
            return []
        return [Play(c) for c in sorted(state.hands[seat])]

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "seat": seat,
            "players": state.players,
            "hand_size": state.hand_size,
            "leader": state.leader,
            "gone": state.gone,
            "round": state.round,
            "rounds": state.rounds,
            "to_act": state.to_act,
            "table": state.table,
            "wins": state.wins,
            "deck_count": len(state.deck),
            "hand_counts": [len(h) for h in state.hands],
            "hand": None if seat is None else sorted(state.hands[seat]),
        }

    def redact(self, event: Any, seat: int | None) -> dict[str, Any]:
        match event:
            case Started():
                return {"players": event.players, "deck_count": len(event.deck)}
            case Dealt():
                return {
                    "hand_counts": [len(h) for h in event.hands],
                    "hand": None if seat is None else sorted(event.hands[seat]),
                }
        return msgspec.to_builtins(event)

    def pending_tasks(self, state: State) -> list[Task]:
        if state.to_act is not None:
            return [Task(kind="turn", seat=state.to_act)]
        if state.round < state.rounds and not any(state.hands):
            return [Task(kind="system", move=Deal())]
        return []

    def result(self, state: State) -> Result | None:
        if self.pending_tasks(state):
            return None
        ranking = [1 + sum(w > mine for w in state.wins) for mine in state.wins]
        return Result(scores=list(state.wins), ranking=ranking)

    def export_position(self, state: State) -> dict[str, Any]:
        return msgspec.to_builtins(state)

    def load_position(self, doc: dict[str, Any]) -> State:
        try:
            state = msgspec.convert(doc, State)
        except msgspec.ValidationError as exc:
            raise InvalidPosition("bad_position", str(exc)) from None
        cards = state.deck + [c for h in state.hands for c in h]
        cards += [c for c in state.table if c is not None]
        if len(set(cards)) != len(cards):
            raise InvalidPosition("duplicate_card", "a card appears twice in the position")
        if len(state.hands) != state.players or len(state.wins) != state.players:
            raise InvalidPosition("bad_seats", "hands and wins need one entry per player")
        return state

    def determinize(self, view: dict[str, Any], rng: Random) -> State:
        """A state from ``view`` alone: the cards the seat has not seen, shuffled into the
        other hands and the deck (the rest went face down)."""
        seat, players = view["seat"], view["players"]
        total = players * view["hand_size"] * view["rounds"]
        seen = set(view["hand"]) | set(view["gone"]) | {c for c in view["table"] if c}
        unseen = [c for c in range(1, total + 1) if c not in seen]
        rng.shuffle(unseen)
        hands: list[list[int]] = []
        for s, count in enumerate(view["hand_counts"]):
            if s == seat:
                hands.append(list(view["hand"]))
            else:
                hands.append(sorted(unseen[:count]))
                unseen = unseen[count:]
        return State(
            players=players, rounds=view["rounds"], hand_size=view["hand_size"],
            deck=unseen[: view["deck_count"]], hands=hands, table=list(view["table"]),
            wins=list(view["wins"]), round=view["round"], leader=view["leader"],
            to_act=view["to_act"], gone=list(view["gone"]),
        )  # fmt: skip

    def evaluate(self, state: State) -> list[float]:
        return [float(w) for w in state.wins]

    def sample_hidden(self, state: State, seat: int, rng: Random) -> State:
        new = copy.deepcopy(state)
        unseen = list(new.deck)
        for s in range(new.players):
            if s != seat:
                unseen += new.hands[s]
        rng.shuffle(unseen)
        for s in range(new.players):
            if s != seat:
                k = len(new.hands[s])
                new.hands[s], unseen = sorted(unseen[:k]), unseen[k:]
        new.deck = unseen
        return new
