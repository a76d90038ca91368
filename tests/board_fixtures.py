"""Fixtures for the web boards: real views and legal-move lists from games played in memory.

Each fixture is what a board module gets from the shell: the ``GET /games/{id}`` body, a
seat's view, the seat, its legal moves and the last move played (whose targets the harness
marks as touched). ``tests/test_board_targets.py`` feeds them to the modules' ``targetsOf``
under Node; ``api/static/boards/harness.html`` renders them for a look::

    python tests/board_fixtures.py /tmp/boards   # then serve /tmp/boards (see harness.html)

Games are played by the games' own bot policies (boards then fill up the way real games do;
Age of Steam's lays extra random track), from fixed seeds.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from random import Random
from typing import Any

import msgspec

ROOT = Path(__file__).resolve().parent.parent
if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))

from api.routes import _game_info  # noqa: E402
from core.game import SYSTEM  # noqa: E402

Fixture = dict[str, Any]


def game_body(game: Any) -> dict[str, Any]:
    """The ``GET /games/{id}`` body of ``game``."""
    out: dict[str, Any] = msgspec.to_builtins(_game_info(game))
    return out


Decision = tuple[int, Any, int, list[Any], Any]
Policy = Callable[..., Any]


def positions(
    game: Any, players: int, seed: int, options: Any = None, policy: Policy | None = None
) -> Iterator[Decision]:
    """Every decision of one game: ``(n, state, seat, legal, last move)``."""
    rng = Random(seed)
    state = None
    for event in game.setup(options or game.Options(), players, rng):
        state = game.evolve(state, event)
    last, n = None, 0
    choose = policy or getattr(game, "bot_policy", None)
    while tasks := game.pending_tasks(state):
        task = tasks[0]
        if task.kind == "system":
            events = game.decide(state, SYSTEM, task.move, rng)
        else:
            legal = game.legal_moves(state, task.seat)
            yield n, state, task.seat, legal, last
            move = _choose(game, choose, state, task.seat, legal, rng)
            events = game.decide(state, task.seat, move, rng)
            last, n = move, n + 1
        for event in events:
            state = game.evolve(state, event)


def _choose(game: Any, choose: Any, state: Any, seat: int, legal: list[Any], rng: Random) -> Any:
    if choose is None:
        return legal[rng.randrange(len(legal))]
    return choose(game.view(state, seat), legal, rng)


def fixture(game: Any, state: Any, seat: int, legal: list[Any], last: Any, note: str) -> Fixture:
    return {
        "note": note,
        "game": game_body(game),
        "seat": seat,
        "view": game.view(state, seat),
        "legal": msgspec.to_builtins(legal),
        "last_move": None if last is None else msgspec.to_builtins(last),
    }


def collect(game: Any, players: int, seed: int, kinds: set[str], late: int,
            options: Any = None, policy: Policy | None = None) -> dict[str, Fixture]:  # fmt: skip
    """Per decision kind in ``kinds``, its last instance up to decision ``late`` (the board
    has something on it by then) or else its first one after; and decision ``late``."""
    out: dict[str, Fixture] = {}
    for n, state, seat, legal, last in positions(game, players, seed, options, policy):
        kind = game.view(state, seat)["decision"]["kind"]
        # The board tests click lit build places: a broke seat's turn (loans, passes) has none.
        buildless = kind == "action" and not any(type(m).__name__ == "Build" for m in legal)
        if kind in kinds and not buildless and (n <= late or kind not in out):
            out[kind] = fixture(game, state, seat, legal, last, f"decision {n}: {kind}")
        if n == late:
            out["late"] = fixture(game, state, seat, legal, last, f"decision {n}: late game")
            spectator = fixture(game, state, seat, [], last, f"decision {n}: a spectator")
            out["spectator"] = {**spectator, "seat": None, "view": game.view(state, None)}
        if n >= late and kinds <= out.keys():
            break
    return out


def collect_over(
    game: Any, players: int, seeds: range, kinds: set[str], late: int
) -> dict[str, Fixture]:
    """:func:`collect` from the first seed, with kinds it never met taken from the next
    seeds: the bots' play decides which decisions a game reaches."""
    out: dict[str, Fixture] = {}
    for seed in seeds:
        found = collect(game, players, seed, kinds - out.keys(), late)
        out = found | out
        if kinds <= out.keys():
            break
    return out


def all_fixtures() -> dict[str, dict[str, Fixture]]:
    from plugins.age_of_steam.game import AgeOfSteam, Options
    from plugins.brass_birmingham.game import BrassBirmingham
    from plugins.brass_lancashire.game import BrassLancashire
    from plugins.brass_pittsburgh.game import BrassPittsburgh

    aos = AgeOfSteam()

    def builder(view: Any, legal: list[Any], rng: Random) -> Any:
        """The greedy bot, but laying random track while it has money: fuller maps."""
        builds = [m for m in legal if type(m).__name__ == "Build"]
        if builds and view["players"][view["seat"]]["money"] > 6:
            return rng.choice(builds)
        return aos.bot_policy(view, legal, rng)

    brass_kinds = {"action", "discard", "pick_coal", "pick_iron", "pick_beer", "sell_also",
                   "second_link", "develop_also"}  # fmt: skip
    bp_kinds = {"action", "discard", "pay", "sell_produced", "second_link", "claim_quality"}
    aos_kinds = {"issue_shares", "bid", "select_action", "build", "move_goods", "place_cube"}
    return {
        "brass-birmingham": collect_over(BrassBirmingham(), 3, range(7, 17), brass_kinds, 80),
        "brass-lancashire": collect_over(
            BrassLancashire(), 3, range(7, 17), {"action", "discard", "sell_also"}, 80
        ),
        "brass-pittsburgh": collect_over(BrassPittsburgh(), 3, range(7, 17), bp_kinds, 150),
        "brass-pittsburgh-2p": collect(BrassPittsburgh(), 2, 5, {"action"}, 90),
        "age-of-steam": collect(aos, 4, 8, aos_kinds, 89, policy=builder),
        "age-of-steam-st-lucia": collect(
            aos, 2, 3, {"build", "move_goods"}, 40, Options(map="st_lucia"), builder
        ),
        "age-of-steam-barbados": collect(
            aos, 1, 3, {"build"}, 30, Options(map="barbados"), builder
        ),
    }


def write(out_dir: Path) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, fixtures in all_fixtures().items():
        for kind, fx in fixtures.items():
            path = out_dir / f"{name}.{kind}.json"
            path.write_text(json.dumps(fx))
            written.append(path)
    return written


if __name__ == "__main__":
    for p in write(Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/boards/fixtures")):
        print(p)
