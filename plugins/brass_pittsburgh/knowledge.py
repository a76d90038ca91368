"""Brass: Pittsburgh's static facts for the greedy bot (:mod:`plugins.brass.knowledge`), one
:class:`~plugins.brass.knowledge.Knowledge` per board side."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from plugins.brass.knowledge import Knowledge, Line, LinkTile, Reward, Route, TileFacts
from plugins.brass_pittsburgh.data import (
    Effect,
    IncomeSpaces,
    MoneyTimesIncomeLevel,
    VpPerEmptyMatSpace,
    VpPerHeavyTrainBuilt,
)
from plugins.brass_pittsburgh.industries import already_flipped, leaves_at_end_of_era1
from plugins.brass_pittsburgh.links import LIGHT
from plugins.brass_pittsburgh.rewards import gains
from plugins.brass_pittsburgh.rules import Rules

ERAS = {"era1_only": (True, False), "era2_only": (False, True), "both": (True, True)}


def reward_of(effects: Iterable[Effect]) -> Reward:
    effects = list(effects)
    g = gains(e for e in effects if not isinstance(e, MoneyTimesIncomeLevel))
    per_level = sum(e.multiplier for e in effects if isinstance(e, MoneyTimesIncomeLevel))
    return Reward(
        money=g.money, income=g.income_spaces, vp=g.vp, whiskey=g.whiskey,
        free_develops=g.free_develops, bonus_sells=g.bonus_sells,
        money_per_income_level=per_level,
    )  # fmt: skip


@cache
def knowledge_of(rules: Rules, side: str) -> Knowledge:
    """The facts of ``rules``' board ``side``, built once per rule set and side."""
    d, board = rules.data, rules.board_of(side)
    tiles = {}
    for tid, t in d.mat.tiles.items():
        ind = d.industries[t.industry]
        income = sum(e.amount for e in t.flip_reward if isinstance(e, IncomeSpaces))
        rest = reward_of(e for e in t.flip_reward if not isinstance(e, IncomeSpaces))
        special = t.vp_special
        per_space = special.per if isinstance(special, VpPerEmptyMatSpace) else 0
        per_train = special.per if isinstance(special, VpPerHeavyTrainBuilt) else 0
        produced = sum(t.produces.values())
        tiles[tid] = TileFacts(
            industry=t.industry, level=t.level or 0, money=t.cost.money,
            cubes=dict(t.cost.resources()), income_levels_cost=-t.cost.income_levels,
            sale_need=t.oil_to_sell or 0, income=income, vp=t.vp, icons=t.link_icons,
            produces=(produced, produced), resource=next(iter(t.produces), ""),
            flip="sell" if ind.sellable else "built" if already_flipped(d, t) else "deplete",
            eras=ERAS[t.era], develop=t.developable,
            leaves_after_first_era=leaves_at_end_of_era1(t), reward=rest,
            stars=t.quality_stars, upgrade=t.build_on == "upgrade",
            vp_per_empty_mat_space=per_space, vp_per_heavy_train=per_train,
        )  # fmt: skip
    lines = {
        line.id: Line(ends=line.endpoints, bonus=reward_of([line.bonus] if line.bonus else ()))
        for line in board.lines
    }
    routes = {
        r.id: Route(oilfield=r.oilfield, city=r.city, oil_icons=r.oil_icons) for r in board.routes
    }
    links = {LIGHT: LinkTile(cubes=dict(d.light_trains.cost.resources()))}
    for hid, h in d.heavy_trains.items():
        links[hid] = LinkTile(
            cubes=dict(h.cost.resources()), reward=reward_of(h.reward),
            multiplier=h.link_score_multiplier, stays=True, carries=dict(h.carries),
        )  # fmt: skip
    for pid, p in d.pipelines.items():
        links[pid] = LinkTile(
            pipeline=True, cubes=dict(p.cost.resources()), stays=True,
            per_barrel=reward_of([p.per_barrel] if p.per_barrel else []),
            carries_oil=p.carries_oil,
        )  # fmt: skip
    slots = {
        board.locations[node]: tuple(board.slot_icons[s] for s in board.city_slots[node])
        for node in range(board.n_cities)
    }
    table = rules.cards[side]
    card_builds = {
        f"industry:{name}": tuple(d.industry_types[name].builds)
        for name in d.industry_types
        if name in {table.name(k) for k in range(len(table))}
    }
    mat_next: dict[str, list[str]] = {}
    for arrow in d.mat.arrows:
        mat_next.setdefault(arrow.from_, []).append(arrow.to)
    c = d.constants
    return Knowledge(
        tiles=tiles, lines=lines, routes=routes, link_tiles=links,
        printed_icons=dict(zip(board.locations, board.printed_link_icons, strict=True)),
        slots=slots, card_builds=card_builds, income_levels=tuple(rules.income.levels),
        rounds_per_era={p: len(d.deck_for(p)) // (2 * p) for p in c.players},
        loan_amount=c.loan_amount, loan_levels=c.loan_income_levels,
        second_link_money=c.second_link_extra_money, whiskey_max=c.whiskey_max,
        quality={q.id: reward_of(q.reward) for q in d.quality_rewards.values()},
        bankruptcy_vp=c.bankruptcy_vp_loss, mat_next={k: tuple(v) for k, v in mat_next.items()},
        game="pittsburgh",
    )  # fmt: skip
