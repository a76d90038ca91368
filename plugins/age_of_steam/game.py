"""The Age of Steam decider: setup, the ten steps of a turn, scoring.

See the package docstring for the move form. Every player move is validated by
:meth:`AgeOfSteam._refusal` (turn, phase and the step's own rules) and, for track and goods,
by :func:`track.evaluate` and :func:`goods.walk_good`; ``legal_moves`` lists candidates
and keeps exactly those these same functions accept.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from random import Random
from typing import Any, Literal

import msgspec

from core.errors import BadRequest, IllegalMove
from core.game import SYSTEM, Result, Task
from core.resignation import with_resignations
from plugins.age_of_steam import bot, flow, log, lookahead, playout_policy, position
from plugins.age_of_steam import events as ev
from plugins.age_of_steam import moves as mv
from plugins.age_of_steam import view as client_view
from plugins.age_of_steam.data import MAPS, Board, board
from plugins.age_of_steam.goods import income_by_owner, legal_delivery_moves, walk_good
from plugins.age_of_steam.rules import (
    FIRST_PLACE_FEE,
    MAX_ENGINE,
    MAX_SHARES,
    auction_payments,
    draw,
    final_scores,
    income_reduction,
    ranking,
)
from plugins.age_of_steam.setup_outcome import SetupOutcome, outcome_of, started
from plugins.age_of_steam.state import State
from plugins.age_of_steam.track import Plan, Refusal, legal_build_moves, network, plan

SYSTEM_PHASES = {"settle": mv.Settle(), "growth": mv.GrowGoods()}


class Options(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    map: Literal["rust_belt", "barbados", "st_lucia"] = "rust_belt"
    """Rust Belt (3-6 players), Barbados (1 player) or St. Lucia (2 players)."""
    barbados_easy: bool = False
    """Barbados' easier setup: 2 cubes on each city instead of 1."""
    st_lucia_turn_order_action: bool = True
    """St. Lucia: keep the Turn Order action (Deluxe rulebook: its taker decides first on
    buying the first place next turn); ``False`` follows the map sheet, which removes it."""
    st_lucia_first_section_income: Literal[1, 2] = 1
    """St. Lucia: income for the stretch of track a good starts on (1 = it counts as one
    link, as the Deluxe text reads; 2 = one link plus the map sheet's extra $1)."""


MAP_OPTIONS: dict[str, str] = {
    "barbados_easy": "barbados",
    "st_lucia_turn_order_action": "st_lucia",
    "st_lucia_first_section_income": "st_lucia",
}
"""The map each map-specific option belongs to; on another map it must keep its default."""


def _map_players() -> dict[str, dict[str, Any]]:
    """Per map: its title, player range and the options that apply to it (metadata)."""
    return {
        m: {
            "title": board(m).spec.title,
            "min_players": board(m).spec.min_players,
            "max_players": board(m).spec.max_players,
            "options": [name for name, on in MAP_OPTIONS.items() if on == m],
        }
        for m in MAPS
    }


def _check_map_fits(options: Options, players: int) -> None:
    """Refuse a player count the map does not take, or an option of another map, with a
    sentence saying what would work."""
    spec = board(options.map).spec
    if not spec.min_players <= players <= spec.max_players:
        others = " or ".join(f"{m} for {board(m).spec.players()}" for m in MAPS if m != options.map)
        raise BadRequest("bad_player_count", f"{spec.takes()}, not {players}; choose map {others}")
    defaults = Options(map=options.map)
    foreign = [
        name
        for name, on in MAP_OPTIONS.items()
        if on != options.map and getattr(options, name) != getattr(defaults, name)
    ]
    if foreign:
        owners = sorted({MAP_OPTIONS[name] for name in foreign})
        raise BadRequest(
            "bad_options",
            f"{spec.title} (map {options.map}) has no option {', '.join(foreign)}: "
            f"{'it is' if len(foreign) == 1 else 'they are'} for map {' and '.join(owners)}",
        )


def _refuse(r: Refusal) -> IllegalMove:
    return IllegalMove(r.code, r.message)


