"""The Brass: Birmingham decider (implements :class:`core.game.Game`)."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any

import msgspec

from plugins.brass import bot
from plugins.brass.board_bot import BoardBot
from plugins.brass.engine_game import EngineGame
from plugins.brass.first_deal import FirstDeal, first_deal_fields, tiles_on_spaces
from plugins.brass_birmingham import bot as bb
from plugins.brass_birmingham import events as ev
from plugins.brass_birmingham import moves as mv
from plugins.brass_birmingham import position, view
from plugins.brass_birmingham.data import INDUSTRIES, Birmingham, birmingham
from plugins.brass_birmingham.names import Names, shipped_names
from plugins.brass_birmingham.state import State
from plugins.brass_birmingham.variant import BirminghamVariant, birmingham_variant

MOVE_FORM = (
    "sequential, by name (see CLIENTS.md): an action's first move names the action and its "
    "main choice (build: card, space, industry; network: link; develop: industry; sell: "
    "space and merchant; loan, scout and pass nothing). Every choice the rules leave open "
    "then comes as its own decision, asked only when there is more than one option, and the "
    "view's 'decision' says which: discard (the card paying for a non-build action; three "
    "for scout), pick_coal among tied nearest mines, pick_iron among works, pick_beer among "
    "breweries and the merchant's barrel, then the optional continuations second_link, "
    "sell_also, develop_also, free_develop or done. At round end a seat short of money for "
    "negative income chooses liquidate, one industry at a time."
)
CLIENTS_GUIDE = "plugins/brass_birmingham/CLIENTS.md"


class Options(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """Brass: Birmingham has no match options yet (the full game, 2 to 4 players)."""


class SetupOutcome(FirstDeal, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The setup's draws (a record's ``setup``): the first deal and turn order, and the
    merchant tiles."""

    merchants: list[str | None]
    """Per merchant space in board order (as the view's ``merchants``), its tile
    (``mt_cotton_a``...), or null on a space this player count leaves empty."""


class BrassBirmingham(EngineGame):
    id = "brass-birmingham"
    title = "Brass: Birmingham"
    rules_version = "2"
    """2: each player has 14 link tiles (version 1 had no limit); events mean the same."""
    Options = Options
    SetupOutcome = SetupOutcome
    Move = mv.Move
    Event = ev.Event
    View = view.ViewDoc  # what view() returns, for the OpenAPI document
    LogPayloads = view.PAYLOADS  # what redact() serves per event type, likewise
    docs, positions = view, position
    market_industries = INDUSTRIES
    metadata: dict[str, Any] = {
        "family": "brass",
        "move_form": MOVE_FORM,
        "data": "Roxley 2018 edition: tile values per the rule text's tables (Manufacturer IV "
        "£8), board, cards, merchants, markets and income track from the shared reference; "
        "provisional facts are listed in 'provisional' (plugins/brass_birmingham/data/README.md)",
        "position_format": position.FORMAT,
        "hidden_information": True,
        "clients": CLIENTS_GUIDE,
    }

    def __init__(self, data: Birmingham | None = None) -> None:
        self.data = data or birmingham()
        self.names = Names(data) if data else shipped_names()
        self.variant = BirminghamVariant(data, self.names) if data else birmingham_variant(
            self.data)  # fmt: skip
        self.knowledge = bb.knowledge_of(data) if data else bb.knowledge()
        self.bot = BoardBot(self.data, self.knowledge)
        self.evaluation = bb.evaluation(self.data)
        # the static board, by the ids moves and views use, and the data's doubtful facts,
        # for GET /games
        board = view.board(self.data, self.names, self.variant.develop_payment)
        self.metadata = {**type(self).metadata, "board": board,
                         "provisional": msgspec.to_builtins(self.data.provisional())}  # fmt: skip

    # --- the decider ----------------------------------------------------------------------

    def setup(
        self, options: Options, players: int, rng: Random, outcome: SetupOutcome | None = None
    ) -> list[Any]:
        """The first deal, turn order and merchant tiles: ``outcome`` when a record gives
        them (refused with an ``IllegalMove`` if the shuffle cannot give them), else drawn
        from ``rng``."""
        d = self.data
        deal = self.first_deal(players, d.rules.face_down_discards, rng, outcome)
        if outcome is not None:
            merchants = self._merchant_tiles(outcome.merchants, players)
        else:
            tiles = [i for i, t in enumerate(d.merchant_tiles) if t.min_players <= players]
            rng.shuffle(tiles)
            merchants = [tiles.pop() if m <= players else -1 for m in d.merchant_min_players]
        return [ev.Started(players, *deal, merchants)]

    def _merchant_tiles(self, tiles: list[str | None], players: int) -> list[int]:
        """Merchant tile indices per space from a setup outcome's tile ids."""
        d = self.data
        ids = {t.id: i for i, t in enumerate(d.merchant_tiles) if t.min_players <= players}
        used = [m <= players for m in d.merchant_min_players]
        tiles = tiles_on_spaces(tiles, used, list(ids), "merchant tile", "merchant_tiles")
        return [-1 if t is None else ids[t] for t in tiles]

    def setup_outcome(self, events: Sequence[Any]) -> SetupOutcome:
        """The chance hook of ``setup``: the outcome its ``Started`` event dealt."""
        started = events[0]
        return SetupOutcome(
            **first_deal_fields(self.names.card, started),
            merchants=[None if t < 0 else self.data.merchant_tiles[t].id
                       for t in started.merchants],
        )  # fmt: skip

    # --- bots -----------------------------------------------------------------------------

    def playout_view(self, state: State, seat: int) -> dict[str, Any]:
        """The part of ``seat``'s view the greedy bot reads, for the search's playouts."""
        return bb.bot_view(self.data, self.names, state, seat)

    def quick_follow_up(self, state: State, seat: int, legal: list[Any], rng: Random) -> Any:
        facts = bb.follow_up_facts(self.data, self.names, state, seat)
        return bot.quick_follow_up(facts, legal, rng, self.knowledge)
