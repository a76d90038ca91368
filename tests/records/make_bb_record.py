"""Writes ``bb-2p-chosen-rail-deal.json``: a 2-player Brass: Birmingham game played by the
greedy bot on both seats, whose rail-era deal is one the record chooses (the cards in order
of kind: seat 0 gets the first eight, seat 1 the next eight), not the server's shuffle.

Run from the repository root: ``PYTHONPATH=. python tests/records/make_bb_record.py``. The file is a
fixture: rerun it only when the game's rules change what the record means.
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import msgspec

from core.game import SYSTEM
from plugins.brass.moves import Deal, ScoreEra
from plugins.brass_birmingham.game import BrassBirmingham

OUT = Path(__file__).with_name("bb-2p-chosen-rail-deal.json")


def chosen_deal(game, state) -> ScoreEra:  # type: ignore[no-untyped-def]
    """Every card reshuffled, sorted by name: two hands of eight, the rest the deck."""
    cards = list(state.deck)
    for seat in range(state.players):
        cards += state.discards[seat] + state.facedown[seat] + state.hands[seat]
    named = sorted(game.names.card[c] for c in cards)
    size = game.data.rules.hand_size
    return ScoreEra(Deal(named[2 * size :], [named[:size], named[size : 2 * size]]))


def main() -> None:
    game = BrassBirmingham()
    rng = Random(20240613)
    state = None
    for event in game.setup(game.Options(), 2, rng):
        state = game.evolve(state, event)
    start = msgspec.to_builtins(game.export_position(state))
    moves = []
    while tasks := game.pending_tasks(state):
        task = tasks[0]
        if task.kind == "system":
            actor = SYSTEM
            move = chosen_deal(game, state) if state.era == 0 else task.move
        else:
            actor = task.seat
            move = game.bot_policy(game.view(state, actor), game.legal_moves(state, actor), rng)
        for event in game.decide(state, actor, move, rng):
            state = game.evolve(state, event)
        moves.append({"actor": actor, "move": msgspec.to_builtins(move)})
    record = {
        "format": "ironworks-record/1", "game": game.id, "players": 2,
        "position": start, "moves": moves,
    }  # fmt: skip
    expected = msgspec.to_builtins(game.result(state))
    OUT.write_text(json.dumps({"record": record, "result": expected}, indent=1) + "\n")
    print(OUT, len(moves), "moves; result", expected)


if __name__ == "__main__":
    main()
