"""The lobby and the table on a phone-sized screen: everything within the width, nothing
reached only by scrolling sideways."""

from __future__ import annotations

from typing import Any

from web_table import screenshot, start_match

PHONE = {"width": 390, "height": 844}

WIDER_THAN_THE_SCREEN = """() => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > document.documentElement.clientWidth + 1)
  .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)"""


def test_a_players_table_fits_a_phone_screen_without_scrolling_sideways(
    server: str, open_page: Any
) -> None:
    page = open_page("phone")
    page.set_viewport_size(PHONE)
    start_match(page, server, "brass-birmingham", 2)  # the seat switch is in the top bar
    page.wait_for_selector(".table-bar select")
    assert page.evaluate(WIDER_THAN_THE_SCREEN) == []
    screenshot(page, "table-phone")
