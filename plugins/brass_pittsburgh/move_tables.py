"""The moves an action listing hands out, made once per board side and kept in one form.

Listings repeat the same builds, links and develops from state to state, so they read them
from tables instead of making them. The engine's tables (:attr:`.rules.Rules.move_tables`)
hold engine moves; :class:`~.names.Names` keeps a twin per side holding the same moves
named, so the game's listing of an action is already in the clients' form and has nothing
left to look up (naming a move costs more than listing it).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from plugins.brass.actions.build import Build
from plugins.brass.actions.develop import Develop
from plugins.brass.actions.loan import Loan
from plugins.brass.actions.network import Network
from plugins.brass.actions.pass_ import Pass
from plugins.brass.actions.sell import Sell
from plugins.brass.moves import Discard, Done
from plugins.brass.resolver import discard_options
from plugins.brass_pittsburgh import internal_moves as im

if TYPE_CHECKING:
    from plugins.brass_pittsburgh.rules import Rules
    from plugins.brass_pittsburgh.state import State
    from plugins.brass_pittsburgh.variant import PittsburghVariant

DEVELOPS_KEPT = 4096
"""Mats whose develop moves a table keeps (as :data:`.mat.ACCESSIBLE_KEPT`)."""


def same(m: Any) -> Any:
    """The engine's form of engine move ``m``: itself."""
    return m


class MoveTables:
    """One board side's listed moves in the form ``name`` gives an engine move."""

    def __init__(self, rules: Rules, side: str, name: Callable[[Any], Any] = same) -> None:
        self.name = name
        board = rules.boards[side]
        self.links: dict[str, tuple[list[Any], list[Any]]] = {
            link: (
                [name(im.Network(link, site)) for site in range(n)],
                [name(im.SecondLink(link, site)) for site in range(n)],
            )
            for link, tile in rules.link_tiles.items()
            for n in [len(board.routes) if tile.rule[0] else len(board.lines)]
        }
        """Per link tile, per line (trains) or route (pipelines): the first and the second
        link move placing it there."""
        self.builds: dict[int, dict[int, dict[int, Any]]] = {}
        """Build moves by card (-1 for a whiskey's), mat space, then slot (oilfield for the
        Oil City), made when first listed (few of the many possible ones ever are)."""
        self.developed = tuple(name(im.Develop(space)) for space in range(len(rules.mat.tiles)))
        """Each mat space's develop move."""
        self.develops: dict[tuple[int, ...], list[Any]] = {}
        """The develop moves of a mat, by its content (``PittsburghVariant.develop_moves``)."""
        self.discards = [name(Discard(card)) for card in range(len(rules.cards[side].defs))]
        """Each card kind's discard (the answers to a ``discard`` step)."""
        self.done = name(Done())
        loan, pass_ = name(im.Loan()), name(im.Pass())
        self.actions = (
            Build(im.Build, self),
            Network(im.Network, self),
            Develop(im.Develop, self),
            Sell(im.Sell, lambda slot, merchant: name(im.Sell(slot, merchant))),
            Loan(im.Loan, lambda: loan),
            Pass(im.Pass, lambda: pass_),
        )
        """The variant's actions (in its order) listing from these tables: each hands its
        option hook this table as ``named``, or what makes its moves in this form."""

    def answers(self, v: PittsburghVariant, s: State, seat: int) -> list[Any] | None:
        """The pending step's answers read from these tables, for the steps listed often
        (a card to discard, the offer of a second link); ``None`` for the others."""
        kind = s.pending[0].kind
        if kind == "discard":
            return discard_options(s, seat, self.discards)
        if kind == "more_link":  # as the offer lists it: the links, then done
            return [*v.second_link_moves(s, seat, self), self.done]
        return None

    def build(self, row: dict[int, Any], card: int, space: int, slot: int, field: int) -> Any:
        """The build move of ``card`` (-1: a whiskey's) kept in ``row``, the moves of its
        card and mat space by slot (by oilfield for the Oil City), made when first listed."""
        m = row[slot if field < 0 else field] = self.name(
            im.Build(card=card, space=space, slot=slot, oilfield=field, whiskey=card < 0)
        )
        return m
