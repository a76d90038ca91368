"""The Sell action's Pittsburgh rules: merchants, oil per tile, merchant and Quality Rewards.

Only Kerosene Refineries, Manufactured Goods and Automobiles are sold. Each sold industry
must reach, by train, a merchant tile showing its icon; a face-down (already rewarded)
merchant still buys but pays nothing. The oil each tile needs comes through pipelines
(:mod:`.sourcing`), paying each pipeline's owner. A sale may claim one face-up Quality
Rewards tile whose star requirement the sold tiles' stars plus spent whiskey meet
(:func:`.rewards.claimable_quality_rewards`).
"""

from __future__ import annotations

from collections.abc import Sequence

from plugins.brass_pittsburgh.board import PittsburghBoard
from plugins.brass_pittsburgh.data import MatTile, PittsburghData
from plugins.brass_pittsburgh.rewards import NOTHING, Gains, gains


def sellable(data: PittsburghData, tile: MatTile) -> bool:
    return data.industries[tile.industry].sellable


def merchants_buying(
    data: PittsburghData,
    board: PittsburghBoard,
    labels: Sequence[int],
    node: int,
    industry: str,
    merchant_tile: Sequence[str],
) -> list[int]:
    """Merchant spaces whose tile shows ``industry`` and that ``node`` reaches by train."""
    return [
        space
        for space, tile in enumerate(merchant_tile)
        if tile
        and industry in data.merchant_tiles[tile].accepts
        and labels[board.merchant_spaces[space][0]] == labels[node]
    ]


def merchant_reward(data: PittsburghData, tile: str, faceup: bool) -> Gains:
    """The gold side's reward, once; a face-down tile pays nothing."""
    return gains(data.merchant_tiles[tile].reward) if faceup else NOTHING


def oil_needed(tile: MatTile) -> int:
    return tile.oil_to_sell or 0
