"""The lobby and the table on a phone-sized screen: everything within the width, nothing
reached only by scrolling sideways."""

from __future__ import annotations

from typing import Any

import pytest
from web_table import screenshot, start_match

PHONE = {"width": 390, "height": 844}

WIDER_THAN_THE_SCREEN = """() => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)"""


@pytest.mark.parametrize(
    ("game", "players", "part"),
    [
        ("brass-birmingham", 2, ".table-bar select"),  # the seat switch is in the top bar
        ("age-of-steam", 3, ".replay-bar .slider"),  # no hidden information: replays live
    ],
)
def test_a_players_table_fits_a_phone_screen_without_scrolling_sideways(
    server: str, open_page: Any, game: str, players: int, part: str
) -> None:
    page = open_page("phone")
    page.set_viewport_size(PHONE)
    start_match(page, server, game, players)
    page.wait_for_selector(part)
    assert page.evaluate(WIDER_THAN_THE_SCREEN) == []
    screenshot(page, f"table-phone-{game}")


def test_a_long_move_list_scrolls_in_its_card_on_a_phone(server: str, open_page: Any) -> None:
    page = open_page("phone")
    page.set_viewport_size(PHONE)
    start_match(page, server, "brass-birmingham", 2)
    page.wait_for_selector(".table-page[data-mine='true'] .turn-card .move-list")
    assert page.locator(".turn-card .move-list button.move").count() > 20
    card = page.locator(".turn-card").bounding_box()
    assert card is not None and card["height"] <= 0.8 * PHONE["height"]
    # the last entry is reached by scrolling the card
    last = page.locator(".turn-card .move-list button.move").last
    last.scroll_into_view_if_needed()
    assert last.is_visible()
