"""The web boards rendered in headless Chromium (``api/static/boards/harness.html``) on real
views: each board draws without an error, and every target the legal moves light up is an
element the user can reach by keyboard (``tabindex=0``, ``role=button``, ``aria-label``).
Driven by playwright like the other browser tests (``conftest.py`` here)."""

from __future__ import annotations

import functools
import json
import re
import tempfile
import threading
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from board_fixtures import all_fixtures

ROOT = Path(__file__).resolve().parents[2]
HARNESS_MS = 30_000

# (game module, fixture) pairs: a plain turn and a follow-up decision of each game.
CASES = [
    ("brass-birmingham", "brass-birmingham", "action"),
    ("brass-birmingham", "brass-birmingham", "pick_iron"),
    ("brass-lancashire", "brass-lancashire", "action"),
    ("brass-pittsburgh", "brass-pittsburgh", "action"),
    ("brass-pittsburgh", "brass-pittsburgh-2p", "action"),
    ("brass-pittsburgh", "brass-pittsburgh", "sell_produced"),
    ("age-of-steam", "age-of-steam", "build"),
    ("age-of-steam", "age-of-steam", "place_cube"),
    ("age-of-steam", "age-of-steam-st-lucia", "move_goods"),
]
SPECTATOR = [("brass-birmingham", "brass-birmingham"), ("brass-lancashire", "brass-lancashire"),
             ("brass-pittsburgh", "brass-pittsburgh"),
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


@pytest.fixture
def check(browser: Any) -> Iterator[Any]:
    """Open the harness at a URL and return what it wrote into ``#check``."""
    page = browser.new_page()

    def run(url: str) -> dict[str, Any]:
        page.goto(url)
        page.wait_for_function(
            "document.getElementById('check').textContent.length > 0", timeout=HARNESS_MS
        )
        out: dict[str, Any] = json.loads(page.text_content("#check") or "{}")
        return out

    yield run
    page.close()


@pytest.mark.parametrize(("board", "name", "kind"), CASES)
def test_board_renders_and_every_lit_target_is_keyboard_operable(
    site: tuple[str, Path], check: Any, board: str, name: str, kind: str
) -> None:
    fixture = f"../fixtures/{name}.{kind}.json"
    out = check(f"{site[0]}/boards/harness.html?board={board}&fixture={fixture}")
    assert "error" not in out, out.get("error")
    assert out["missing"] == []
    assert out["lit"] > 0


@pytest.mark.parametrize(("board", "name"), SPECTATOR)
def test_board_renders_for_a_spectator_with_nothing_lit(
    site: tuple[str, Path], check: Any, board: str, name: str
) -> None:
    fixture = f"../fixtures/{name}.spectator.json"
    out = check(f"{site[0]}/boards/harness.html?board={board}&fixture={fixture}")
    assert "error" not in out, out.get("error")
    assert out["lit"] == 0 and out["moves"] == 0


def test_clicking_a_space_narrows_the_moves_to_the_builds_there(
    site: tuple[str, Path], check: Any
) -> None:
    url, root = site
    name = "brass-birmingham.action.json"
    legal = json.loads((root / "fixtures" / name).read_text())["legal"]
    space = next(m["space"] for m in legal if m["type"] == "build")
    there = [m for m in legal if space in (m.get("space"), m.get("source"))]
    out = check(f"{url}/boards/harness.html?board=brass-birmingham&fixture=../fixtures/{name}"
                 f"&pick={space}")  # fmt: skip
    assert out["moves"] == len(there) < len(legal)
    assert out["missing"] == []


@pytest.fixture
def harness(browser: Any, site: tuple[str, Path]) -> Iterator[Any]:
    """``harness(board, fixture_name)``: the harness page rendering that fixture."""
    page = browser.new_page(viewport={"width": 1440, "height": 900})

    def open_(board: str, name: str) -> Any:
        page.goto(f"{site[0]}/boards/harness.html?board={board}&fixture=../fixtures/{name}.json")
        page.wait_for_function(
            "document.getElementById('check').textContent.length > 0", timeout=HARNESS_MS
        )
        return page

    yield open_
    page.close()


BRASS_TURNS = [("brass-birmingham", "brass-birmingham.action"),
               ("brass-pittsburgh", "brass-pittsburgh.action")]  # fmt: skip

# Where a pointer click on an element lands: its middle, as playwright (and most people)
# click; the target the hit element belongs to.
_LANDS = """() => {
  const out = [];
  for (const el of document.querySelectorAll('#board [data-target].bd-target')) {
    const id = el.getAttribute('data-target');
    if (id.includes(':') || id.includes('~')) continue;
    el.scrollIntoView({ block: 'center', inline: 'center' });
    const r = el.getBoundingClientRect();
    if (!r.width) continue;
    const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
    const got = hit && hit.closest('[data-target]');
    out.push([id, got ? got.getAttribute('data-target') : null]);
  }
  return out;
}"""


@pytest.mark.parametrize(("board", "name"), BRASS_TURNS)
def test_a_pointer_click_on_a_lit_location_lands_on_that_location(
    harness: Any, board: str, name: str
) -> None:
    page = harness(board, name)
    lands = page.evaluate(_LANDS)
    assert lands, "no lit location on the board"
    assert [(loc, got) for loc, got in lands if got != loc] == []


@pytest.mark.parametrize(("board", "name"), BRASS_TURNS)
def test_space_labels_count_from_one_like_the_move_list(
    harness: Any, board: str, name: str
) -> None:
    page = harness(board, name)
    labels = page.evaluate(
        "() => [...document.querySelectorAll('#board [data-target*=\":\"]')]"
        ".map(el => [el.getAttribute('data-target'), el.getAttribute('aria-label')])"
    )
    spaces = [(i, text) for i, text in labels if " space " in text]
    assert spaces
    for ident, text in spaces:
        number = int(ident.split(":")[1]) + 1
        assert f" space {number}" in text, (ident, text)
    assert not any(" space 0" in text for _, text in spaces)


# Prompts as the Brass views word them, one per shape of sentence.
PROMPTS = {
    "liquidate": "£3 of negative income cannot be paid: remove one of your industries (by its "
                 "space) for half its cost",
    "action": "choose an action (2 left this turn)",
    "free_develop": "the merchant's bonus: develop one tile for free, or done",
    "pay": "2 coal still needed for Erie: choose where the next one comes from",
    "move_goods": "Move Goods round 1 of 2: move one good up to 2 links, or pass",
}  # fmt: skip


@pytest.mark.parametrize("kind", sorted(PROMPTS))
@pytest.mark.parametrize("board", ["brass-birmingham", "brass-pittsburgh", "age-of-steam"])
def test_the_turn_line_names_the_seat_then_gives_the_prompt_whole(
    site: tuple[str, Path], harness: Any, board: str, kind: str
) -> None:
    first = "build" if board == "age-of-steam" else "action"
    fx = json.loads((site[1] / "fixtures" / f"{board}.{first}.json").read_text())
    seat = fx["view"]["decision"]["seat"]
    fx["view"]["decision"].update(kind=kind, prompt=PROMPTS[kind])
    fx["seat"] = None
    (site[1] / "fixtures" / f"{board}.prompt-{kind}.json").write_text(json.dumps(fx))
    page = harness(board, f"{board}.prompt-{kind}")
    line = page.inner_text(".bd-prompt").strip()
    prompt = PROMPTS[kind]
    assert line.endswith(f"Seat {seat + 1}: {prompt[0].upper()}{prompt[1:]}.")
    assert " must " not in line


# Each location's name plate against the build spaces: the spaces it covers by more than a
# sliver (the plate is drawn in front of them, so it would hide a built tile's level and VP).
_PLATES_OVER_SPACES = """() => {
  const boxes = (sel) => [...document.querySelectorAll(sel)]
    .map((el) => [el, el.getBoundingClientRect()]);
  const spaces = boxes('#board [data-target*=":"]').filter(([el]) => !el.closest('.bd-lochead'));
  const out = [];
  for (const [plate, p] of boxes('#board .bd-lochead')) {
    for (const [space, r] of spaces) {
      const w = Math.min(p.right, r.right) - Math.max(p.left, r.left);
      const h = Math.min(p.bottom, r.bottom) - Math.max(p.top, r.top);
      if (w > r.width / 8 && h > r.height / 8) out.push(space.getAttribute('data-target'));
    }
  }
  return out;
}"""


@pytest.mark.parametrize(
    ("board", "name"),
    [("brass-birmingham", "brass-birmingham.action"),
     ("brass-lancashire", "brass-lancashire.action"),
     ("brass-pittsburgh", "brass-pittsburgh.action")],
)  # fmt: skip
def test_a_location_name_covers_none_of_the_build_spaces(
    harness: Any, board: str, name: str
) -> None:
    page = harness(board, name)
    covered = page.evaluate(_PLATES_OVER_SPACES)
    assert covered == [], f"name plates over these spaces: {covered}"


@pytest.mark.parametrize("board", ["brass-birmingham", "brass-lancashire", "brass-pittsburgh"])
def test_a_finished_brass_game_names_no_round_past_the_last(
    site: tuple[str, Path], harness: Any, board: str
) -> None:
    # The view's round moves one past the era's last when the final round ends.
    fx = json.loads((site[1] / "fixtures" / f"{board}.action.json").read_text())
    fx["view"].update(phase="over", round=11, decision=None)
    (site[1] / "fixtures" / f"{board}.over.json").write_text(json.dumps(fx))
    page = harness(board, f"{board}.over")
    assert "error" not in json.loads(page.text_content("#check") or "{}")
    shown = page.inner_text("#panels") + page.text_content("#board")
    assert "game over" in page.inner_text(".bd-era")
    assert "round 11" not in shown


@pytest.mark.parametrize(
    ("prompt", "line"),
    [("the game is over", "The game is over."),
     ("the server runs this step: production", "The server runs this step: production.")],
)  # fmt: skip
def test_a_decision_of_no_seat_reads_as_a_sentence_on_the_age_of_steam_board(
    site: tuple[str, Path], harness: Any, prompt: str, line: str
) -> None:
    fx = json.loads((site[1] / "fixtures" / "age-of-steam.build.json").read_text())
    fx["view"]["decision"].update(seat=None, kind="system", prompt=prompt)
    fx["seat"] = None
    (site[1] / "fixtures" / "age-of-steam.no-seat.json").write_text(json.dumps(fx))
    page = harness("age-of-steam", "age-of-steam.no-seat")
    assert page.inner_text(".bd-turn .bd-prompt").strip() == line


_AOS_LABELS = """() => [...document.querySelectorAll(
    '#board [data-target^="hex:"], #board [data-target^="cube:"]')]
  .map((el) => [el.getAttribute('data-target'), el.querySelector(':scope > title').textContent])"""


@pytest.mark.parametrize("name", ["age-of-steam.build", "age-of-steam-st-lucia.move_goods"])
def test_age_of_steam_places_read_by_name_with_the_hex_in_brackets(harness: Any, name: str) -> None:
    labels = harness("age-of-steam", name).evaluate(_AOS_LABELS)
    cities = [text for ident, text in labels if text.startswith("city ")]
    cubes = [text for ident, text in labels if ident.startswith("cube:")]
    assert cities and all(re.match(r"city .+ \(hex \d+,\d+\), takes \w+ goods", t) for t in cities)
    # A good on a city is at the city's name, not at a bare "5,9".
    assert cubes and not [t for t in cubes if re.search(r"at \d+,\d+$", t)]


def test_an_age_of_steam_income_below_zero_reads_with_its_sign_first(
    site: tuple[str, Path], harness: Any
) -> None:
    fx = json.loads((site[1] / "fixtures" / "age-of-steam.build.json").read_text())
    fx["view"]["players"][0]["income"] = -2
    (site[1] / "fixtures" / "age-of-steam.in-debt.json").write_text(json.dumps(fx))
    page = harness("age-of-steam", "age-of-steam.in-debt")
    panel = page.inner_text("#panels [data-seat='0']")
    assert "\u2212$2" in panel
    assert "$-2" not in panel


# Where a place's name is against the board and the outline of its hex.
_NAME_AND_HEX = """([name, hex]) => {
  const text = [...document.querySelectorAll('#board text')].find((t) => t.textContent === name);
  const outline = document.querySelector(`#board [data-target="${hex}"]`);
  const board = document.querySelector('#board .as-sea').getBoundingClientRect();
  const r = text.getBoundingClientRect();
  return {
    inside: r.left >= board.left && r.right <= board.right,
    over: !!(outline.compareDocumentPosition(text) & Node.DOCUMENT_POSITION_FOLLOWING),
    touched: outline.classList.contains('bd-touched'),
  };
}"""


def test_an_age_of_steam_city_name_at_the_boards_edge_is_whole_and_above_its_hexs_outline(
    site: tuple[str, Path], harness: Any
) -> None:
    # St. Lucia's Anse La Raye, in the first column, just made a new city: its hex is the
    # last move's (a thick outline) and its name is wider than the hex.
    fx = json.loads((site[1] / "fixtures" / "age-of-steam-st-lucia.move_goods.json").read_text())
    fx["view"]["cities"].append(
        {"hex": "0,5", "name": "Anse La Raye", "color": "blue", "new_city": "C", "cubes": {}}
    )
    fx["touched"] = ["hex:0,5"]
    (site[1] / "fixtures" / "age-of-steam.edge-city.json").write_text(json.dumps(fx))
    page = harness("age-of-steam", "age-of-steam.edge-city")
    where = page.evaluate(_NAME_AND_HEX, ["Anse La Raye (C)", "hex:0,5"])
    assert where == {"inside": True, "over": True, "touched": True}
