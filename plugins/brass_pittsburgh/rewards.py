"""Rewards: what the typed effects of the data set are worth to a player.

Tiles, lines, pipelines, merchants, oilfield tiles and Quality Rewards all pay in the same
few currencies. :func:`gains` totals a list of effects into a :class:`Gains`; the game then
applies it (money, income spaces on the family income track, VP, whiskey up to the cap,
free develops and bonus sells to resolve).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import msgspec

from plugins.brass_pittsburgh.data import (
    BonusSell,
    Effect,
    FreeDevelop,
    IncomeSpaces,
    Money,
    MoneyTimesIncomeLevel,
    Pipeline,
    QualityReward,
    Vp,
    VpPerEmptyMatSpace,
    VpPerHeavyTrainBuilt,
    Whiskey,
)


class Gains(msgspec.Struct, frozen=True, kw_only=True):
    money: int = 0
    income_spaces: int = 0
    vp: int = 0
    whiskey: int = 0
    free_develops: int = 0
    bonus_sells: int = 0

    def __add__(self, other: Gains) -> Gains:
        return Gains(**{f: getattr(self, f) + getattr(other, f) for f in self.__struct_fields__})


NOTHING = Gains()


def gains(effects: Iterable[Effect], income_level: int = 0) -> Gains:
    """What ``effects`` pay now; ``income_level`` is the receiver's current level (the
    Polyphase Alternator pays a multiple of it). End-of-era scores are not paid here."""
    total = NOTHING
    for e in effects:
        if isinstance(e, Money):
            total += Gains(money=e.amount)
        elif isinstance(e, IncomeSpaces):
            total += Gains(income_spaces=e.amount)
        elif isinstance(e, Vp):
            total += Gains(vp=e.amount)
        elif isinstance(e, Whiskey):
            total += Gains(whiskey=e.amount)
        elif isinstance(e, FreeDevelop):
            total += Gains(free_develops=e.count)
        elif isinstance(e, BonusSell):
            total += Gains(bonus_sells=1)
        elif isinstance(e, MoneyTimesIncomeLevel):
            total += Gains(money=max(e.min, e.multiplier * income_level))
        elif not isinstance(e, VpPerEmptyMatSpace | VpPerHeavyTrainBuilt):
            raise TypeError(f"unknown effect {e!r}")
    return total


def era_end_vp(effects: Iterable[Effect], empty_mat_spaces: int, heavy_trains_built: int) -> int:
    """The crown jewels' special scores at the end of an era: VP per empty industry space
    on the owner's mat (Polyphase Alternator), VP per heavy train built (Locomotive Works)."""
    vp = 0
    for e in effects:
        if isinstance(e, VpPerEmptyMatSpace):
            vp += e.per * empty_mat_spaces
        elif isinstance(e, VpPerHeavyTrainBuilt):
            vp += e.per * heavy_trains_built
    return vp


def pipeline_pays(pipeline: Pipeline, barrels: int) -> Gains:
    """What a pipeline's owner earns when ``barrels`` travel through it."""
    paid = pipeline.per_barrel
    return gains([paid] * barrels if paid is not None else ())


def claimable_quality_rewards(
    stars: int, whiskey: int, faceup: Sequence[QualityReward]
) -> list[tuple[QualityReward, int]]:
    """The faceup Quality Rewards a sale with ``stars`` may claim, each with the whiskey it
    costs (one star per whiskey, only as many as the tile needs). At most one is claimed."""
    options = []
    for tile in faceup:
        needed = max(0, tile.stars_required - stars)
        if needed <= whiskey:
            options.append((tile, needed))
    return options
