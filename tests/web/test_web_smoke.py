"""First, that Debian's chromium starts under this playwright and shows the lobby: a version
drift between the two shows here before any game test."""

from __future__ import annotations

from typing import Any

from web_table import screenshot


def test_chromium_opens_the_lobby_and_takes_a_screenshot(server: str, open_page: Any) -> None:
    page = open_page("lobby")
    page.goto(f"{server}/")
    page.wait_for_selector(".new-match form")
    assert page.title() == "ironworks"
    games = page.locator("#new-game option").all_inner_texts()
    assert {"Brass: Birmingham", "Brass: Pittsburgh", "Age of Steam"} <= set(games)
    path = screenshot(page, "lobby")
    assert path.stat().st_size > 10_000


def test_docs_render_offline_from_local_files(server: str, open_page: Any) -> None:
    page = open_page("docs")
    remote: list[str] = []
    page.on("request", lambda r: r.url.startswith(server) or remote.append(r.url))
    page.goto(f"{server}/docs")
    page.wait_for_selector(".swagger-ui .opblock-tag")
    assert "createMatch" in page.content() or page.locator("text=/matches").count()
    assert remote == []


# Elements of the new-match card that reach past its right edge.
_PAST_THE_CARD = """() => {
  const card = document.querySelector('.new-match').getBoundingClientRect();
  return [...document.querySelectorAll('.new-match *')]
    .filter((e) => e.getBoundingClientRect().right > card.right + 0.5)
    .map((e) => `${e.tagName.toLowerCase()}.${e.className}`);
}"""


def test_the_new_match_form_stays_inside_its_card_for_every_game(
    server: str, open_page: Any
) -> None:
    page = open_page("lobby")
    page.goto(f"{server}/")
    page.wait_for_selector(".new-match form select[name='seat-1']")
    for game in page.locator("#new-game option").evaluate_all("os => os.map(o => o.value)"):
        page.select_option("#new-game", game)
        page.wait_for_selector(".new-match form select[name='seat-1']")
        assert page.evaluate(_PAST_THE_CARD) == [], game


def test_the_map_choices_say_their_player_counts_in_words(server: str, open_page: Any) -> None:
    page = open_page("lobby")
    page.goto(f"{server}/")
    page.wait_for_selector("#new-game")
    page.select_option("#new-game", "age-of-steam")
    labels = page.eval_on_selector("select[name='map']", "s => [...s.options].map(o => o.text)")
    assert "Barbados (1 player)" in labels
    assert "St. Lucia (2 players)" in labels
    assert "Rust Belt (3\u20136 players)" in labels
