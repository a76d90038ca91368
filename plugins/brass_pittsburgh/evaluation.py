"""Brass: Pittsburgh positions as each seat's expected final VP (the search hooks'
``evaluate``): the family's sum (:class:`plugins.brass.evaluation.BoardEvaluation`) over
Pittsburgh's mat tiles and Oil Cities, with the heavy trains scoring again after era 1 and
whiskey worth a little."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from plugins.brass.evaluation import BoardEvaluation, Tile
from plugins.brass.worth import Outlook
from plugins.brass_pittsburgh.knowledge import knowledge_of
from plugins.brass_pittsburgh.links import LIGHT
from plugins.brass_pittsburgh.rules import Rules
from plugins.brass_pittsburgh.scoring import score_era, train_link_vp
from plugins.brass_pittsburgh.state import ERA1, State

WHISKEY_VP = 1.0
"""A whiskey held: a wild build or a Quality Reward star still to spend."""


class Evaluation(BoardEvaluation):
    """``evaluate`` for one rule set: its tile table flattened once, from the bot's
    :class:`~plugins.brass.knowledge.Knowledge` of the tiles."""

    def __init__(self, rules: Rules) -> None:
        # the tiles and rounds are alike on every board side
        k = knowledge_of(rules, next(iter(rules.boards)))
        table = {tid: (f.vp, f.icons, f.income, "" if f.flip == "built" else f.flip,
                       not f.leaves_after_first_era)
                 for tid, f in k.tiles.items()}  # fmt: skip
        super().__init__(rules, self._era_points, [], k.rounds_per_era, table=table)
        self.oil_city_vp = next(t.vp for t in rules.data.mat.tiles.values()
                                if t.build_on == "oilfield")  # fmt: skip
        self.multiplier = {link: t.multiplier for link, t in k.link_tiles.items()}

    def _era_points(self, s: State) -> tuple[list[int], list[int]]:
        """The era's scores now; in era 1 the heavy trains count again (they stay, and
        score at about today's icons)."""
        rules: Rules = self.d
        score = score_era(rules, s)
        links = list(score.link_vp)
        if s.era == ERA1:
            board = rules.board_of(s.side)
            for line, owner in enumerate(s.line_owner):
                link = s.line_link[line]
                if owner >= 0 and link != LIGHT:
                    links[owner] += train_link_vp(board, line, score.icons, self.multiplier[link])
        return links, score.industry_vp

    def tiles(self, s: Any) -> Iterator[Tile]:
        """The mat tiles on the board, then the Oil Cities (emptied of their oil, they flip)."""
        table = self.table
        for slot, owner in enumerate(s.slot_owner):
            if owner >= 0:
                yield owner, s.slot_flipped[slot], *table[s.slot_tile[slot]]
        for field, owner in enumerate(s.oil_city_owner):
            if owner >= 0:
                yield owner, s.oil_city_flipped[field], self.oil_city_vp, 0, 0, "deplete", False

    def seat_value(self, s: Any, seat: int, level: int, out: Outlook) -> float:
        """Whiskey, while the seat has payments (rounds) ahead."""
        return WHISKEY_VP * s.whiskey[seat] if out.payments else 0.0
