"""The greedy and search bots play Lancashire through its view and the family bot: they
finish games with the scores and income of real play, and greedy beats random."""

from __future__ import annotations

from random import Random

import pytest
from bl_helpers import GAME, load

from core.registry import GameRegistry
from plugins.brass_lancashire import game as plugin
from plugins.brass_lancashire import moves as mv
from tests.brass_bot_checks import greedy_self_play, played


@pytest.fixture(scope="module")
def registry() -> GameRegistry:
    reg = GameRegistry()
    reg.register(plugin, name="brass-lancashire")
    return reg


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_self_play_scores_like_real_play(players: int) -> None:
    games = [greedy_self_play(GAME, players, seed) for seed in range(3)]
    scores = [x for game in games for x in game.scores]
    # a seat that sinks to negative income with no money can still spiral (the family
    # bot takes loans only for a build it plans): judged over the games, not seat by seat
    assert sum(scores) / len(scores) >= 40, scores
    for game in games:
        assert max(game.scores) >= 55 and sorted(game.income_levels)[-1] >= 8, game
        sales = sum(m["sell"] + m["sell_also"] for m in game.moves)
        assert sales >= 2, "cotton is sold through ports or to the distant market"
        assert sum(m["build"] + m["network"] for m in game.moves) >= 15 * players


ACTIONS = ("build", "double_build", "network", "develop", "sell", "loan", "pass")


@pytest.mark.parametrize("seed", [106, 145, 73])
def test_greedy_never_passes_a_whole_era_when_it_can_build(seed: int) -> None:
    # these seeds once saw greedy build ports for no cotton, borrow, go broke on negative
    # income and pass 15-19 of its 39 actions (1-21 VP): now it builds its way through
    greedy = seed % 2
    game = greedy_self_play(GAME, 2, seed, random_seats=frozenset({1 - greedy}))
    moves = game.moves[greedy]
    assert moves["pass"] <= 0.1 * sum(moves[a] for a in ACTIONS), moves
    assert game.scores[greedy] >= game.scores[1 - greedy] + 25, game.scores


def test_greedy_beats_random(registry: GameRegistry) -> None:
    wins = 0
    for seed in range(4):
        scores = played(registry, "brass-lancashire", ["greedy", "random"], f"bl-{seed}")
        wins += scores[0] > scores[1]
    assert wins >= 3


def test_search_bot_finishes_a_match_and_beats_random(registry: GameRegistry) -> None:
    from core.service import MatchService
    from core.store.memory import MemoryStore
    from worker.inprocess import InlineRunner

    runner = InlineRunner()
    service = MatchService(MemoryStore(), registry, runner)
    runner.bind(service)
    match = service.create_match("brass-lancashire", 2, seed="bl-search")
    # time enough for the level's 60 iterations, which then bound the search: the match
    # is the same on a slow machine (shorter searches rank too few playouts to avoid debt)
    service.hand_to_bot(match.match_id, 0, "search", None, level="easy", think_ms=3000)
    service.hand_to_bot(match.match_id, 1, "random", None)
    result = service.result(service.load(match.match_id))
    assert result is not None and result.scores[0] >= 40 and result.ranking == [1, 2], result


def test_the_bot_weighs_a_double_build_only_without_a_single_build() -> None:
    hand = ["coal", "iron", "port", "shipyard", "wigan", "bolton", "bury", "oldham"]
    s = load(hands={0: hand})
    legal = GAME.legal_moves(s, 0)
    assert any(type(m) is mv.DoubleBuild for m in legal)
    choice = GAME.bot_policy(GAME.view(s, 0), legal, Random(0))
    assert choice in legal and type(choice) is not mv.DoubleBuild


def test_evaluate_is_worth_the_final_scores_once_the_game_is_over() -> None:
    from random import Random as R

    from core.playout import playout

    state, _ = playout(GAME, GAME.Options(), 2, R(3))
    assert GAME.evaluate(state) == [float(v) for v in state.vp]


def test_evaluate_counts_a_shipyard_still_paying_for_its_build_as_flipping() -> None:
    from bl_helpers import act

    tiles = [
        {"space": "wigan:0", "owner": 0, "industry": "coal", "level": 2, "cubes": 1},
        {"space": "wigan:1", "owner": 1, "industry": "coal", "level": 2, "cubes": 1},
        {"space": "liverpool:0", "owner": 1, "industry": "port", "level": 1},
    ]
    links = [{"link": "liverpool~wigan", "owner": 0}]
    s = load(hands={0: ["liverpool"] * 2}, tiles=tiles, links=links,
             mat=[{"shipyard": 2}, {}, {}, {}])  # fmt: skip
    s, _ = act(s, 0, mv.Build("location:liverpool", "liverpool:2", "shipyard"))
    assert s.pending[0].kind == "coal"  # two tied mines: the build waits for a choice
    assert all(isinstance(x, float) for x in GAME.evaluate(s))


def test_the_bot_sees_unflipped_ports_and_the_open_distant_market_as_cotton_buyers() -> None:
    tiles = [
        {"space": "liverpool:0", "owner": 1, "industry": "port", "level": 1},
        {"space": "bolton:0", "owner": 0, "industry": "cotton", "level": 1},
    ]
    s = load(tiles=tiles)
    shown = GAME.bot.shown_view(GAME.view(s, 0))["merchants"]
    buyers = {(m["merchant"], m["location"]): m["buys"] for m in shown}
    assert buyers[("liverpool:0", "liverpool")] == ["cotton"]
    assert buyers[("bolton:0", "bolton")] == ["port"]  # an unsold mill flips a port
    assert ("distant_market", "scotland") in buyers
    assert all(not m["beer"] for m in shown)


def test_a_mill_joined_to_an_unflipped_port_buys_no_second_port() -> None:
    tiles = [
        {"space": "liverpool:0", "owner": 1, "industry": "port", "level": 1},
        {"space": "preston:0", "owner": 0, "industry": "cotton", "level": 1},
        {"space": "bolton:0", "owner": 0, "industry": "cotton", "level": 1},
    ]
    links = [{"link": "liverpool~wigan", "owner": 0}, {"link": "preston~wigan", "owner": 1}]
    s = load(tiles=tiles, links=links)
    shown = GAME.bot.shown_view(GAME.view(s, 0))["merchants"]
    port_buyers = {m["merchant"] for m in shown if m["buys"] == ["port"]}
    assert port_buyers == {"bolton:0"}  # the port serves Preston's mill; one sale flips one


def test_the_bot_reads_a_sale_through_a_port_as_a_sale_to_that_merchant() -> None:
    shown = GAME.bot.shown_move(mv.Sell("bolton:0", "liverpool:0"))
    assert (shown.__struct_config__.tag, shown.space, shown.merchant) == (
        "sell", "bolton:0", "liverpool:0")  # fmt: skip
