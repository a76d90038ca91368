"""The bots' side of a :class:`~plugins.brass.board_state.BoardState` board, for any variant
on the engine: the printed facts the greedy bot weighs a view against (:class:`Knowledge`,
from the data and the variant's few own facts), and for the search bot's playouts the part
of a seat's view the greedy bot reads and the facts of its quick follow-ups, built straight
from a state.

A playout decision asks the greedy bot for a move in a determinized state, hundreds of
times a think; the full view spells out far more than the bot reads (discards, the pending
steps, the decision in words) and costs several times as much. :func:`bot_view` holds only
what the bot reads, every value as the view has it (tests/test_brass_playout_policy.py pins
that it is part of the view and that the bot weighs every move alike from both). The static
parts (names, ends, market entries) are built once per board (:class:`BotTables`) and
shared: the bot only reads them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from random import Random
from typing import Any

import msgspec

from plugins.brass import bot
from plugins.brass.board_docs import ERAS, market_view
from plugins.brass.bot import FollowUpFacts, joined_to
from plugins.brass.knowledge import Knowledge, Line, TileFacts
from plugins.brass.mat import EMPTY


def board_knowledge(
    d: Any, flips: Sequence[str], resources: Mapping[int, str], rounds_per_era: dict[int, int],
    loan: tuple[int, int], sale_need: Callable[[Any], int] = lambda tile: 0,
) -> Knowledge:  # fmt: skip
    """The greedy bot's facts of data ``d``: each tile (keyed ``"<industry>:<level>"``;
    ``flips[industry]`` how it flips, ``resources[industry]`` the cubes it carries,
    ``sale_need`` the barrels its sale needs), lines, spaces, printed icons, the income
    track, the era's rounds by player count, the loan the bot weighs (money, levels) and
    the link costs of ``d.rules``."""
    names, ind, r = [loc.id for loc in d.locations], d.industries, d.rules
    tiles = {
        f"{ind[k]}:{t.level}": TileFacts(
            industry=ind[k], level=t.level, money=t.money,
            cubes={c: n for c, n in (("coal", t.coal), ("iron", t.iron)) if n},
            sale_need=sale_need(t), income=t.income, vp=t.vp, icons=t.link_icons,
            produces=(t.produce(0), t.produce(1)), resource=resources.get(k, ""),
            flip=flips[k], eras=(t.canal, t.rail), develop=t.develop,  # type: ignore[arg-type]
            leaves_after_first_era=t.level == 1)
        for k, rows in enumerate(d.tiles) for t in rows
    }  # fmt: skip
    return Knowledge(
        tiles=tiles, printed_icons=dict(zip(names, d.loc_icons, strict=True)),
        lines={n: Line(ends=tuple(names[x] for x in nodes), eras=(c, rl)) for n, nodes, c, rl
               in zip(d.link_names, d.link_nodes, d.link_canal, d.link_rail, strict=True)},
        slots={names[loc]: tuple(tuple(ind[k] for k in d.slot_icons[s]) for s in slots)
               for loc, slots in enumerate(d.loc_slots) if slots},
        income_levels=tuple(d.income.levels), rounds_per_era=rounds_per_era,
        loan_amount=loan[0], loan_levels=loan[1],
        link_money=(r.canal_link_cost, r.rail_link_cost), link_cubes=(0, r.coal_per_rail),
        second_link_money=r.double_rail_cost - r.rail_link_cost,
        stacks={ind[k]: tuple(seq) for k, seq in enumerate(d.stacks.sequence)},
        game="birmingham",
    )  # fmt: skip


NO_BONUS = {"kind": "none", "amount": 0}
"""The bonus of a sale target that gives none (Birmingham's view form)."""


def sale_target(target: str, location: str, buys: Sequence[str]) -> dict[str, Any]:
    """A sale target as the family bot reads Birmingham's merchants: ``target`` (the id a
    sale names) at ``location`` buys the industries ``buys``, with no beer and no bonus."""
    return {"merchant": target, "location": location, "buys": list(buys), "beer": False,
            "bonus": NO_BONUS}  # fmt: skip


class _Sale(msgspec.Struct, tag="sell", frozen=True):
    space: str
    merchant: str


class _SaleAlso(_Sale, tag="sell_also", frozen=True):
    pass


class BoardBot:
    """The greedy bot (:func:`plugins.brass.bot.choose`) of a game on the board engine.

    The family bot reads Birmingham's view layout (sale targets as ``merchants``) and the
    family's moves (a sale names its target in ``merchant``). A variant whose sale targets
    or moves differ overrides the points below, so that the bot's Brass knowledge stays in
    the family: :meth:`shown_view` (its sale targets as merchants, see
    :func:`sale_target`), :attr:`target_field` (the field its sales name their target in),
    :meth:`shown_move` (a move of its own as the family move it amounts to) and
    :meth:`candidates` (the moves the bot weighs)."""

    target_field = "merchant"
    """The field of the variant's Sell and SellAlso moves naming the sale target."""

    def __init__(self, d: Any, knowledge: Any) -> None:
        self.d, self.knowledge = d, knowledge

    def shown_view(self, view: dict[str, Any]) -> dict[str, Any]:
        """``view`` as the family bot reads it (Birmingham's: as it is)."""
        return view

    def shown_move(self, move: Any) -> Any:
        """``move`` as the family bot reads it: a sale naming its target in ``merchant``."""
        tag = move.__struct_config__.tag
        if self.target_field != "merchant" and tag in ("sell", "sell_also"):
            shown = _Sale if tag == "sell" else _SaleAlso
            return shown(move.space, getattr(move, self.target_field))
        return move

    def candidates(self, legal: list[Any]) -> list[Any]:
        """The moves the bot weighs: of a variant's several loans (an ``amount`` each),
        the one its knowledge describes, as the family bot weighs every loan as that one."""
        amount = self.knowledge.loan_amount
        return [m for m in legal if m.__struct_config__.tag != "loan"
                or getattr(m, "amount", amount) == amount] or legal  # fmt: skip

    def choose(self, view: dict[str, Any], legal: list[Any], rng: Random) -> Any:
        """The family bot's choice among ``legal`` for the seat whose view is ``view``."""
        moves = self.candidates(legal)
        shown = [self.shown_move(m) for m in moves]
        pick = bot.choose(self.shown_view(view), shown, rng, self.knowledge)
        return moves[shown.index(pick)]


class BotTables:
    """What every bot view of one board shares, by engine index."""

    def __init__(self, d: Any, names: Any) -> None:
        self.d, self.industries = d, d.industries
        self.space = list(names.space)
        self.location = [names.location[d.slot_loc[slot]] for slot in range(d.n_slots)]
        self.card = list(names.card)
        self.link_name = list(names.link)
        self.link_ends = [[names.location[n] for n in nodes] for nodes in d.link_nodes]
        self.coal = [msgspec.to_builtins(market_view(d.coal_market, c))
                     for c in range(d.coal_market.capacity + 1)]  # fmt: skip
        self.iron = [msgspec.to_builtins(market_view(d.iron_market, c))
                     for c in range(d.iron_market.capacity + 1)]  # fmt: skip
        # per industry and tiles taken off its stack: the next level, and tiles left
        self.next_level = [
            [None if (lvl := d.stacks.top_level(k, taken)) == EMPTY else lvl
             for taken in range(d.stacks.sizes[k] + 1)]
            for k in range(len(self.industries))
        ]  # fmt: skip
        self.sizes = list(d.stacks.sizes)

    def bot_view(self, s: Any, seat: int) -> dict[str, Any]:
        """The fields of ``seat``'s view of ``s`` that the greedy bot reads (a variant adds
        its own, such as Birmingham's merchants, after them)."""
        d, industries, card = self.d, self.industries, self.card
        players: list[dict[str, Any]] = [{"hand_count": len(h)} for h in s.hands]
        mat = s.mat[seat]
        players[seat].update(
            money=s.money[seat], income_space=s.income[seat],
            income_level=d.income.level(s.income[seat]),
            next_tiles={name: self.next_level[k][mat[k]] for k, name in enumerate(industries)},
            tiles_left={name: self.sizes[k] - mat[k] for k, name in enumerate(industries)},
        )  # fmt: skip
        space, location, kind = self.space, self.location, ERAS[s.era]
        return {
            "seat": seat, "era": kind, "deck_count": len(s.deck),
            "hand": [card[c] for c in s.hands[seat]], "players": players,
            "tiles": [{"space": space[slot], "location": location[slot], "owner": o,
                       "industry": industries[s.slot_ind[slot]], "level": s.slot_level[slot],
                       "flipped": s.slot_flipped[slot], "resources": s.slot_cubes[slot]}
                      for slot, o in enumerate(s.slot_owner) if o >= 0],
            "links": [{"link": self.link_name[li], "ends": self.link_ends[li], "owner": o,
                       "kind": kind} for li, o in enumerate(s.link_owner) if o >= 0],
            "markets": {"coal": self.coal[min(s.coal_market, len(self.coal) - 1)],
                        "iron": self.iron[min(s.iron_market, len(self.iron) - 1)]},
        }  # fmt: skip

    def follow_up_facts(self, s: Any, seat: int, trade_locations: set[str]) -> FollowUpFacts:
        """What the playouts' quick follow-up rules read of ``s`` for ``seat``;
        ``trade_locations`` are where goods are sold (Birmingham's merchants)."""
        mat, card, space = s.mat[seat], self.card, self.space
        return FollowUpFacts(
            seat=seat, era=s.era, hand=Counter(card[c] for c in s.hands[seat]),
            next_tiles=[f"{name}:{lvl}" for k, name in enumerate(self.industries)
                        if (lvl := self.next_level[k][mat[k]])],
            occupied={space[slot]: (o, s.slot_cubes[slot])
                      for slot, o in enumerate(s.slot_owner) if o >= 0},
            pipelines={},
            near_merchant=joined_to(trade_locations, [
                self.link_ends[li] for li, o in enumerate(s.link_owner) if o >= 0]),
            price=_no_price,
        )  # fmt: skip


def _no_price(market: str, resource: str) -> float | None:
    return None
