"""How the Brass greedy bots play: whole games in memory, each seat moved by a bot that sees
only its view and legal moves (``bot_policy``), or by ``random``, or by the search hooks'
``playout_policy`` on the full state. Prints per bot: mean VP per seat, loans, sell actions
and tiles sold per game, final income level and money, the share of seats ending on negative income,
0-0 games, win rate, and ms per decision.

    python bench/bench_brass_bots.py [--game birmingham|lancashire|pittsburgh] [--games 30]
        [--players 2] [--seats greedy greedy] [--baseline REF]

``--seats`` names one bot per seat: ``greedy``, ``random``, ``playout`` or ``baseline``
(the greedy bot of git revision ``--baseline``, default ``main``, loaded from
``plugins/brass/bot.py`` at that revision, to compare before and after). Seats rotate
through the games so every bot plays from every seat.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
import types
from collections import defaultdict
from pathlib import Path
from random import Random
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.playout import playout

ROOT = Path(__file__).resolve().parents[1]


def load_game(name: str) -> Any:
    if name == "birmingham":
        from plugins.brass_birmingham.game import BrassBirmingham

        return BrassBirmingham()
    if name == "lancashire":
        from plugins.brass_lancashire.game import BrassLancashire

        return BrassLancashire()
    from plugins.brass_pittsburgh.game import BrassPittsburgh

    return BrassPittsburgh()


def baseline_policy(game: Any, ref: str) -> Any:
    """The greedy policy of ``plugins/brass/bot.py`` at git revision ``ref``."""
    source = subprocess.run(
        ["git", "show", f"{ref}:plugins/brass/bot.py"],
        cwd=ROOT, check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    module = types.ModuleType("baseline_bot")
    sys.modules[module.__name__] = module  # msgspec resolves annotations through it
    exec(compile(source, f"{ref}:plugins/brass/bot.py", "exec"), module.__dict__)
    tuning = module.BIRMINGHAM if game.id == "brass-birmingham" else module.PITTSBURGH
    return lambda view, legal, rng: module.choose(view, legal, rng, tuning)


def make_chooser(game: Any, bot: str, baseline: Any) -> Any:
    if bot == "random":
        return lambda state, seat, legal, rng: legal[rng.randrange(len(legal))]
    if bot == "playout":
        return game.playout_policy
    policy = baseline if bot == "baseline" else game.bot_policy
    return lambda state, seat, legal, rng: policy(game.view(state, seat), legal, rng)


def play_one(
    game: Any,
    bots: list[str],
    choosers: dict[str, Any],
    seed: int,
    stats: dict[str, dict[str, float]],
) -> bool:
    """Play one game with ``bots`` in their seats, adding each bot's figures to ``stats``;
    whether every seat scored 0."""
    counts: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    spent = [0.0] * len(bots)

    def choose(state: Any, seat: int, legal: list[Any], rng: Random) -> Any:
        start = time.perf_counter()
        move = choosers[bots[seat]](state, seat, legal, rng)
        spent[seat] += time.perf_counter() - start
        counts[seat][move.__struct_config__.tag] += 1
        counts[seat]["decisions"] += 1
        return move

    state, _ = playout(game, game.Options(), len(bots), Random(seed), choose)
    result = game.result(state)
    view = game.view(state, None)
    best = max(result.scores)
    for seat, bot in enumerate(bots):
        s = stats[bot]
        income = view["players"][seat]["income_level"]
        s["seats"] += 1
        s["vp"] += result.scores[seat]
        s["loans"] += counts[seat]["loan"]
        s["sell_actions"] += counts[seat]["sell"]
        s["tiles_sold"] += counts[seat]["sell"] + counts[seat]["sell_also"]
        s["builds"] += counts[seat]["build"]
        s["networks"] += counts[seat]["network"]
        s["develops"] += counts[seat]["develop"]
        s["passes"] += counts[seat]["pass"]
        s["scouts"] += counts[seat]["scout"]
        s["income"] += income
        s["money"] += view["players"][seat]["money"]
        s["negative"] += income < 0
        s["wins"] += result.scores[seat] == best and result.scores.count(best) == 1
        s["ms"] += spent[seat] * 1000
        s["decisions"] += counts[seat]["decisions"]
    return best == 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--game", choices=["birmingham", "lancashire", "pittsburgh"], default="birmingham"
    )
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--seats", nargs="+", default=None, help="one bot per seat")
    parser.add_argument("--baseline", default="main", help="git revision of the baseline bot")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    game = load_game(args.game)
    seats = args.seats or ["greedy"] * args.players
    if len(seats) != args.players:
        parser.error("--seats needs one bot per seat")
    baseline = baseline_policy(game, args.baseline) if "baseline" in seats else None
    choosers = {bot: make_chooser(game, bot, baseline) for bot in set(seats)}

    stats: dict[str, dict[str, float]] = defaultdict(lambda: defaultdict(float))
    zero_games = 0
    for g in range(args.games):
        # rotate the bots round the seats
        bots = [seats[(i + g) % len(seats)] for i in range(len(seats))]
        zero_games += play_one(game, bots, choosers, args.seed + g, stats)
    print(f"{game.title}, {args.players} players, {args.games} games, seats {' '.join(seats)}")
    for bot, s in sorted(stats.items()):
        n = s["seats"]
        print(
            f"  {bot:8} VP {s['vp'] / n:6.1f}  loans {s['loans'] / n:4.1f}  "
            f"sells {s['sell_actions'] / n:4.1f} (tiles {s['tiles_sold'] / n:4.1f})  "
            f"builds {s['builds'] / n:4.1f}  links {s['networks'] / n:4.1f}  "
            f"develops {s['develops'] / n:4.1f}  scouts {s['scouts'] / n:3.1f}  "
            f"passes {s['passes'] / n:4.1f}  income {s['income'] / n:5.1f}  "
            f"money {s['money'] / n:5.1f}  "
            f"negative {100 * s['negative'] / n:4.0f}%  wins {100 * s['wins'] / n:4.0f}%  "
            f"{s['ms'] / max(1, s['decisions']):.2f} ms/decision"
        )
    print(f"  games where every seat scored 0: {zero_games}")


if __name__ == "__main__":
    main()
