"""The most Pittsburgh's listing could gain from facts carried from state to state (issue
12, the bpfacts spike): the connectivity labels, the seat's slots, lines and network are
worked out for every saved playout state first, then handed to the listing for nothing.
No carrying scheme can do better than this, since it still has to keep them up to date.

Run each mode under callgrind over the states ``brass_playout_instructions.py collect``
saved (one file serves any checkout):

    valgrind --tool=callgrind --callgrind-out-file=/dev/null \\
        python bench/brass_facts_ceiling.py /tmp/bp3.pkl MODE

``facts`` only works the facts out; ``plain`` works them out and lists as today;
``free`` lists with every fact handed over, ``free_labels`` with connectivity only.
(``plain`` - ``facts``) and (``free`` - ``facts``) over the number of states are the listing's
instructions a call without and with the facts. Python's collector still runs at times
(something in the game calls it), and the facts kept alive make each run of it dearer: read
the per-function counts (``callgrind_annotate``) and leave out ``*traverse``/``gc*``/
``visit_decref`` for the figure the facts alone make.
"""

from __future__ import annotations

import gc
import pickle
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from plugins.brass.graph import positions
from plugins.brass_pittsburgh import board, building, choices, engine
from plugins.brass_pittsburgh.actions import build, network
from plugins.brass_pittsburgh.game import BrassPittsburgh

MODES = ("facts", "plain", "free", "free_labels")


def main() -> None:
    path, mode = sys.argv[1], sys.argv[2]
    assert mode in MODES, f"mode is one of {MODES}"
    gc.disable()  # fewer collections in the counted part (see the docstring)
    game = BrassPittsburgh()
    rules = game.rules
    states = pickle.loads(Path(path).read_bytes())
    labels: dict[int, tuple[int, ...]] = {}
    shared: dict[tuple[int, ...], tuple[int, ...]] = {}
    found: dict[tuple[int, int], tuple[list[int], list[int], set[int]]] = {}
    for s, _seat, _ in states:
        # equal connectivity shares one tuple, as the board's own cache makes it
        c = tuple(rules.board_of(s.side).graph.components(s.line_owner))
        labels[id(s.line_owner)] = shared.setdefault(c, c)
        for k in range(len(s.money)):
            slots, lines = positions(s.slot_owner, k), positions(s.line_owner, k)
            found[id(s), k] = slots, lines, building.network(rules, s, k, slots, lines)
    if mode in ("free", "free_labels"):
        board.PittsburghBoard.labels = lambda self, lo: labels[id(lo)]  # type: ignore[method-assign]
    if mode == "free":

        def free_network(rules: Any, s: Any, seat: int, *_: Any) -> set[int]:
            return found[id(s), seat][2]

        for module in (building, choices, engine, build, network):
            module.network = free_network  # type: ignore[attr-defined]

        class FreeFacts(engine.Facts):
            def __init__(self, rules: Any, s: Any, seat: int) -> None:
                super().__init__(rules, s, seat)
                self._slots, self._lines, self._network = found[id(s), seat]

        engine.Facts = FreeFacts  # type: ignore[misc]
    if mode != "facts":
        for s, seat, _ in states:
            game.legal_moves(s, seat)


if __name__ == "__main__":
    main()
