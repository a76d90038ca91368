"""The client names of a board variant (Birmingham, Lancashire): the kinds of id every Brass
board has, built once from its data, and the conversion of its declared moves.

A variant's ``Names`` subclasses :class:`BoardNames` with its own examples for the refusal
sentences, adds the kinds of id only it has (Birmingham's merchant spaces, Lancashire's
sale targets) and declares its moves' conversion with :meth:`BoardNames.convert`; its
``moves`` module declares the named moves' fields with :func:`board_kinds`, and the moves
every board words alike with :func:`board_moves`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Annotated, Any, Literal, NamedTuple

from msgspec import Meta

from plugins.brass import moves as fm
from plugins.brass.client import Ids, card_ids, end_era_of
from plugins.brass.vocabulary import Declare, Same, Vocabulary


class BoardNames:
    """Every id a client sees, by engine index: industries, cards, locations, build spaces
    (``<location>:<n>``) and link lines (their ends sorted, joined by ``~``)."""

    vocabulary: Vocabulary

    def __init__(
        self,
        d: Any,
        industries: Sequence[str],
        card_examples: Sequence[str],
        space_example: str | None = None,
        link_example: str | None = None,
    ) -> None:
        self.industry = Ids(industries, "unknown_industry", "there is no industry named "
                            f"{{name}}; industries are {', '.join(industries)}")  # fmt: skip
        self.card = card_ids((d.cards.name(k) for k in range(len(d.cards))), card_examples)
        self.location = tuple(loc.id for loc in d.locations)
        self.space = Ids((d.slot_name(slot) for slot in range(d.n_slots)), "unknown_space",
                         "there is no build space {name}; spaces are '<location>:<n>' as the "
                         "view's board lists them" + _example(space_example))  # fmt: skip
        self.link = Ids(d.link_names, "unknown_link", "there is no link line {name}; lines "
                        "are their two location ids sorted and joined by '~'"
                        + _example(link_example))  # fmt: skip

    def convert(self, moves: Iterable[Any], **own: Ids | Same) -> None:
        """Convert the declared ``moves`` (``Declare.pairs``) by the board's kinds of id and
        the variant's ``own``."""
        ids = {"card": self.card, "space": self.space, "link": self.link,
               "industry": self.industry, **own}  # fmt: skip
        self.vocabulary = Vocabulary(ids, moves)

    def encode_all(self, moves: list[Any], s: Any = None) -> list[Any]:
        """The named form of the engine's moves."""
        return [self.vocabulary.encode(m) for m in moves]

    def decode(self, m: Any, s: Any = None) -> Any:
        """The engine form of named move ``m``; ``IllegalMove`` for an unknown name."""
        if type(m) is fm.ScoreEra:
            return end_era_of(self.card, m)
        return self.vocabulary.decode(m)


def card_kind(examples: Sequence[str]) -> Any:
    """The type of a named move's card field: a card as the hand shows it, described with
    the variant's ``examples`` (as the OpenAPI document shows them)."""
    return Annotated[str, Meta(description="a card as the hand shows it",
                               examples=list(examples))]  # fmt: skip


def board_kinds(
    industries: Sequence[str], cards: list[str], space: str, link: str
) -> dict[str, Any]:
    """The field types of a board's named moves by kind of id, for
    :class:`~plugins.brass.vocabulary.Declare`: an industry is one of ``industries``; a card,
    a build space and a link line are strings described with the variant's examples (as
    the OpenAPI document shows them)."""
    return {
        "card": card_kind(cards),
        "space": Annotated[str, Meta(description="a build space: location id, ':', index "
                                     "from 0", examples=[space])],
        "link": Annotated[str, Meta(description="a link line: its ends sorted, joined by '~'",
                                    examples=[link])],
        "industry": Literal[tuple(industries)],
    }  # fmt: skip


class BoardMoves(NamedTuple):
    """The named moves the board variants word alike (their ``doc`` is what the OpenAPI
    document and the client guides show)."""

    Develop: Any
    Pass: Any
    Discard: Any
    PickIron: Any
    Liquidate: Any
    DevelopAlso: Any


def board_moves(move: Declare) -> BoardMoves:
    """Declare with ``move`` (the variant's :class:`~plugins.brass.vocabulary.Declare`, on
    :func:`board_kinds`) the moves every board variant words alike; a variant whose rule
    text differs declares that move itself."""
    return BoardMoves(
        Develop=move(fm.Develop, "Remove your lowest ``industry`` tile from your mat (a second "
                     "may follow).", "industry:industry"),
        Pass=move(fm.Pass, "Discard a card and do nothing else."),
        Discard=move(fm.Discard, "Discard ``card`` to pay for the action just chosen.",
                     "card:card"),
        PickIron=move(fm.PickIron, "Take the next iron from the works on ``space``.",
                      "space>slot:space"),
        Liquidate=move(fm.Liquidate, "Round end, income unpaid: remove your industry on "
                       "``space`` for half its cost.", "space>slot:space"),
        DevelopAlso=move(fm.DevelopAlso, "Develop a second tile in this Develop action.",
                         "industry:industry"),
    )  # fmt: skip


def _example(name: str | None) -> str:
    return f" ({name!r})" if name else ""
