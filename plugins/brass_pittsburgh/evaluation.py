"""Brass: Pittsburgh positions as each seat's expected final VP (the search hooks'
``evaluate``; the sum is described in :mod:`plugins.brass.evaluation`)."""

from __future__ import annotations

from plugins.brass.evaluation import flip_chance, outlooks
from plugins.brass_pittsburgh.knowledge import knowledge_of
from plugins.brass_pittsburgh.links import LIGHT
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.scoring import location_icons, score_era, train_link_vp
from plugins.brass_pittsburgh.state import ERA1, OVER, State

WHISKEY_VP = 1.0
"""A whiskey held: a wild build or a Quality Reward star still to spend."""


class Evaluation:
    """``evaluate`` for one rule set: its tile table flattened once, from the bot's
    :class:`~plugins.brass.knowledge.Knowledge` of the tiles."""

    def __init__(self, rules: Rules) -> None:
        self.rules, self.levels = rules, rules.income.levels
        # the tiles and rounds are alike on every board side
        k = knowledge_of(rules, next(iter(rules.boards)))
        self.rounds_per_era = k.rounds_per_era
        # per tile id: (vp, icons, income spaces, how it flips ("": on building), stays
        # after era 1)
        self.tiles = {tid: (f.vp, f.icons, f.income, "" if f.flip == "built" else f.flip,
                            not f.leaves_after_first_era)
                      for tid, f in k.tiles.items()}  # fmt: skip
        self.oil_city_vp = next(t.vp for t in rules.data.mat.tiles.values()
                                if t.build_on == "oilfield")  # fmt: skip
        self.multiplier = {link: t.multiplier for link, t in k.link_tiles.items()}

    def __call__(self, s: State) -> list[float]:
        if s.phase == OVER:
            return [float(v) for v in s.vp]
        rules, n = self.rules, s.players
        levels, last = self.levels, len(self.levels) - 1
        level = [levels[sp] for sp in s.income]
        rounds_era, outs = outlooks(s, level, self.rounds_per_era[n])
        score = score_era(rules, s)
        value = [float(s.vp[i] + score.link_vp[i] + score.industry_vp[i]) for i in range(n)]
        era1 = s.era == ERA1
        if era1:  # heavy trains stay: they score again (at about today's icons)
            board = rules.board_of(s.side)
            icons = location_icons(rules, s)
            for line, owner in enumerate(s.line_owner):
                link = s.line_link[line]
                if owner >= 0 and link != LIGHT:
                    value[owner] += train_link_vp(board, line, icons, self.multiplier[link])
        for slot, owner in enumerate(s.slot_owner):
            if owner < 0:
                continue
            vp, icons_, income, kind, stays = self.tiles[s.slot_tile[slot]]
            stays = stays and era1
            if s.slot_flipped[slot]:
                if stays:
                    value[owner] += vp
                continue
            if not kind:
                continue
            p = flip_chance(kind, rounds_era, stays)
            space = s.income[owner]
            gain = levels[min(last, space + income)] - levels[space]
            value[owner] += p * (vp * (2 if stays else 1) + icons_ + gain * outs[owner].income_vp)
        for field, owner in enumerate(s.oil_city_owner):
            if owner >= 0 and not s.oil_city_flipped[field]:
                value[owner] += flip_chance("deplete", rounds_era, False) * self.oil_city_vp
        for i, out in enumerate(outs):
            value[i] += level[i] * out.income_vp + s.money[i] * out.money_vp
            if out.payments:
                value[i] += WHISKEY_VP * s.whiskey[i]
        return value
