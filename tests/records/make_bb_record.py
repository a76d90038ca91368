"""Writes ``bb-2p-chosen-rail-deal.json``: a 2-player Brass: Birmingham game played by the
greedy bot on both seats, whose rail-era deal is one the record chooses (the cards in order
of kind: seat 0 gets the first eight, seat 1 the next eight), not the server's shuffle; and
``bb-2p-chosen-deals.json``, a record of the same kind that starts from the options alone,
its first deal, turn order and merchant tiles chosen too (its ``setup``: the cards by name,
seat 1 first), so no draw of the server's is left in it.

Run from the repository root: ``PYTHONPATH=. python tests/records/make_bb_record.py``. The file is a
fixture: rerun it only when the game's rules change what the record means.
"""

from __future__ import annotations

import json
from pathlib import Path
from random import Random

import msgspec

from core.game import SYSTEM
from plugins.brass.cards import build_deck
from plugins.brass.moves import Deal, ScoreEra
from plugins.brass_birmingham.game import BrassBirmingham, SetupOutcome

OUT = Path(__file__).with_name("bb-2p-chosen-rail-deal.json")
OUT_SETUP = Path(__file__).with_name("bb-2p-chosen-deals.json")


def chosen_deal(game, state) -> ScoreEra:  # type: ignore[no-untyped-def]
    """Every card reshuffled, sorted by name: two hands of eight, the rest the deck."""
    cards = list(state.deck)
    for seat in range(state.players):
        cards += state.discards[seat] + state.facedown[seat] + state.hands[seat]
    named = sorted(game.names.card[c] for c in cards)
    size = game.data.rules.hand_size
    return ScoreEra(Deal(named[2 * size :], [named[:size], named[size : 2 * size]]))


def chosen_setup(game) -> SetupOutcome:  # type: ignore[no-untyped-def]
    """The whole deck sorted by name: seat 0's hand, seat 1's, one face-down card each,
    the rest the deck; seat 1 plays first; the merchant tiles in table order."""
    d = game.data
    named = sorted(game.names.card[c] for c in build_deck(d.deck_copies[2]))
    size = d.rules.hand_size
    tiles = iter(t.id for t in d.merchant_tiles if t.min_players <= 2)
    return SetupOutcome(
        order=[1, 0], hands=[named[:size], named[size : 2 * size]],
        facedown=[[named[2 * size]], [named[2 * size + 1]]], deck=named[2 * size + 2 :],
        merchants=[next(tiles) if m <= 2 else None for m in d.merchant_min_players],
    )  # fmt: skip


def main() -> None:
    write(OUT, Random(20240613), setup=None)
    write(OUT_SETUP, Random(20261201), setup=chosen_setup(BrassBirmingham()))


def write(out: Path, rng: Random, setup: SetupOutcome | None) -> None:
    game = BrassBirmingham()
    state = None
    for event in game.setup(game.Options(), 2, rng, outcome=setup):
        state = game.evolve(state, event)
    if setup is None:
        start = {"position": msgspec.to_builtins(game.export_position(state))}
    else:
        start = {"options": {}, "setup": msgspec.to_builtins(setup)}
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
        "format": "ironworks-record/1", "game": game.id, "players": 2, **start, "moves": moves,
    }  # fmt: skip
    expected = msgspec.to_builtins(game.result(state))
    out.write_text(json.dumps({"record": record, "result": expected}, indent=1) + "\n")
    print(out, len(moves), "moves; result", expected)


if __name__ == "__main__":
    main()
