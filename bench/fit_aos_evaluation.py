"""How well Age of Steam's ``evaluate`` predicts final scores, and the data to refit it.

Plays greedy self-play games (the service's greedy bot on every seat), and at every
``--every``-th decision records, per seat, the features :mod:`plugins.age_of_steam.evaluation`
reads and the seat's final score. Prints, per map and player count and per stage of the
game (turns left), the Pearson correlation with the final scores of:

* ``old``: the count-based estimate as it stood before this refit (``expected_scores``
  with ``calibrated=False``);
* ``new``: the calibrated estimate (``expected_scores``);
* margins: the same for each seat's score minus the best other seat's (what the search's
  utility reads).

With ``--fit`` it also fits, by least squares, the weights of the calibration's terms
(:func:`evaluation.terms`) per turns-left stage, as a correction added to ``old``, and
prints them as a Python literal to paste into :data:`evaluation.WEIGHTS` (the stages that
do no better on held-out games are best left out).

    python3 bench/fit_aos_evaluation.py [--games 20] [--maps rust_belt:3 rust_belt:4]
                                        [--every 3] [--fit] [--seed 0] [--save F] [--load F]
"""

from __future__ import annotations

import argparse
import math
import pickle
import time
from random import Random
from typing import Any

from core.playout import playout
from plugins.age_of_steam import evaluation
from plugins.age_of_steam.data import board
from plugins.age_of_steam.game import AgeOfSteam, Options

GAME = AgeOfSteam()


def collect(map_id: str, players: int, games: int, every: int, seed: int) -> list[Any]:
    """(state, final scores) at every ``every``-th decision of greedy self-play games."""
    out: list[Any] = []
    for g in range(games):
        sampler = _Sampler(every)
        final, _n = playout(GAME, Options(map=map_id), players, Random(seed * 1000 + g),
                            sampler.choose)  # fmt: skip
        scores = [float(x) for x in final.final_scores]
        out.extend((state, scores) for state in sampler.seen)
    return out


class _Sampler:
    """The greedy bot on every seat, keeping a copy of every ``every``-th state it sees."""

    def __init__(self, every: int) -> None:
        self.every, self.count = every, 0
        self.seen: list[Any] = []

    def choose(self, state: Any, seat: int, legal: list[Any], rng: Random) -> Any:
        self.count += 1
        if self.count % self.every == 0:
            self.seen.append(GAME.clone(state))
        return GAME.bot_policy(GAME.view(state, seat), legal, rng)


def rows_of(samples: list[Any]) -> list[dict[str, Any]]:
    rows = []
    for state, scores in samples:
        b = board(state.map_id)
        rows.append({
            "stage": evaluation.stage(state),
            "old": evaluation.expected_scores(b, state, calibrated=False),
            "new": evaluation.expected_scores(b, state),
            "terms": evaluation.terms(b, state),
            "final": scores,
        })  # fmt: skip
    return rows


def pearson(xs: list[float], ys: list[float]) -> float:
    n = len(xs)
    if n < 3:
        return float("nan")
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else float("nan")


def margins(scores: list[float]) -> list[float]:
    return [s - max(o for j, o in enumerate(scores) if j != i) for i, s in enumerate(scores)]


def report(label: str, rows: list[dict[str, Any]]) -> None:
    print(f"{label}: {len(rows)} states")
    stages = sorted({r["stage"] for r in rows}, reverse=True)
    for st in [None, *stages]:
        part = [r for r in rows if st is None or r["stage"] == st]
        line = [f"  {'all' if st is None else f'{st} turns left':>13} ({len(part):4d})"]
        for key in ("old", "new"):
            xs = [x for r in part for x in r[key]]
            ys = [y for r in part for y in r["final"]]
            mx = [x for r in part for x in margins(r[key])]
            my = [y for r in part for y in margins(r["final"])]
            line.append(f"{key}: r {pearson(xs, ys):5.2f}, margin r {pearson(mx, my):5.2f}")
        print("  ".join(line))


def lstsq(xs: list[list[float]], ys: list[float], ridge: float = 1e-3) -> list[float]:
    """Least squares by the normal equations (a few terms; no numpy here)."""
    k = len(xs[0])
    a = [[sum(x[i] * x[j] for x in xs) + (ridge if i == j else 0.0) for j in range(k)]
         for i in range(k)]  # fmt: skip
    v = [sum(x[i] * y for x, y in zip(xs, ys, strict=True)) for i in range(k)]
    for c in range(k):  # Gauss-Jordan with partial pivoting
        p = max(range(c, k), key=lambda r: abs(a[r][c]))
        a[c], a[p], v[c], v[p] = a[p], a[c], v[p], v[c]
        for r in range(k):
            if r != c and a[c][c]:
                f = a[r][c] / a[c][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c], strict=True)]
                v[r] -= f * v[c]
    return [v[i] / a[i][i] if a[i][i] else 0.0 for i in range(k)]


def fit(rows: list[dict[str, Any]]) -> dict[int, list[float]]:
    """Weights per stage (turns left, the last bucket holding every earlier stage)."""
    out = {}
    for st in sorted({min(r["stage"], evaluation.STAGES) for r in rows}):
        part = [r for r in rows if min(r["stage"], evaluation.STAGES) == st]
        if st == 0 or len(part) < 50:  # after the last Move Goods the rough estimate is exact
            continue
        xs = [t for r in part for t in r["terms"]]
        base = [x for r in part for x in r["old"]]
        ys = [y for r in part for y in r["final"]]
        w = lstsq(xs, [y - x for x, y in zip(base, ys, strict=True)])
        out[st] = [round(x, 3) for x in w]
        pred = [x + sum(a * b for a, b in zip(w, t, strict=True))
                for x, t in zip(base, xs, strict=True)]  # fmt: skip
        print(f"  stage {st}: {len(part)} states, fitted r {pearson(pred, ys):.2f}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--maps", nargs="*", default=["rust_belt:3", "rust_belt:4"])
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--fit", action="store_true")
    ap.add_argument("--save", default=None, help="write the sampled states here (pickle)")
    ap.add_argument("--load", default=None, help="read states saved by --save, play no games")
    ap.add_argument("--holdout", type=float, default=0.0,
                    help="share of each table's states (its last games) kept out of the fit "
                    "and reported apart")  # fmt: skip
    args = ap.parse_args()
    if args.load:
        with open(args.load, "rb") as f:
            samples = pickle.load(f)
    else:
        samples = {}
        for table in args.maps:
            map_id, n = table.split(":")
            t0 = time.process_time()
            samples[table] = collect(map_id, int(n), args.games, args.every, args.seed)
            print(f"{table}: {args.games} games in {time.process_time() - t0:.0f} CPU s")
        if args.save:
            with open(args.save, "wb") as f:
                pickle.dump(samples, f)
    train: dict[str, list[dict[str, Any]]] = {}
    for table, part in samples.items():
        cut = len(part) - int(len(part) * args.holdout)
        train[table] = rows_of(part[:cut])
        report(table, train[table])
        if cut < len(part):
            report(f"{table} held out", rows_of(part[cut:]))
    if args.fit:
        weights = {}
        for table, rows in train.items():
            print(f"{table} fit")
            weights[table] = fit(rows)
        print("WEIGHTS = {")
        for table, ws in weights.items():
            print(f"    {table!r}: {{")
            for st, w in ws.items():
                print(f"        {st}: {w},")
            print("    },")
        print("}")


if __name__ == "__main__":
    main()
