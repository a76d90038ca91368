"""A behaviour fingerprint of the three Brass games, to check that a refactoring changes
nothing a client, a stored log or a bot could tell.

For seeded random 2-4 player games of each game, one line per game with a digest per
category: legal moves (the deciding seat's at every decision, the others' now and then),
views of every seat and a spectator, redacted events (and Pittsburgh's ``redact_in_match``),
stored events, position exports and their reload, evaluations, the bots' views and
choices (greedy, playout, quick follow-ups), determinized and resampled states, refusals
of moves legal elsewhere and of legal moves with one field changed (code and sentence),
mutated position documents (load, or code and sentence), chance outcomes and results; plus
metadata and knowledge per game. Run it in two checkouts and diff:

    (cd OLD && PYTHONPATH=$PWD python3 /path/to/bench/brass_fingerprint.py) > old.txt
    PYTHONPATH=$PWD python3 bench/brass_fingerprint.py > new.txt && diff old.txt new.txt

Arguments: games per player count (4), every how many decisions the heavy checks run (3),
and the games (``bb,bp,bl``). With ``FINGERPRINT_SORTED=1`` every JSON digest sorts its keys, so
two checkouts whose documents differ only in key order print the same.
"""

from __future__ import annotations

import hashlib
import os
import sys
from random import Random
from typing import Any

import msgspec

from core.errors import IllegalMove, InvalidPosition
from core.game import SYSTEM
from plugins.brass import bot
from plugins.brass_birmingham.game import BrassBirmingham
from plugins.brass_lancashire.game import BrassLancashire
from plugins.brass_pittsburgh.game import BrassPittsburgh

ORDER = "sorted" if os.environ.get("FINGERPRINT_SORTED") else None
"""``FINGERPRINT_SORTED=1`` digests JSON with sorted keys: for a change that only reorders a
document's keys (JSON objects are unordered, so no client can tell)."""


def enc(x: Any) -> bytes:
    try:
        return msgspec.json.encode(x, order=ORDER)
    except Exception:
        return repr(x).encode()


class H:
    def __init__(self) -> None:
        self.h: dict[str, Any] = {}

    def __call__(self, cat: str, x: Any) -> None:
        self.h.setdefault(cat, hashlib.sha256()).update(enc(x) + b"\n")

    def out(self) -> str:
        return " ".join(f"{k}={v.hexdigest()[:10]}" for k, v in sorted(self.h.items()))


def attempt(h: H, cat: str, f: Any) -> Any:
    try:
        r = f()
        h(cat, ["ok", r])
        return r
    except (IllegalMove, InvalidPosition) as exc:
        h(cat, ["err", type(exc).__name__, getattr(exc, "code", None), str(exc)])
    except Exception as exc:
        h(cat, ["exc", type(exc).__name__, str(exc)])
    return None


