"""Brass: Lancashire at the table: the distant market (its demand track, the marker, what a
sale there pays) is on the board and clickable as a sale's destination, and the supply line
says nothing of wild cards, which this game has none of."""

from __future__ import annotations

from typing import Any

from web_table import screenshot, start_match, state, wait_for_my_move


def test_the_distant_market_is_drawn_with_its_marker_and_is_a_sales_target(
    server: str, open_page: Any
) -> None:
    player = open_page("player")
    match_id = start_match(player, server, "brass-lancashire", 2)
    wait_for_my_move(player)
    dm = state(server, match_id)["view"]["distant_market"]
    market = player.locator("svg.board [data-target='market:distant_market']")
    assert market.count() == 1
    said = market.locator(":scope > title").text_content()
    assert f"pays +{dm['income']} income" in said
    assert f"{len(dm['tiles_left'])} demand tiles" in said
    # The marker's space is the one drawn dark, on the track of income spaces and X.
    cells = market.locator(".bd-demand-text").all_text_contents()
    assert cells == [*map(str, dm["income_spaces"]), "X"]
    marked = market.locator(".bd-demand-marker + .bd-demand-text").all_text_contents()
    assert marked == [cells[dm["marker"]]]
    supply = player.locator(".panels .bd-supply").first.inner_text()
    assert "?" not in supply and "wild" not in supply
    assert "Distant market:" in player.locator(".panels").inner_text()
    # A sale to it names that element, so clicking it narrows the list to such sales.
    targets = player.evaluate(
        """async () => (await import('/static/boards/brass-lancashire.js')).targetsOf(
             {type: 'sell', space: 'colne:0', to: 'distant_market'})"""
    )
    assert targets == ["colne:0", "market:distant_market"]
    screenshot(player, "brass-lancashire-table")
