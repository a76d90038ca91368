"""The Brass: Pittsburgh decider (implements :class:`core.game.Game`): the family's
:class:`~plugins.brass.engine_game.EngineGame` over :class:`.variant.PittsburghVariant`
(``decide`` and ``evolve`` are the family's), the data's provenance in ``metadata``.

Its own: the setup's tiles and board side, ``legal_moves`` in the named form (an
action's first moves read from the side's named move tables, a step's answers named from
the engine's listing, :mod:`.engine`), a log read by the match's side, the bot's facts
per side, and the face-down oilfield tiles ``sample_hidden`` redraws."""

from __future__ import annotations

from collections.abc import Sequence
from random import Random
from typing import Any, Literal

import msgspec

from core.errors import BadRequest, IllegalMove
from plugins.brass import bot
from plugins.brass.cards import build_deck
from plugins.brass.engine_game import EngineGame
from plugins.brass.first_deal import FirstDeal, first_deal, first_deal_fields, tiles_on_spaces
from plugins.brass.hidden import deal
from plugins.brass.knowledge import Knowledge
from plugins.brass.scoring import TieBreak
from plugins.brass_pittsburgh import engine, evaluation, knowledge, position, view
from plugins.brass_pittsburgh import events as ev
from plugins.brass_pittsburgh import moves as mv
from plugins.brass_pittsburgh.bot_view import bot_view, follow_up_facts
from plugins.brass_pittsburgh.cube_costs import cube_costs
from plugins.brass_pittsburgh.names import Names, shipped_names
from plugins.brass_pittsburgh.rules import Rules, default_rules
from plugins.brass_pittsburgh.state import PLAY, State

MOVE_FORM = (
    "sequential, by name (see CLIENTS.md): an action's first move names the action and its "
    "main choice (build: card, mat tile and industry space or oilfield, or whiskey instead "
    "of the card; network: link tile and line or pipeline route; develop: mat tile; sell: "
    "industry space and merchant space; loan and pass nothing). Every further choice the "
    "rules leave open comes as its own decision, asked only when there is more than one "
    "option, and the view's 'decision' says which: discard (the card paying for a non-build "
    "action or a whiskey build), pay (where each cube or barrel comes from), sell_produced "
    "(how a new tile's cubes are split among connected markets), the optional second_link, "
    "develop_also, sell_also, free_develop, bonus_sell and claim_quality, or done. Era "
    "scoring is the system move score_era."
)
CLIENTS_GUIDE = "plugins/brass_pittsburgh/CLIENTS.md"
SIDE_UNKNOWN = "main"
"""The board side a log reader without the match assumes (see :meth:`redact`)."""


BoardSide = Literal["main", "two_player"]
"""The board sides of the data set (a test keeps this list equal to ``board_sides.json``),
spelled out so the options schema lists them and validation refuses any other."""