def run(game: Any, players: int, seed: int, heavy: int) -> str:
    h = H()
    rng = Random(1000 * players + seed)
    side = Random(seed)
    state = None
    events_all = []
    for e in game.setup(game.Options(), players, rng):
        state = game.evolve(state, e)
        events_all.append(e)
    h("setup_outcome", game.setup_outcome(events_all))
    pool: list[Any] = []
    decisions = 0
    while tasks := game.pending_tasks(state):
        task = tasks[0]
        h("tasks", tasks)
        if task.kind == "system":
            events = game.decide(state, SYSTEM, task.move, rng)
            h("chance", game.chance_outcome(state, task.move, events))
        else:
            seat = task.seat
            legal = game.legal_moves(state, seat)
            h("legal", legal)
            pool.extend(side.sample(legal, min(2, len(legal))))
            if len(pool) > 400:
                del pool[:200]
            if decisions % heavy == 0:
                for other in range(players):
                    if other != seat:
                        h("legal_other", game.legal_moves(state, other))
                for viewer in (*range(players), None):
                    h("view", game.view(state, viewer))
                exp = game.export_position(state)
                h("export", exp)
                again = attempt(
                    h, "reload", lambda e=exp: game.export_position(game.load_position(e))
                )
                h("reload_same", again == exp)
                h("evaluate", game.evaluate(state))
                h("playout_view", game.playout_view(state, seat))
                v = game.view(state, seat)
                h("greedy", game.bot_policy(v, legal, Random(decisions)))
                h("playout", game.playout_policy(state, seat, legal, Random(decisions)))
                if legal[0].__struct_config__.tag in bot.QUICK_FOLLOW_UPS:
                    h("quick", game.quick_follow_up(state, seat, legal, Random(decisions)))
                h("determinize", game.export_position(game.determinize(v, Random(decisions))))
                h(
                    "sample_hidden",
                    game.export_position(game.sample_hidden(state, seat, Random(decisions))),
                )
                # refusals: moves legal elsewhere, tried now
                tag = legal[0].__struct_config__.tag
                same = [m for m in pool if m.__struct_config__.tag == tag]
                tries = side.sample(pool, min(3, len(pool))) + side.sample(same, min(4, len(same)))
                for m in tries:
                    if m not in legal:
                        attempt(
                            h,
                            "refusal",
                            lambda m=m, s=state, i=seat: game.decide(s.clone(), i, m, Random(0)),
                        )
                # refusals: legal moves with one field changed (to another move's value)
                for m in side.sample(legal, min(4, len(legal))):
                    changed = mutate_move(m, pool, side)
                    if changed is not None and changed not in legal:
                        attempt(
                            h,
                            "mutated_move",
                            lambda m=changed, s=state, i=seat: game.decide(
                                s.clone(), i, m, Random(0)
                            ),
                        )
                # mutated position documents
                for _ in range(2):
                    doc = msgspec.json.decode(msgspec.json.encode(exp))
                    mutate(doc, side)
                    attempt(
                        h,
                        "mutated_load",
                        lambda doc=doc: game.export_position(game.load_position(doc)),
                    )
            move = legal[rng.randrange(len(legal))]
            events = game.decide(state, seat, move, rng)
            decisions += 1
        for e in events:
            h("event", e)
            for viewer in (*range(players), None):
                h("redact", game.redact(e, viewer))
                if hasattr(game, "redact_in_match"):
                    h("redact_in_match", game.redact_in_match(state, e, viewer))
            state = game.evolve(state, e)
            events_all.append(e)
    h("result", game.result(state))
    h("final_view", [game.view(state, v) for v in (*range(players), None)])
    h("final_export", game.export_position(state))
    return f"{game.id} {players} {seed} {decisions} {h.out()}"


def mutate_move(m: Any, pool: list[Any], rng: Random) -> Any:
    """``m`` with one field set to another move's value of a field of that name (or to an
    unknown name), ``None`` if ``m`` has no field."""
    fields = [f for f in m.__struct_fields__ if f != "deal"]
    if not fields:
        return None
    field = rng.choice(fields)
    values = [getattr(o, field) for o in pool if field in o.__struct_fields__]
    values += ["nowhere", None]
    return msgspec.structs.replace(m, **{field: rng.choice(values)})


def mutate(doc: Any, rng: Random) -> None:
    """Change one leaf of ``doc`` at random."""
    path: list[Any] = []
    node = doc
    while isinstance(node, (dict, list)) and node:
        key = rng.choice(list(node)) if isinstance(node, dict) else rng.randrange(len(node))
        path.append((node, key))
        node = node[key]
        if rng.random() < 0.25:
            break
    if not path:
        return
    parent, key = path[-1]
    v = parent[key]
    choices: list[Any] = [None, -1, 0, 1, 2, 99, "x", True, [], {}]
    if isinstance(v, int) and not isinstance(v, bool):
        choices += [v + 1, v - 1]
    if isinstance(v, str):
        choices += [v + "1", v[:-1]]
    if isinstance(parent, list) and rng.random() < 0.3:
        del parent[key]
        return
    parent[key] = rng.choice(choices)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 4
    heavy = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    which = sys.argv[3].split(",") if len(sys.argv) > 3 else ["bb", "bp", "bl"]
    all_games = {"bb": BrassBirmingham, "bp": BrassPittsburgh, "bl": BrassLancashire}
    for key in which:
        game = all_games[key]()
        h = H()
        h("metadata", game.metadata)
        if key == "bp":
            h("knowledge", [game.knowledge(s) for s in ("main", "two_player")])
        print(game.id, "static", h.out(), flush=True)
        for players in (2, 3, 4):
            for seed in range(games):
                print(run(game, players, seed, heavy), flush=True)


if __name__ == "__main__":
    main()
