"""Era scoring and the final ranking shared by the Brass games."""

from __future__ import annotations

from collections.abc import Sequence


def link_points(nodes: Sequence[int], icons: Sequence[int]) -> int:
    """VP of one link: the link icons counted at every location it touches."""
    return sum(icons[n] for n in nodes)


def ranking(keys: Sequence[Sequence[int]]) -> list[int]:
    """Places (1 = best) from comparison keys, higher is better, compared in order (VP,
    then each tie-break); seats whose whole keys are equal share a place."""
    return [1 + sum(tuple(other) > tuple(mine) for other in keys) for mine in keys]
