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