class AgeOfSteam:
    id = "age-of-steam"
    title = "Age of Steam"
    rules_version = "1"
    min_players = 1
    max_players = 6
    Options = Options
    SetupOutcome = SetupOutcome
    Move = mv.Move
    Event = ev.Event
    View = client_view.ViewDoc  # what view() returns, for the OpenAPI document
    LogPayloads = log.FORMS  # what redact() serves per event type, likewise
    # The search bot's playouts use a rule-of-thumb policy far weaker than the greedy bot's
    # economy simulation: it should leave greedy's pick only for a clearly better move
    # (measured on Rust Belt 4p: 1 win in 6 against greedy at 0.02, 3 in 4 at 0.1).
    search_anchor_bonus = 0.1
    metadata: dict[str, Any] = {
        # Per map: player range and the map-specific options; Options.map picks one.
        "maps": _map_players(),
        "move_form": (
            "one decision per move: issue_shares(count) once per turn; bid/drop_out/"
            "turn_order_pass; select_action; build one tile per move (col,row,tile,rotation "
            "= smallest rotation giving the picture) then done_building; urbanize before "
            "building; move_good as a full path (one side per link); raise_engine or "
            "pass_move; place_cube per Production cube"
        ),
        "ties": "shared: the rule text says ties are possible and names no tie-break",
        "data": "plugins/age_of_steam/data/*.json (facts from shared/reference)",
        "hidden_information": False,
        # The default map, Rust Belt, takes 3-6 players; the small maps have their own tests.
        "conformance": {"players": [3, 4, 6]},
        "clients": "plugins/age_of_steam/CLIENTS.md",
        # Static map and tile data by the names the moves use, for drawing the board.
        "board": client_view.board_metadata(),
    }

    # --- setup -----------------------------------------------------------------------------

    def setup(
        self, options: Options, players: int, rng: Random, outcome: SetupOutcome | None = None
    ) -> list[Any]:
        """The first-turn order and the first goods: ``outcome`` when a record gives them
        (refused with an ``IllegalMove`` if the shuffle and the bag cannot give them), else
        drawn from ``rng``."""
        _check_map_fits(options, players)
        b = board(options.map)
        if outcome is not None:
            easy = options.barbados_easy and b.rules.easy_city_cubes is not None
            return [
                started(
                    b, outcome, options.map, players, msgspec.to_builtins(options), easy,
                    _new_city_colour,
                )
            ]  # fmt: skip
        order = list(range(players))
        rng.shuffle(order)
        bag = dict(b.spec.bag)
        rules = b.rules
        display: list[list[str]] = []
        for col in b.spec.display:
            cubes: list[str] = []
            if rules.display_fill == "full":
                cubes = [c for c in (draw(bag, rng) for _ in range(col.spaces)) if c]
            elif rules.display_fill == "top":
                refused = _new_city_colour(b, col.new_city) if rules.display_refuses_own_colour \
                    else None  # fmt: skip
                cube = draw(bag, rng)
                while cube is not None and cube == refused and sum(bag.values()) > 0:
                    # Draw again, then put the refused cube back.
                    again = draw(bag, rng)
                    bag[cube] += 1
                    cube = again
                if cube is not None and cube != refused:
                    cubes = [cube]
                elif cube is not None:
                    bag[cube] += 1
            display.append(cubes)
        goods: list[tuple[int, int, list[str]]] = []
        for city in b.spec.cities:
            easy = options.barbados_easy and rules.easy_city_cubes is not None
            n = rules.easy_city_cubes if easy else city.cubes
            cubes = [c for c in (draw(bag, rng) for _ in range(n)) if c]
            goods.append((city.col, city.row, cubes))
        if rules.goods_on_land:
            for h, (col, row) in enumerate(b.coords):
                if b.terrain[h] in ("clear", "river") and b.town_at[h] < 0:
                    cube = draw(bag, rng)
                    if cube:
                        goods.append((col, row, [cube]))
        return [
            ev.Started(
                map=options.map, players=players, options=msgspec.to_builtins(options),
                order=order, display=display, goods=goods,
            )
        ]  # fmt: skip

    def setup_outcome(self, events: Sequence[Any]) -> SetupOutcome:
        """The chance hook of ``setup``: the outcome its ``Started`` event dealt."""
        return outcome_of(board(events[0].map), events[0])

    def evolve(self, state: State | None, event: Any) -> State:
        if isinstance(event, ev.Started):
            return flow.started(event)
        assert state is not None
        flow.apply(board(state.map_id), state, event)
        return state

    # --- decide ----------------------------------------------------------------------------

    def decide(self, state: State, actor: int, move: Any, rng: Random) -> list[Any]:
        b = board(state.map_id)
        refusal = self._refusal(b, state, actor, move)
        if refusal is not None:
            raise _refuse(refusal)
        match move:
            case mv.IssueShares(count=count):
                return [ev.SharesIssued(actor, count)]
            case mv.BuyFirst():
                return [ev.FirstBought(actor, [actor, *[s for s in state.order if s != actor]])]
            case mv.DeclineFirst():
                if len(state.queue) == 1:
                    return [ev.FirstDeclined(actor, list(state.order))]
                return [ev.FirstDeclined(actor)]
            case mv.Bid(amount=amount):
                return [ev.BidPlaced(actor, amount)]
            case mv.TurnOrderPass():
                return [ev.PassedOnce(actor)]
            case mv.DropOut():
                return self._drop_out(state, actor)
            case mv.SelectAction(action=action):
                return [ev.ActionSelected(actor, action)]
            case mv.Urbanize(col=col, row=row, city=city):
                return [ev.Urbanized(actor, col, row, city)]
            case mv.Build():
                return [self._build_event(b, state, actor, move)]
            case mv.DoneBuilding():
                return [ev.BuildingDone(seat=actor, abandoned=self._abandoned(b, state, actor))]
            case mv.MoveGood():
                return [self._move_event(b, state, actor, move)]
            case mv.RaiseEngine():
                return [ev.EngineRaised(actor)]
            case mv.PassMove():
                return [ev.MovePassed(actor)]
            case mv.PlaceCube(column=column):
                return [ev.CubePlaced(actor, column, state.production[0])]
            case mv.Settle():
                return self._settle(state)
            case mv.DrawProduction():
                return [self._draw_production(b, state, move, rng)]
            case mv.GrowGoods():
                return self._grow(b, state, move, rng)
        raise IllegalMove("unknown_move", "Age of Steam has no such move")

    def _refusal(self, b: Board, state: State, actor: int, move: Any) -> Refusal | None:
        """Turn, phase and step rules of every move; builds and deliveries are checked in
        full by :func:`track.evaluate` and :func:`goods.walk_good` as well."""
        phase = state.phase
        if isinstance(move, mv.SystemMove):
            if actor != SYSTEM:
                return Refusal("system_only", "only the game itself runs this step")
            if isinstance(move, mv.DrawProduction):
                if phase != "production" or state.production_drawn:
                    return Refusal("not_now", "Production cubes are drawn at the start of growth")
            elif type(SYSTEM_PHASES.get(phase)) is not type(move):
                return Refusal("not_now", "this step of the turn is not due now")
            return None
        return self._turn_refusal(state, actor, move) or self._step_refusal(b, state, actor, move)

    def _turn_refusal(self, state: State, actor: int, move: Any) -> Refusal | None:
        """Whether ``actor`` decides now and ``move`` is of the step's kinds."""
        return self._actor_refusal(state, actor) or self._kind_refusal(state, move)

    def _actor_refusal(self, state: State, actor: int) -> Refusal | None:
        """Whether ``actor`` decides now (the same for all its moves: ``legal_moves`` asks
        it once)."""
        if state.phase == "over":
            return Refusal("game_over", "the game is over")
        if actor != flow.to_act(state):
            return Refusal("not_your_turn", "it is not your turn to decide")
        return None

    def _kind_refusal(self, state: State, move: Any) -> Refusal | None:
        """Whether ``move`` is of the step's kinds (the same for every move of one kind:
        ``legal_moves`` asks it once per kind)."""
        phase = state.phase
        want = _PHASE_MOVES.get(phase, ())
        if not isinstance(move, want):
            return Refusal("wrong_step", f"that move does not belong to the {phase} step")
        return None

    def _step_refusal(self, b: Board, state: State, actor: int, move: Any) -> Refusal | None:
        """The step's own rules for a player's move that passed :meth:`_turn_refusal`
        (looked up by the move's kind: kinds with none pass)."""
        rule = _STEP_RULES.get(type(move))
        return None if rule is None else rule(self, b, state, actor, move)

    def _shares_refusal(
        self, b: Board, state: State, actor: int, move: mv.IssueShares
    ) -> Refusal | None:
        cap = self._share_cap(b, state, actor)
        if not 0 <= move.count <= cap:
            return Refusal(
                "share_limit",
                f"you may issue 0 to {cap} shares now (15 at most in all"
                + (", 1 per turn on this map)" if b.rules.max_shares_per_turn else ")"),
            )
        return None

    def _buy_first_refusal(
        self, b: Board, state: State, actor: int, move: mv.BuyFirst
    ) -> Refusal | None:
        if state.pl[actor].money < FIRST_PLACE_FEE:
            return Refusal("cannot_afford", "going first costs $5")
        return None

    def _bid_refusal(self, b: Board, state: State, actor: int, move: mv.Bid) -> Refusal | None:
        a = state.auction
        assert a is not None
        low = max(1, a.high + 1)
        if move.amount < low:
            return Refusal("bid_too_low", f"a bid must be at least ${low}")
        money = state.pl[actor].money
        if move.amount > money:
            return Refusal("cannot_afford", f"you cannot bid more than your ${money}")
        return None

    def _free_pass_refusal(
        self, b: Board, state: State, actor: int, move: mv.TurnOrderPass
    ) -> Refusal | None:
        a = state.auction
        assert a is not None
        if a.pass_seat != actor:
            return Refusal(
                "no_free_pass",
                "only the Turn Order action holder may pass, once, without dropping out",
            )
        return None

    def _action_refusal(
        self, b: Board, state: State, actor: int, move: mv.SelectAction
    ) -> Refusal | None:
        if move.action not in self._actions_open(b, state):
            return Refusal("action_taken", f"{move.action} is not available now")
        return None

    def _urbanize_move_refusal(
        self, b: Board, state: State, actor: int, move: mv.Urbanize
    ) -> Refusal | None:
        return self._urbanize_refusal(b, state, move.col, move.row, move.city)

    def _build_refusal(self, b: Board, state: State, actor: int, move: mv.Build) -> Refusal | None:
        if state.builds_left <= 0:
            return Refusal("no_builds_left", "you have built all your tiles this turn")
        return None

    def _engine_refusal(
        self, b: Board, state: State, actor: int, move: mv.RaiseEngine
    ) -> Refusal | None:
        if actor in state.engine_raised:
            return Refusal("engine_once", "the engine may be raised only once per Move Goods step")
        if state.pl[actor].engine >= MAX_ENGINE:
            return Refusal("engine_max", "the engine is already at 6 links")
        return None

    def _cube_refusal(
        self, b: Board, state: State, actor: int, move: mv.PlaceCube
    ) -> Refusal | None:
        column = move.column
        found = b.display_columns.get(column)
        if found is None:
            return Refusal("no_column", f"the display has no column {column!r}")
        i, spaces = found
        if len(state.display[i]) >= spaces:
            return Refusal("column_full", f"display column {column} has no empty space")
        return None

    def _share_cap(self, b: Board, state: State, seat: int) -> int:
        cap = MAX_SHARES - state.pl[seat].shares
        per_turn = b.spec.rules.max_shares_per_turn
        if per_turn is not None and per_turn < cap:
            cap = per_turn
        return cap if cap > 0 else 0

    def _actions_open(self, b: Board, state: State) -> list[str]:
        rules, taken, used = b.rules, state.actions, state.cycle_used
        found = [a for a in rules.actions if a not in taken and a not in used]
        for a, option in rules.optional_actions.items():  # those an option turns off
            if not state.options.get(option, True) and a in found:
                found.remove(a)
        return found

    def _urbanize_refusal(
        self, b: Board, state: State, col: int, row: int, city: str
    ) -> Refusal | None:
        if not state.urbanize_open:
            return Refusal(
                "no_urbanization",
                "only the Urbanization holder places a New City, before building track",
            )
        h = b.hex_of(col, row)
        if h < 0 or b.town_at[h] < 0:
            return Refusal("not_a_town", "New City tiles can only be placed on town hexes")
        if h in state.new_cities:
            return Refusal("not_a_town", "that town is already a city")
        if city not in [c.letter for c in b.spec.new_cities]:
            return Refusal("no_such_city", f"there is no New City tile {city!r} on this map")
        if city in state.new_cities.values():
            return Refusal("city_used", f"New City {city} is already on the map")
        return None

    def _drop_out(self, state: State, actor: int) -> list[Any]:
        a = state.auction
        assert a is not None
        events: list[Any] = [ev.DroppedOut(actor)]
        if len(a.active) == 2:
            after = copy.deepcopy(a)
            after.active.remove(actor)
            after.out.append(actor)
            places, pays = auction_payments(after, a.seats)
            events.append(ev.OrderDecided(places, [pays.get(s, 0) for s in range(state.players)]))
        return events

    def _build_event(self, b: Board, state: State, actor: int, move: mv.Build) -> ev.TrackBuilt:
        h = b.hex_of(move.col, move.row)
        if h < 0:
            raise IllegalMove("off_map", "track cannot be built off the board")
        result = plan(b, state, actor, h, move.tile, move.rotation)
        if isinstance(result, Refusal):
            raise _refuse(result)
        return _built_event(b, actor, result)

    def _abandoned(self, b: Board, state: State, seat: int) -> list[tuple[int, int, int]]:
        net = network(b, state)
        out: list[tuple[int, int, int]] = []
        for route in net.routes:
            if route.owner == seat and not route.complete and route.last_turn < state.turn:
                for h, k in route.sections:
                    col, row = b.coords[h]
                    out.append((col, row, state.track[h].sections[k][0]))
        return sorted(out)

    def _move_event(self, b: Board, state: State, actor: int, move: mv.MoveGood) -> ev.GoodMoved:
        h = b.hex_of(move.col, move.row)
        result = walk_good(b, state, actor, h, move.color, list(move.steps))
        if isinstance(result, Refusal):
            raise _refuse(result)
        bonus = 0
        if result.first_partial:
            bonus = int(state.options.get("st_lucia_first_section_income", 1)) - 1
        gains = income_by_owner(result.owners, bonus)
        col, row = b.coords[result.dest]
        return ev.GoodMoved(
            seat=actor, col=move.col, row=move.row, color=move.color, steps=list(move.steps),
            to_col=col, to_row=row, income=sorted(gains.items()),
        )  # fmt: skip

    def _settle(self, state: State) -> list[Any]:
        n = state.players
        amounts, paid, lost, cuts = [0] * n, [0] * n, [0] * n, [0] * n
        eliminated: list[int] = []
        for s in state.order:
            p = state.pl[s]
            amounts[s] = p.income
            money = p.money + p.income
            expenses = p.shares + p.engine
            paid[s] = min(money, expenses)
            short = expenses - paid[s]
            income = p.income
            if short > 0:
                lost[s] = short
                income -= short
                if income <= 0:
                    eliminated.append(s)
                    continue
            cuts[s] = income_reduction(income)
        return [
            ev.IncomeCollected(amounts),
            ev.ExpensesPaid(paid, lost, eliminated),
            ev.IncomeReduced(cuts),
        ]

    def _draw_production(
        self, b: Board, state: State, move: mv.DrawProduction, rng: Random
    ) -> ev.ProductionDrawn:
        holder = state.actions["production"]
        room = sum(col.spaces - len(state.display[i]) for i, col in enumerate(b.spec.display))
        bag = dict(state.bag)
        if move.cubes is None:
            cubes = [c for c in (draw(bag, rng) for _ in range(min(2, room))) if c]
            return ev.ProductionDrawn(holder, cubes)
        want = min(2, room, sum(bag.values()))
        if len(move.cubes) != want:
            raise IllegalMove(
                "production_count",
                f"Production draws {want} cubes now (two, fewer only when the display has "
                f"less room or the bag fewer cubes), not {len(move.cubes)}",
            )
        for cube in move.cubes:
            if bag.get(cube, 0) <= 0:
                raise IllegalMove(
                    "cube_not_in_bag",
                    f"the bag holds no {cube!r} cube to draw (it holds "
                    f"{', '.join(f'{n} {c}' for c, n in sorted(bag.items()) if n) or 'none'})",
                )
            bag[cube] -= 1
        return ev.ProductionDrawn(holder, list(move.cubes))

    def _grow(self, b: Board, state: State, move: mv.GrowGoods, rng: Random) -> list[Any]:
        dice = b.rules.growth_dice
        count = state.players if dice == "players" else int(dice)
        sets = {col.dice for col in b.spec.display}
        if move.light is None and move.dark is None:
            light = [rng.randint(1, 6) for _ in range(count)] if "light" in sets else []
            dark = [rng.randint(1, 6) for _ in range(count)] if "dark" in sets else []
        else:
            light, dark = list(move.light or []), list(move.dark or [])
            for name, rolled in (("light", light), ("dark", dark)):
                want = count if name in sets else 0
                if len(rolled) != want:
                    raise IllegalMove(
                        "dice_count",
                        f"goods growth rolls {want} {name} dice on this map with "
                        f"{state.players} players, not {len(rolled)}",
                    )
                if any(not 1 <= die <= 6 for die in rolled):
                    raise IllegalMove("die_out_of_range", f"a die shows 1 to 6, not {rolled}")
        over = state.turn >= state.last_turn or not state.active()
        # Neither scoring counts goods, so the score before growth is the final one.
        scores = final_scores(b, state) if over else None
        return [ev.GoodsGrown(light, dark), ev.TurnEnded(state.turn, over, scores)]

    def position_options(self, state: State) -> Options:
        """The options a position plays with (its map and the map's settings)."""
        return msgspec.convert(state.options, Options)

    def chance_outcome(self, state: State, move: Any, events: list[Any]) -> Any:
        """The chance hook: a draw or a roll with the outcome its first event shows."""
        first = events[0] if events else None
        if isinstance(move, mv.DrawProduction) and isinstance(first, ev.ProductionDrawn):
            return mv.DrawProduction(cubes=list(first.cubes))
        if isinstance(move, mv.GrowGoods) and isinstance(first, ev.GoodsGrown):
            return mv.GrowGoods(light=list(first.light), dark=list(first.dark))
        return move

    # --- reading ---------------------------------------------------------------------------

    def legal_moves(self, state: State, seat: int) -> list[Any]:
        # The turn rules (whose turn it is, the step's kinds of move) are the same for every
        # move the step lists: asked once, the kinds with a move of one of them.
        if seat == SYSTEM or self._actor_refusal(state, seat) is not None:
            return []
        step = _LISTERS.get(state.phase)
        if step is None or self._kind_refusal(state, step[1]) is not None:
            return []
        return step[0](self, board(state.map_id), state, seat)

    # Each step's listing asks the step's own rules (_step_refusal) of its candidates.
    # Share counts, bids and actions are generated from the very bounds those rules check:
    # asked once per kind, as for a kind with one move. Builds, deliveries and New City
    # placements are listed once the validators decide uses accepted them.

    def _exact(self, b: Board, state: State, seat: int, group: list[Any]) -> list[Any]:
        """``group`` (moves of one kind, generated within the step's bounds) if its first
        move passes the step's rules, else nothing."""
        if group and self._step_refusal(b, state, seat, group[0]) is None:
            return group
        return []

    def _allowed(self, b: Board, state: State, seat: int, moves: Any) -> list[Any]:
        """The ``moves`` the step's rules allow, each asked on its own, in their order."""
        return [m for m in moves if self._step_refusal(b, state, seat, m) is None]

    def _list_shares(self, b: Board, state: State, seat: int) -> list[Any]:
        return self._exact(b, state, seat, _SHARES[self._share_cap(b, state, seat)][:])

    def _list_first(self, b: Board, state: State, seat: int) -> list[Any]:
        return self._allowed(b, state, seat, (_BUY_FIRST, _DECLINE_FIRST))

    def _list_auction(self, b: Board, state: State, seat: int) -> list[Any]:
        a = state.auction
        assert a is not None
        low = max(1, a.high + 1)
        out = self._exact(b, state, seat, _bids(low, state.pl[seat].money))
        return out + self._allowed(b, state, seat, (_DROP_OUT, _TURN_ORDER_PASS))

    def _list_actions(self, b: Board, state: State, seat: int) -> list[Any]:
        moves = _action_moves(b)
        return self._exact(b, state, seat, [moves[a] for a in self._actions_open(b, state)])

    def _list_build(self, b: Board, state: State, seat: int) -> list[Any]:
        cands: list[Any] = []
        if state.urbanize_open:
            # Every town not yet a city, every New City not yet placed: the conditions
            # of _urbanize_refusal, which is asked once for the rest (step).
            placements = _urbanize_moves(b, state.new_cities)
            if placements and self._step_refusal(b, state, seat, placements[0]) is None:
                cands += placements
        # New City placements were accepted by the validator decide uses (above), so
        # they are listed as they are, like builds.
        if self._step_refusal(b, state, seat, _DONE_BUILDING) is None:
            cands.append(_DONE_BUILDING)
        # The tiles-left rule is the same for every tile: asked once.
        if state.builds_left > 0 and self._step_refusal(b, state, seat, _ANY_BUILD) is None:
            cands += legal_build_moves(b, state, seat)
        return cands

    def _list_move(self, b: Board, state: State, seat: int) -> list[Any]:
        out = legal_delivery_moves(b, state, seat)
        return out + self._allowed(b, state, seat, (_RAISE_ENGINE, _PASS_MOVE))

    def _list_production(self, b: Board, state: State, seat: int) -> list[Any]:
        return self._allowed(b, state, seat, _place_cubes(b))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        b = board(state.map_id)
        to_act = flow.to_act(state)
        cap = self._share_cap(b, state, to_act) if to_act is not None else 0
        return client_view.view(b, state, seat, self._actions_open(b, state), cap)

    def redact(self, event: Any, seat: int | None) -> dict[str, Any]:
        # Nothing in Age of Steam is secret (the bag has no order, each draw is decided when
        # it happens and written into the event): every seat reads the same log.
        return log.redact(event)

    def bot_policy(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
        """The greedy bot's choice (optional hook, see :mod:`core.game`)."""
        return bot.bot_policy(view, legal, rng)

    # --- the search bot's hooks (see core.game and lookahead) -------------------------------

    def determinize(self, view: dict[str, Any], rng: Random) -> State:
        return lookahead.determinize(view, rng)

    def evaluate(self, state: State) -> list[float]:
        return lookahead.evaluate(state)

    def playout_policy(self, state: State, seat: int, legal: list[Any], rng: Random) -> Any:
        return playout_policy.playout_move(state, seat, legal, rng)

    def clone(self, state: State) -> State:
        return lookahead.clone(state)

    def pending_tasks(self, state: State) -> list[Task]:
        phase = state.phase
        if phase == "over":
            return []
        if phase in SYSTEM_PHASES:
            return [Task(kind="system", move=SYSTEM_PHASES[phase])]
        if phase == "production" and not state.production_drawn:
            return [Task(kind="system", move=mv.DrawProduction())]
        seat = flow.to_act(state)
        return [] if seat is None else [Task(kind="turn", seat=seat)]

    def result(self, state: State) -> Result | None:
        if state.phase != "over" or state.final_scores is None:
            return None
        return self._result(state, list(state.final_scores))

    def _result(self, state: State, scores: list[int]) -> Result:
        b = board(state.map_id)
        details: dict[str, Any] = {
            "eliminated": [s for s in range(state.players) if state.pl[s].eliminated],
            # Eliminated seats rank by this turn (later out ranks higher), so a client can
            # explain a ranking that scores alone do not.
            "eliminated_turn": [p.out_turn if p.eliminated else None for p in state.pl],
        }
        if b.rules.scoring == "buyback":
            details["won"] = [
                scores[s] >= 0 and not state.pl[s].eliminated for s in range(state.players)
            ]
        return Result(scores=scores, ranking=ranking(state, scores), details=details)

    def result_with_resignations(self, state: State, resigned: list[int]) -> Result:
        """The optional hook (:mod:`core.game`): the final scores, or mid-game the scores as
        if the game ended now; every resigned seat ranked below the others."""
        own = self.result(state)
        if own is None:
            own = self._result(state, final_scores(board(state.map_id), state))
        if "won" in own.details:  # Barbados: a seat that resigned has not won
            won = [w and s not in resigned for s, w in enumerate(own.details["won"])]
            own = Result(
                scores=own.scores, ranking=own.ranking, details={**own.details, "won": won}
            )
        return with_resignations(own, resigned)

    def export_position(self, state: State) -> dict[str, Any]:
        return position.export(board(state.map_id), state)

    def load_position(self, doc: dict[str, Any]) -> State:
        return position.load(doc, flow.sequence, Options)

    def sample_hidden(self, state: State, seat: int, rng: Random) -> State:
        # Nothing is hidden (see redact): the only copy needed is a fresh one.
        return lookahead.clone(state)


_URBANIZE: dict[tuple[str, frozenset[tuple[int, str]]], list[mv.Urbanize]] = {}


def _urbanize_moves(b: Board, new_cities: dict[int, str]) -> list[mv.Urbanize]:
    """Every New City tile not yet placed on every town not yet a city, town by town.
    Made once per map and placed New Cities, and shared by every listing with them
    (nothing changes a listed move: it is only compared, encoded or decided)."""
    key = (b.spec.id, frozenset(new_cities.items()))
    found = _URBANIZE.get(key)
    if found is None:
        used = set(new_cities.values())
        free = [c.letter for c in b.spec.new_cities if c.letter not in used]
        towns = [b.coords[h] for h in range(len(b.coords))
                 if b.town_at[h] >= 0 and h not in new_cities]  # fmt: skip
        found = [mv.Urbanize(col, row, x) for col, row in towns for x in free]
        if len(_URBANIZE) >= 256:
            _URBANIZE.clear()
        _URBANIZE[key] = found
    return found


def _new_city_colour(b: Board, letter: str | None) -> str | None:
    if letter is None:
        return None
    return next(c.color for c in b.spec.new_cities if c.letter == letter)


def _built_event(b: Board, seat: int, p: Plan) -> ev.TrackBuilt:
    col, row = b.coords[p.h]
    claimed = sorted((*b.coords[h], side) for h, side in p.claimed)
    return ev.TrackBuilt(
        seat=seat, col=col, row=row, tile=p.tile, rotation=p.rotation, kind=p.kind,
        cost=p.cost, sections=p.sections, claimed=claimed, returned=p.returned,
    )  # fmt: skip


# The moves without fields, and the share counts, bids, actions and display columns,
# made once and listed as they are (nothing changes a listed move: it is only compared,
# encoded or decided).
_BUY_FIRST, _DECLINE_FIRST = mv.BuyFirst(), mv.DeclineFirst()
_DROP_OUT, _TURN_ORDER_PASS = mv.DropOut(), mv.TurnOrderPass()
_DONE_BUILDING, _RAISE_ENGINE, _PASS_MOVE = mv.DoneBuilding(), mv.RaiseEngine(), mv.PassMove()
_ANY_BUILD = mv.Build(0, 0, "", 0)
"""What legal_moves asks the rules every tile shares (tiles left this turn) about."""
_SHARES = [[mv.IssueShares(n) for n in range(cap + 1)] for cap in range(MAX_SHARES + 1)]
"""Per cap, issuing 0 to cap shares."""
_BIDS: list[mv.Bid] = []
_ACTION_MOVES: dict[str, dict[str, mv.SelectAction]] = {}
_CUBES: dict[str, list[mv.PlaceCube]] = {}


def _bids(low: int, high: int) -> list[mv.Bid]:
    """Bids of ``low`` to ``high`` dollars."""
    while len(_BIDS) <= high:
        _BIDS.append(mv.Bid(len(_BIDS)))
    return _BIDS[low : high + 1]


def _action_moves(b: Board) -> dict[str, mv.SelectAction]:
    """Selecting each of the map's actions, by name."""
    found = _ACTION_MOVES.get(b.spec.id)
    if found is None:
        found = _ACTION_MOVES[b.spec.id] = {a: mv.SelectAction(a) for a in b.rules.actions}
    return found


def _place_cubes(b: Board) -> list[mv.PlaceCube]:
    """Placing a cube on each display column of the map, in the display's order."""
    found = _CUBES.get(b.spec.id)
    if found is None:
        found = _CUBES[b.spec.id] = [mv.PlaceCube(c) for c in b.display_ids]
    return found


_STEP_RULES: dict[type, Any] = {
    mv.IssueShares: AgeOfSteam._shares_refusal,
    mv.BuyFirst: AgeOfSteam._buy_first_refusal,
    mv.Bid: AgeOfSteam._bid_refusal,
    mv.TurnOrderPass: AgeOfSteam._free_pass_refusal,
    mv.SelectAction: AgeOfSteam._action_refusal,
    mv.Urbanize: AgeOfSteam._urbanize_move_refusal,
    mv.Build: AgeOfSteam._build_refusal,
    mv.RaiseEngine: AgeOfSteam._engine_refusal,
    mv.PlaceCube: AgeOfSteam._cube_refusal,
}
"""The step's own rules per kind of player move (:meth:`AgeOfSteam._step_refusal`); the
other kinds (declining the first place, dropping out, done building, moving a good,
passing) have none beyond whose turn and which step it is."""

_LISTERS: dict[str, tuple[Any, mv.Move]] = {
    "shares": (AgeOfSteam._list_shares, _SHARES[0][0]),
    "first_player": (AgeOfSteam._list_first, _BUY_FIRST),
    "auction": (AgeOfSteam._list_auction, _DROP_OUT),
    "actions": (AgeOfSteam._list_actions, mv.SelectAction("engineer")),
    "build": (AgeOfSteam._list_build, _DONE_BUILDING),
    "move": (AgeOfSteam._list_move, _PASS_MOVE),
    "production": (AgeOfSteam._list_production, mv.PlaceCube("")),
}
"""Per step: the listing of a player's moves (:meth:`AgeOfSteam.legal_moves`), and a move
of one of the step's kinds, for the turn rules."""

_PHASE_MOVES: dict[str, tuple[type, ...]] = {
    "shares": (mv.IssueShares,),
    "first_player": (mv.BuyFirst, mv.DeclineFirst),
    "auction": (mv.Bid, mv.DropOut, mv.TurnOrderPass),
    "actions": (mv.SelectAction,),
    "build": (mv.Urbanize, mv.Build, mv.DoneBuilding),
    "move": (mv.MoveGood, mv.RaiseEngine, mv.PassMove),
    "production": (mv.PlaceCube,),
}
