"""Checks shared by both Brass games: the view example of a CLIENTS.md guide against the
views a real game shows."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from random import Random
from typing import Any

from core.playout import playout
from tests.guide_examples import json_blocks


def documented_view(guide: Path) -> dict[str, Any]:
    """The first JSON block under the guide's "## The view" heading."""
    return json_blocks(guide, "The view")[0]


def shape(
    doc: Any, data_keyed: Iterable[str] = (), path: str = "", out: dict[str, set[str]] | None = None
) -> dict[str, set[str]]:
    """The keys seen at each path of ``doc`` (list entries merged under ``[]``). Dicts at
    ``data_keyed`` paths are keyed by data, so only their values are compared, under ``*``."""
    out = {} if out is None else out
    keyed_paths = set(data_keyed)
    if isinstance(doc, dict):
        keyed = path in keyed_paths
        if not keyed:
            out.setdefault(path, set()).update(doc)
        for key, value in doc.items():
            shape(value, keyed_paths, f"{path}.{'*' if keyed else key}", out)
    elif isinstance(doc, list):
        for value in doc:
            shape(value, keyed_paths, f"{path}[]", out)
    return out


def played_views(game: Any, options: Any, players: int, seed: int) -> list[dict[str, Any]]:
    """Seat 0's view after every move of one random game, the finished game last."""
    views: list[dict[str, Any]] = []
    playout(game, options, players, Random(seed), observe=lambda s: views.append(game.view(s, 0)))
    return views


def assert_example_has_the_real_keys(
    game: Any, options: Any, guide: Path, data_keyed: set[str], by_kind: set[str]
) -> None:
    """Every level of the documented example shows exactly the keys real views show; at
    ``by_kind`` paths (fields depend on the entry's kind) a subset of them."""
    real: dict[str, set[str]] = {}
    for players, seed in ((2, 1), (4, 2)):
        for view in played_views(game, options, players, seed):
            shape(view, data_keyed, "", real)
    doc = shape(documented_view(guide), data_keyed)
    assert doc[""] == real[""]
    for path, keys in doc.items():
        assert keys <= real.get(path, set()), f"{path}: documented but never shown"
        if path not in by_kind:
            assert keys == real[path], f"{path}: the example leaves out {real[path] - keys}"
