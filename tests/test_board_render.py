"""The web boards rendered in headless Chromium (``api/static/boards/harness.html``) on real
views: each board draws without an error, and every target the legal moves light up is an
element the user can reach by keyboard (``tabindex=0``, ``role=button``, ``aria-label``)."""

from __future__ import annotations

import functools
import json
import re
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from board_fixtures import all_fixtures

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="needs Chromium to render the boards")

# (game module, fixture) pairs: a plain turn and a follow-up decision of each game.
CASES = [
    ("brass-birmingham", "brass-birmingham", "action"),
    ("brass-birmingham", "brass-birmingham", "pick_iron"),
    ("brass-pittsburgh", "brass-pittsburgh", "action"),
    ("brass-pittsburgh", "brass-pittsburgh-2p", "action"),
    ("brass-pittsburgh", "brass-pittsburgh", "sell_produced"),
    ("age-of-steam", "age-of-steam", "build"),
    ("age-of-steam", "age-of-steam", "place_cube"),
    ("age-of-steam", "age-of-steam-st-lucia", "move_goods"),
]
SPECTATOR = [("brass-birmingham", "brass-birmingham"), ("brass-pittsburgh", "brass-pittsburgh"),
             ("age-of-steam", "age-of-steam")]  # fmt: skip


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Iterator[tuple[str, Path]]:
    """A local static server over the boards folder and this run's fixtures."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "boards").symlink_to(ROOT / "api" / "static" / "boards")
        (root / "fixtures").mkdir()
        for name, fixtures in all_fixtures().items():
            for kind, fx in fixtures.items():
                (root / "fixtures" / f"{name}.{kind}.json").write_text(json.dumps(fx))
        handler = functools.partial(_Quiet, directory=str(root))
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        thread.start()
        try:
            yield f"http://127.0.0.1:{server.server_address[1]}", root
        finally:
            server.shutdown()
            server.server_close()


def _check(url: str) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as profile:
        run = subprocess.run(
            [str(CHROMIUM), "--headless", "--no-sandbox", "--disable-gpu",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--no-first-run", f"--user-data-dir={profile}", "--virtual-time-budget=5000",
             "--dump-dom", url],
            capture_output=True, text=True, timeout=90, check=False,
        )  # fmt: skip
    found = re.search(r'<pre id="check"[^>]*>(.*?)</pre>', run.stdout, flags=re.S)
    assert found and found.group(1), f"the harness did not finish: {run.stderr[-2000:]}"
    out: dict[str, Any] = json.loads(found.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    return out


@pytest.mark.parametrize(("board", "name", "kind"), CASES)
def test_board_renders_and_every_lit_target_is_keyboard_operable(
    site: tuple[str, Path], board: str, name: str, kind: str
) -> None:
    fixture = f"../fixtures/{name}.{kind}.json"
    out = _check(f"{site[0]}/boards/harness.html?board={board}&fixture={fixture}")
    assert "error" not in out, out.get("error")
    assert out["missing"] == []
    assert out["lit"] > 0


@pytest.mark.parametrize(("board", "name"), SPECTATOR)
def test_board_renders_for_a_spectator_with_nothing_lit(
    site: tuple[str, Path], board: str, name: str
) -> None:
    fixture = f"../fixtures/{name}.spectator.json"
    out = _check(f"{site[0]}/boards/harness.html?board={board}&fixture={fixture}")
    assert "error" not in out, out.get("error")
    assert out["lit"] == 0 and out["moves"] == 0


def test_clicking_a_space_narrows_the_moves_to_the_builds_there(site: tuple[str, Path]) -> None:
    url, root = site
    name = "brass-birmingham.action.json"
    legal = json.loads((root / "fixtures" / name).read_text())["legal"]
    space = next(m["space"] for m in legal if m["type"] == "build")
    there = [m for m in legal if space in (m.get("space"), m.get("source"))]
    out = _check(f"{url}/boards/harness.html?board=brass-birmingham&fixture=../fixtures/{name}"
                 f"&pick={space}")  # fmt: skip
    assert out["moves"] == len(there) < len(legal)
    assert out["missing"] == []
