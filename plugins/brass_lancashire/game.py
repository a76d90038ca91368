"""The Brass: Lancashire decider (implements :class:`core.game.Game`) and its entry point."""

from __future__ import annotations

from random import Random
from typing import Any

import msgspec

from core.hooks import hookimpl
from plugins.brass.engine_game import EngineGame
from plugins.brass.first_deal import FirstDeal
from plugins.brass_lancashire import bot, position, view
from plugins.brass_lancashire import events as ev
from plugins.brass_lancashire import moves as mv
from plugins.brass_lancashire.data import INDUSTRIES, Lancashire, lancashire
from plugins.brass_lancashire.variant import lancashire_variant

MOVE_FORM = (
    "sequential, by name (see CLIENTS.md): the first move names the action and its main "
    "choice; every choice left open comes next as its own decision (discard, pick_coal, "
    "pick_iron, second_link, sell_also, develop_also, done, liquidate), asked only when "
    "there is more than one; a distant-market sale waits for the server's draw_demand."
)


class Options(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Brass: Lancashire has no match options (the 2018 standard game, 2 to 4 players)."""


class SetupOutcome(FirstDeal, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The first deal and turn order (``facedown``: the cards under the Deck tile)."""


class BrassLancashire(EngineGame):
    id = "brass-lancashire"
    title = "Brass: Lancashire"
    rules_version = "1"
    Options = Options
    SetupOutcome = SetupOutcome
    Move = mv.Move
    Event = ev.Event
    View = view.ViewDoc
    LogPayloads = view.PAYLOADS
    docs, positions = view, position
    market_industries = INDUSTRIES
    metadata: dict[str, Any] = {
        "family": "brass",
        "move_form": MOVE_FORM,
        "data": "Roxley 2018 edition from the shared reference; provisional facts are listed "
        "in 'provisional' (plugins/brass_lancashire/data/README.md)",
        "position_format": position.FORMAT,
        "hidden_information": True,
        "clients": "plugins/brass_lancashire/CLIENTS.md",
        "conformance": {"playouts": 1},
    }

    def __init__(self, data: Lancashire | None = None) -> None:
        self.data = d = data or lancashire()
        self.variant = self.v = lancashire_variant(d)
        self.names = self.v.names
        self.bot = bot.LancashireBot(d, self.v.era_points)
        self.evaluation = self.bot.evaluation
        board = view.board(d, self.names, self.v.develop_payment)
        self.metadata = {**type(self).metadata, "board": board,
                         "provisional": msgspec.to_builtins(d.provisional())}  # fmt: skip

    def setup(self, options: Options, players: int, rng: Random,
              outcome: SetupOutcome | None = None) -> list[Any]:  # fmt: skip
        """The first deal (the Deck tile's cards face down, unused in the Canal Era) and
        turn order: ``outcome`` when a record gives them, else drawn from ``rng``."""
        deal = self.first_deal(players, self.data.under_deck_tile[0], rng, outcome)
        return [ev.Started(players, *deal)]


@hookimpl
def ironworks_games() -> list[BrassLancashire]:
    return [BrassLancashire()]
