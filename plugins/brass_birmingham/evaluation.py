"""Brass: Birmingham positions as each seat's expected final VP (the search hooks'
``evaluate``; the sum is described in :mod:`plugins.brass.evaluation`)."""

from __future__ import annotations

from plugins.brass.evaluation import flip_chance, outlooks
from plugins.brass_birmingham.data import BREWERY, SELLABLE, Birmingham
from plugins.brass_birmingham.state import CANAL, OVER, State
from plugins.brass_birmingham.variant import birmingham_variant


class Evaluation:
    """``evaluate`` for one data set: its tile tables flattened once."""

    def __init__(self, d: Birmingham) -> None:
        self.d = d
        self.rounds_per_era = {p: sum(c) // (2 * p) for p, c in d.deck_copies.items()}
        self.levels = d.income.levels
        # per industry, per level: (vp, icons, income spaces, how it flips)
        self.tiles = [
            [(0, 0, 0, "")]
            + [
                (t.vp, t.link_icons, t.income,
                 "sell" if ind in SELLABLE else "beer" if ind == BREWERY else "deplete")
                for t in rows
            ]
            for ind, rows in enumerate(d.tiles)
        ]  # fmt: skip

    def __call__(self, s: State) -> list[float]:
        if s.phase == OVER:
            return [float(v) for v in s.vp]
        n, levels, last = s.players, self.levels, len(self.levels) - 1
        level = [levels[sp] for sp in s.income]
        rounds_era, outs = outlooks(s, level, self.rounds_per_era[n])
        links, industries = birmingham_variant(self.d).era_points(s)
        value = [float(s.vp[i] + links[i] + industries[i]) for i in range(n)]
        canal = s.era == CANAL
        for slot, owner in enumerate(s.slot_owner):
            if owner < 0:
                continue
            lvl = s.slot_level[slot]
            vp, icons, income, kind = self.tiles[s.slot_ind[slot]][lvl]
            stays = canal and lvl > 1  # level I tiles leave when the canal era ends
            if s.slot_flipped[slot]:
                if stays:
                    value[owner] += vp
                continue
            p = flip_chance(kind, rounds_era, stays)
            if p:
                space = s.income[owner]
                gain = levels[min(last, space + income)] - levels[space]
                scored = vp * (2 if stays else 1) + icons
                value[owner] += p * (scored + gain * outs[owner].income_vp)
        for i, out in enumerate(outs):
            value[i] += level[i] * out.income_vp + s.money[i] * out.money_vp
        return value
