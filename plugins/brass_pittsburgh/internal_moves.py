"""Brass: Pittsburgh moves as the engine works on them: board and mat indices (sequential
decisions on the family turn engine; see ``game.MOVE_FORM``). Clients never see these: they
send and read the named moves of :mod:`.moves`, converted by :mod:`.names`.

Indices: ``card`` is a card kind, ``space`` a mat space, ``slot`` an industry slot, ``site``
a railroad line (trains) or pipeline route (pipelines), ``merchant`` a merchant space, all
in the orders of :mod:`.rules` / :mod:`.board`.

The moves listings make most (builds, links, develops) keep their hash: listings hand out
the same instances, made once per side (:mod:`.move_tables`); the game's action listings
read the named twins of those tables instead, and naming the rest
(:meth:`.names.Names.encode_all`, a memo by move) then hashes each once.
"""

from __future__ import annotations

import msgspec

from plugins.brass.moves import Discard, Loan, Pass, Sell, SellAlso

__all__ = ["Discard", "Loan", "Pass", "Sell", "SellAlso"]  # the family's, used as they are


class Build(msgspec.Struct, tag="build", frozen=True, kw_only=True, cache_hash=True):
    """Build the top tile of mat ``space`` on ``slot`` (or, for the Oil City, on
    ``oilfield``), paying with ``card``; with ``whiskey`` the card is chosen next
    (``card`` is then -1) and a whiskey makes it any location or industry card."""

    card: int
    space: int
    slot: int = -1
    oilfield: int = -1
    whiskey: bool = False


class Network(msgspec.Struct, tag="network", frozen=True, cache_hash=True):
    """Place ``link`` (``LT`` or a heavy train or pipeline id) on line or route ``site``."""

    link: str
    site: int


class SecondLink(msgspec.Struct, tag="second_link", frozen=True, cache_hash=True):
    """Pay $10 more and place a second link in this Network action."""

    link: str
    site: int


class Develop(msgspec.Struct, tag="develop", frozen=True, cache_hash=True):
    """Remove the top tile of mat ``space`` (a second may follow)."""

    space: int


class DevelopAlso(msgspec.Struct, tag="develop_also", frozen=True, cache_hash=True):
    space: int


class FreeDevelop(msgspec.Struct, tag="free_develop", frozen=True, cache_hash=True):
    """Use a free develop (line bonus, merchant, Locomotive Works) on mat ``space``."""

    space: int


class BonusSell(msgspec.Struct, tag="bonus_sell", frozen=True):
    """The bonus sell (Skyscraper, some flips): sell ``slot`` to ``merchant``, no card."""

    slot: int
    merchant: int


class Pay(msgspec.Struct, tag="pay", frozen=True):
    """Take the next ``resource`` from ``source`` (``train``, ``tile``, ``market``,
    ``vanderbilt`` or ``pipeline``) numbered ``index`` (-1 for Vanderbilt)."""

    resource: str
    source: str
    index: int


class SellProduced(msgspec.Struct, tag="sell_produced", frozen=True):
    """Split the new tile's cubes among the connected markets: ``plan[i]`` cubes to the
    ``i``-th connected market (in board order)."""

    plan: list[int]


class ClaimQuality(msgspec.Struct, tag="claim_quality", frozen=True):
    """Claim the face-up Quality Rewards tile in space ``index``, spending the whiskey it
    needs beyond the sale's stars."""

    index: int
