"""Reading the worked JSON examples out of a game's client guide (CLIENTS.md), so tests can
prove every example is real."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any


def section(guide: Path, heading: str) -> str:
    """The text under the first second-level heading that starts with ``heading``, up to
    the next second-level heading."""
    text = guide.read_text(encoding="utf-8")
    found = re.search(rf"^## {re.escape(heading)}.*$", text, re.M)
    if found is None:
        raise LookupError(f"{guide} has no section '## {heading}'")
    return text[found.end() :].split("\n## ", 1)[0]


def json_blocks(guide: Path, heading: str) -> list[Any]:
    """Every ```json block of one section, decoded."""
    return [json.loads(b) for b in re.findall(r"```json\n(.*?)```", section(guide, heading), re.S)]


def position_examples(guide: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The Positions section's examples: position documents, then moves to play from them."""
    blocks = json_blocks(guide, "Positions")
    return [b for b in blocks if "format" in b], [b for b in blocks if "type" in b]


def given_and_omitted(
    doc: dict[str, Any], path: tuple[Any, ...], default: Any
) -> tuple[dict[str, Any], dict[str, Any]]:
    """Two copies of ``doc``: one with the field at ``path`` set to ``default``, one without
    it — a loader that documents that default must load both to the same position."""
    given, omitted = copy.deepcopy(doc), copy.deepcopy(doc)
    _parent(given, path)[path[-1]] = default
    _parent(omitted, path).pop(path[-1], None)
    return given, omitted


def _parent(doc: Any, path: tuple[Any, ...]) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc
