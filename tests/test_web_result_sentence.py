"""The web table's sentence for a finished match (``resultSentence`` in
``api/static/table.js``, run under Node): it names the winners with their own points."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

TABLE = Path(__file__).resolve().parent.parent / "api" / "static" / "table.js"
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(
    NODE is None and os.environ.get("IRONWORKS_REQUIRE_BROWSER") != "1",
    reason="needs Node.js to run the web table's module",
)


def sentence(result: dict[str, Any] | None) -> str:
    script = (
        f"import {{ resultSentence }} from {json.dumps(TABLE.as_uri())};\n"
        f"console.log(resultSentence({json.dumps(result)}, (i) => `Seat ${{i + 1}}`));"
    )
    done = subprocess.run(
        [NODE or "node", "--input-type=module", "-e", script],
        capture_output=True, text=True, check=True, timeout=30,
    )  # fmt: skip
    return done.stdout.strip()


def test_a_single_winner_is_named_with_their_points() -> None:
    assert sentence({"scores": [50, 61], "ranking": [2, 1]}) == "Seat 2 wins with 61 points."


def test_winners_sharing_first_place_on_equal_points_say_it_once() -> None:
    result = {"scores": [50, 50, 3], "ranking": [1, 1, 3]}
    assert sentence(result) == "Seat 1 and Seat 2 share the win with 50 points each."


def test_winners_sharing_first_place_on_different_points_each_show_their_own() -> None:
    # Age of Steam ranks seats eliminated in the same turn together, whatever their scores.
    result = {"scores": [-102, -54], "ranking": [1, 1], "details": {"eliminated": [0, 1]}}
    assert sentence(result) == "Seat 1 (-102 points) and Seat 2 (-54 points) share the win."


def test_a_match_without_a_result_names_no_winner() -> None:
    assert sentence(None) == ""
