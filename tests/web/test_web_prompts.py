"""A decision's prompt as a person reads it: the views word prompts with place ids and the
names of the moves that answer them; the table says places by their printed names and
moves by their buttons' labels."""

from __future__ import annotations

from typing import Any

from web_table import play_one, start_match, state, wait_for_my_move

SENSIBLE = (r"^Issue 2 shares", r"^Drop out", r"^Take Locomotive", r"^Take")


def test_age_of_steam_build_prompt_names_the_done_building_button(
    server: str, open_page: Any
) -> None:
    player = open_page("player")
    match_id = start_match(player, server, "age-of-steam", 3)
    for _ in range(12):
        wait_for_my_move(player)
        if state(server, match_id)["view"]["decision"]["kind"] == "build":
            break
        play_one(player, by_board=False, prefer=SENSIBLE)
    else:
        raise AssertionError("no build decision of ours in 12 decisions")
    raw = state(server, match_id)["view"]["decision"]["prompt"]
    assert "done_building" in raw  # what the view says
    for where in (".status-line", ".panels"):
        text = player.locator(where).first.inner_text()
        assert "“Done building”" in text, text
        assert "done_building" not in text
    assert player.locator(".move-list button.move", has_text="Done building").count() == 1


def test_brass_prompts_name_places_and_answers_in_words(server: str, open_page: Any) -> None:
    page = open_page()
    page.goto(f"{server}/")
    said = page.evaluate(
        """async () => {
          const { promptInWords } = await import('/static/log.js');
          const names = { birmingham: 'Birmingham', walsall: 'Walsall', oxford: 'Oxford',
                          erie: 'Erie' };
          return [
            promptInWords('1 beer still needed to sell birmingham:0 to oxford:0: choose a brewery',
                          ['pick_beer'], names),
            promptInWords('1 coal still needed for birmingham~walsall: several mines are tied',
                          ['pick_coal'], names),
            promptInWords('add a second rail (£10 more) or finish with done',
                          ['second_link', 'done'], names),
            promptInWords('split the cubes of the new tile on erie:1 among the markets',
                          ['sell_produced'], names),
            promptInWords('choose an action (1 left this turn): build, sell or pass',
                          ['build', 'sell', 'pass'], names),
            promptInWords('the server runs this step: 2:30 unknown_place:3', [], names),
            promptInWords('choose a brewery (by its space) or the barrel (by the merchant space)',
                          ['pick_beer'], names),
            promptInWords('remove one of your industries (by space) for half its cost',
                          ['liquidate'], names),
            promptInWords('1 coal still needed for erie: choose where the next one comes from',
                          ['pay'], names),
            promptInWords('place a second link ($10 more) or finish: done',
                          ['second_link', 'done'], names),
          ];
        }"""
    )
    assert said == [
        "1 beer still needed to sell Birmingham 1 to Oxford 1: choose a brewery",
        "1 coal still needed for Birmingham\u2013Walsall: several mines are tied",
        "add a second rail (£10 more) or finish with “Done”",
        "split the cubes of the new tile on Erie 2 among the markets",
        # ordinary words that are also move types stay words
        "choose an action (1 left this turn): build, sell or pass",
        # an id the board does not name stays as it is
        "the server runs this step: 2:30 unknown_place:3",
        # the hints for programs of which field names the choice are left out
        "choose a brewery or the barrel",
        "remove one of your industries for half its cost",
        # a place named alone, by its id
        "1 coal still needed for Erie: choose where the next one comes from",
        "place a second link ($10 more) or finish: “Done”",
    ]