class Options(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    board_side: BoardSide | None = None
    """``None``: the side marked for the player count (the 2-player side for 2). ``"main"``
    plays 2 players on the 2-4 player side, as the rulebook allows."""


class SetupOutcome(FirstDeal, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """The setup's draws (a record's ``setup``): the first deal and turn order, and the
    tiles drawn face down or face up."""

    merchant_tiles: list[str | None]
    """Per merchant space of the board side, in the board's order: its tile, or null on a
    space this player count leaves empty."""
    oilfield_tiles: list[str | None]
    """Per oilfield of the board side, in the board's order: its face-down tile, or null
    on an oilfield not in play."""
    quality_rewards: list[str]
    """The Quality Rewards tiles drawn face up, in space order."""


class BrassPittsburgh(EngineGame):
    id = "brass-pittsburgh"
    title = "Brass: Pittsburgh"
    rules_version = "1"
    Options = Options
    SetupOutcome = SetupOutcome
    Move = mv.Move
    Event = ev.Event
    View = view.ViewDoc  # what view() returns, for the OpenAPI document
    LogPayloads = view.PAYLOADS  # what redact() serves per event type, likewise
    docs, positions = view, position

    def __init__(self, rules: Rules | None = None) -> None:
        self.rules = self.data = rules or default_rules()  # views and positions take the rules
        self.names = Names(rules) if rules else shipped_names()
        self.variant = self.rules.variant
        data = self.rules.data
        self.evaluation = evaluation.Evaluation(self.rules)
        # Per instance: the data version shown to users is the one actually loaded.
        self.metadata: dict[str, Any] = {
            "family": "brass",
            "provisional": data.manifest.provisional,
            "data_version": data.version,
            "data_status": data.manifest.status,
            "hidden_information": True,
            "position_format": position.FORMAT,
            "move_form": MOVE_FORM,
            "clients": CLIENTS_GUIDE,
            # the static board, by the ids moves and views use, for GET /games
            "board": view.board(self.rules, self.names),
            # Random playouts are long (hundreds of decisions): probe fewer states.
            "conformance": {"playouts": 1, "states_per_playout": 25, "moves_per_state": 8},
        }

    # --- the decider ----------------------------------------------------------------------

    def setup(
        self, options: Options, players: int, rng: Random, outcome: SetupOutcome | None = None
    ) -> list[Any]:
        """The first deal, turn order, merchant, oilfield and Quality Rewards tiles:
        ``outcome`` when a record gives them (refused with an ``IllegalMove`` if the
        shuffles cannot give them), else drawn from ``rng``."""
        r, d = self.rules, self.rules.data
        try:
            side = r.side_for(players, options.board_side)
        except ValueError as exc:
            raise BadRequest("bad_options", str(exc)) from None
        c = d.constants
        if outcome is not None:
            return [self._dealt(outcome, side, players)]
        deck = build_deck(r.deck_copies(side, players))
        rng.shuffle(deck)
        merchant_used, merchants, oilfield_used, oil_tiles = self._in_play(side, players)
        rng.shuffle(merchants)
        merchant_tiles = [merchants.pop() if used else "" for used in merchant_used]
        rng.shuffle(oil_tiles)
        oilfield_tiles = [oil_tiles.pop() if used else "" for used in oilfield_used]
        rewards = list(d.quality_rewards)
        rng.shuffle(rewards)
        hands, facedown = deal(deck, players, c.hand_size, c.extra_face_down_discard_era1)
        order = list(range(players))
        rng.shuffle(order)
        return [ev.Started(
            players=players, side=side, data_version=d.version, order=order, deck=deck,
            hands=hands, facedown=facedown, merchant_tiles=merchant_tiles,
            oilfield_tiles=oilfield_tiles, quality_rewards=rewards[: c.quality_reward_spaces],
        )]  # fmt: skip

    def _dealt(self, outcome: SetupOutcome, side: str, players: int) -> ev.Started:
        """The ``Started`` event dealing a record's setup ``outcome``, checked."""
        r, d = self.rules, self.rules.data
        c = d.constants
        order, deck, hands, facedown = first_deal(
            self.names.card, r.deck_copies(side, players), outcome, players, c.hand_size,
            c.extra_face_down_discard_era1,
        )  # fmt: skip
        merchant_used, merchant_tiles, oilfield_used, oil_tiles = self._in_play(side, players)
        merchants = tiles_on_spaces(outcome.merchant_tiles, merchant_used, merchant_tiles,
                                    "merchant tile", "merchant_tiles")  # fmt: skip
        oilfields = tiles_on_spaces(outcome.oilfield_tiles, oilfield_used, oil_tiles,
                                    "oilfield tile", "oilfield_tiles")  # fmt: skip
        spaces = c.quality_reward_spaces
        rewards = outcome.quality_rewards
        if (
            len(rewards) != spaces
            or len(set(rewards)) != spaces
            or not set(rewards) <= set(d.quality_rewards)
        ):
            raise IllegalMove(
                "quality_rewards",
                f"a setup draws {spaces} different Quality Rewards tiles of "
                f"{', '.join(sorted(d.quality_rewards))}, not {rewards}",
            )
        return ev.Started(
            players=players, side=side, data_version=d.version, order=order, deck=deck,
            hands=hands, facedown=facedown,
            merchant_tiles=[t or "" for t in merchants],
            oilfield_tiles=[t or "" for t in oilfields], quality_rewards=list(rewards),
        )  # fmt: skip

    def _in_play(
        self, side: str, players: int
    ) -> tuple[list[bool], list[str], list[bool], list[str]]:
        """Whether ``players`` use each merchant space of ``side``, the merchant tiles of
        that count, whether they use each oilfield, and the oilfield tiles of that count (2
        players: the $15 merchant and the 3-oil oilfield tile stay in the box)."""
        d, board = self.rules.data, self.rules.board_of(side)
        return (
            [least <= players for _, least in board.merchant_spaces],
            [t.id for t in d.merchant_tiles.values() if t.min_players <= players],
            [o.min_players <= players for o in board.side.oilfields.values()],
            [t for t in board.side.oilfield_tile_display
             if d.oilfield_tiles[t].min_players <= players],
        )  # fmt: skip

    def setup_outcome(self, events: Sequence[Any]) -> SetupOutcome:
        """The chance hook of ``setup``: the outcome its ``Started`` event dealt."""
        started = events[0]
        return SetupOutcome(
            **first_deal_fields(self.names.card, started),
            merchant_tiles=[t or None for t in started.merchant_tiles],
            oilfield_tiles=[t or None for t in started.oilfield_tiles],
            quality_rewards=list(started.quality_rewards),
        )

    def position_options(self, state: State) -> Options:
        """The options a position plays with: its board side."""
        return Options(board_side=state.side)  # type: ignore[arg-type]

    def legal_moves(self, state: State, seat: int) -> list[Any]:
        if state.phase != PLAY or seat != state.current:
            return []
        # An action's first moves, and the answers of the steps listed most, come named
        # from the side's named move tables; the other steps' answers are named here.
        tables = self.names.sides[state.side].tables
        if not state.pending:
            return engine.action_moves(self.rules, state, seat, tables)
        found = tables.answers(self.variant, state, seat)
        if found is None:
            found = self.names.encode_all(engine.step_options(self.rules, state, seat), state)
        return found

    def tie_breaks(self, state: State) -> list[TieBreak]:
        return [TieBreak("income_space", "income track space", state.income),
                TieBreak("money", "money", state.money)]  # fmt: skip

    # --- what a seat may see --------------------------------------------------------------

    def prices(self, state: State, seat: int | None) -> dict[str, Any]:
        """The seat to act's cube prices (``cube_costs``: every cube a move needs paid the
        cheapest way, markets' and Vanderbilt's included)."""
        found = cube_costs(self.rules, self.names, state, seat)
        return {} if found is None else {"cube_costs": msgspec.to_builtins(found)}

    def redact(self, event: Any, seat: int | None) -> dict[str, Any]:
        """Event ``event`` as ``seat`` may read it. Board ids depend on the side in play,
        which an event alone does not tell: the service reads the log through
        :meth:`redact_in_match`; a reader without the match gets the main side's ids."""
        side = event.side if isinstance(event, ev.Started) else SIDE_UNKNOWN
        return view.redact(self.rules, self.names, side, event, seat)

    def redact_in_match(self, state: State, event: Any, seat: int | None) -> dict[str, Any]:
        """:meth:`redact` for an event of the match now in ``state`` (its board side)."""
        return view.redact(self.rules, self.names, state.side, event, seat, state.quality_rewards)

    def bot_policy(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
        """The greedy bot's choice among ``legal``, from the seat's view alone."""
        return bot.choose(view, legal, rng, self.knowledge(view["side"]))

    def playout_view(self, state: State, seat: int) -> dict[str, Any]:
        """The part of ``seat``'s view the greedy bot reads, for the search's playouts."""
        return bot_view(self.rules, self.names, state, seat)

    def quick_follow_up(self, state: State, seat: int, legal: list[Any], rng: Random) -> Any:
        k = self.knowledge(state.side)
        facts = follow_up_facts(self.rules, self.names, state, seat, k)
        return bot.quick_follow_up(facts, legal, rng, k)

    def knowledge(self, side: str) -> Knowledge:
        """The printed facts of board ``side`` the greedy bot weighs views against."""
        return knowledge.knowledge_of(self.rules, side)

    # --- positions ------------------------------------------------------------------------

    def load_position(self, doc: dict[str, Any]) -> State:
        return position.load(self.rules, doc)

    def sample_hidden(self, state: State, seat: int, rng: Random) -> State:
        """Redraw what ``seat`` cannot see: the deck order, other hands, every face-down
        discard, and which face-down oilfield tile lies where."""
        new = super().sample_hidden(state, seat, rng)
        hidden = [f for f, t in enumerate(new.oilfield_tile) if t and not new.oilfield_revealed[f]]
        tiles = [new.oilfield_tile[f] for f in hidden]
        rng.shuffle(tiles)
        for f, t in zip(hidden, tiles, strict=True):
            new.oilfield_tile[f] = t
        return new
