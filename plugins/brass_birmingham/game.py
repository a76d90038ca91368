"""The Brass: Birmingham decider (implements :class:`core.game.Game`)."""

from __future__ import annotations

from random import Random
from typing import Any

import msgspec

from core.errors import IllegalMove
from core.game import Result, Task
from plugins.brass.cards import build_deck
from plugins.brass.hidden import deal, own_cards, redact_core, resample_cards
from plugins.brass.scoring import ranking
from plugins.brass_birmingham import engine, position
from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham import moves as mv
from plugins.brass_birmingham.data import INDUSTRIES, Birmingham, birmingham
from plugins.brass_birmingham.state import OVER, PLAY, SCORING, State, apply

MOVE_FORM = (
    "sequential: an action's first move names the action and its main choice (Build names "
    "its card, space and industry; Network a line; Develop an industry; Sell a tile and a "
    "merchant space; Loan, Scout and Pass nothing). Every choice the rules leave open then "
    "comes as its own decision, asked only when there is more than one option: Discard "
    "(which card pays for a non-build action; three for Scout), PickCoal among tied nearest "
    "mines, PickIron among works, PickBeer/PickMerchantBeer among beer sources, then the "
    "optional continuations SecondLink, SellAlso, DevelopAlso, FreeDevelop or Done. At round "
    "end a seat short of money for negative income chooses Liquidate, one industry at a time."
)


class Options(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Brass: Birmingham has no match options yet (the full game, 2 to 4 players)."""


class BrassBirmingham:
    id = "brass-birmingham"
    title = "Brass: Birmingham"
    rules_version = "1"
    min_players = 2
    max_players = 4
    Options = Options
    Move = mv.Move
    Event = ev.Event
    metadata: dict[str, Any] = {
        "family": "brass",
        "move_form": MOVE_FORM,
        "data": "board, tiles, cards, merchants, markets and income track from the shared "
        "reference; tile values per the rule text's tables (Manufacturer IV £8)",
        "position_format": position.FORMAT,
        "hidden_information": True,
    }

    def __init__(self, data: Birmingham | None = None) -> None:
        self.data = data or birmingham()

    # --- the decider ----------------------------------------------------------------------

    def setup(self, options: Options, players: int, rng: Random) -> list[Any]:
        d = self.data
        deck = build_deck(d.deck_copies[players])
        rng.shuffle(deck)
        hands, facedown = deal(deck, players, d.rules.hand_size, d.rules.face_down_discards)
        order = list(range(players))
        rng.shuffle(order)
        tiles = [i for i, t in enumerate(d.merchant_tiles) if t.min_players <= players]
        rng.shuffle(tiles)
        merchants = [tiles.pop() if m <= players else -1 for m in d.merchant_min_players]
        return [ev.Started(players, order, deck, hands, facedown, merchants)]

    def evolve(self, state: State | None, event: Any) -> State:
        return apply(self.data, state, event)

    def decide(self, state: State, actor: int, move: Any, rng: Random) -> list[Any]:
        if not isinstance(move, mv.Move.__args__):  # type: ignore[attr-defined]
            raise IllegalMove("unknown_move", "Brass: Birmingham has no such move")
        return engine.decide(self.data, state, actor, move, rng)

    def legal_moves(self, state: State, seat: int) -> list[Any]:
        return engine.legal_moves(self.data, state, seat)

    def pending_tasks(self, state: State) -> list[Task]:
        if state.phase == PLAY:
            return [Task(kind="turn", seat=state.current)]
        if state.phase == SCORING:
            return [Task(kind="system", move=mv.ScoreEra())]
        return []

    def result(self, state: State) -> Result | None:
        if state.phase != OVER:
            return None
        levels = [self.data.income.level(sp) for sp in state.income]
        keys = [(state.vp[i], levels[i], state.money[i]) for i in range(state.players)]
        return Result(
            scores=list(state.vp),
            ranking=ranking(keys),
            details={"income_level": levels, "money": list(state.money),
                     "tie_breaks": ["income level", "money"]},
        )  # fmt: skip

    # --- what a seat may see --------------------------------------------------------------

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        d, s = self.data, state
        names = d.cards.name
        doc = position.export(d, s)
        for i, seat_doc in enumerate(doc["seats"]):
            seat_doc["hand_count"] = len(s.hands[i])
            seat_doc["facedown_count"] = len(s.facedown[i])
            seat_doc["income_level"] = d.income.level(s.income[i])
            seat_doc["next_tiles"] = {
                INDUSTRIES[k]: d.stacks.top_level(k, s.mat[i][k]) or None
                for k in range(len(INDUSTRIES))
            }
            del seat_doc["hand"], seat_doc["facedown"]
        doc["deck_count"] = len(s.deck)
        del doc["deck"]
        doc["current"] = s.current
        doc["hand"] = None if seat is None else [names(c) for c in s.hands[seat]]
        doc["seat"] = seat
        return doc

    def redact(self, event: Any, seat: int | None) -> dict[str, Any]:
        name = self.data.cards.name
        if isinstance(event, ev.Started):
            return {
                "players": event.players, "order": event.order, "merchants": event.merchants,
                "deck_count": len(event.deck), "hand_counts": [len(h) for h in event.hands],
                "facedown_counts": [len(f) for f in event.facedown],
                "hand": None if seat is None else own_cards(event.hands[seat], seat, seat, name),
            }  # fmt: skip
        shared = redact_core(event, seat, name)
        return msgspec.to_builtins(event) if shared is None else shared

    # --- positions ------------------------------------------------------------------------

    def export_position(self, state: State) -> dict[str, Any]:
        return position.export(self.data, state)

    def load_position(self, doc: dict[str, Any]) -> State:
        return position.load(self.data, doc)

    def sample_hidden(self, state: State, seat: int, rng: Random) -> State:
        new = state.clone()
        resample_cards(new, seat, rng)
        return new
