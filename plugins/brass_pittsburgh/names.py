"""The boundary between client names and engine indices.

Clients read and write names (``CLIENTS.md``); the engine keeps compact integer state for
speed. :class:`Names` holds both directions of every table (per board side where the board
decides), converts named moves (:mod:`.moves`) to engine moves (:mod:`.internal_moves`) and
back, and refuses an unknown name with an :class:`~core.errors.IllegalMove` whose sentence
says what a valid name looks like.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache, partial
from typing import Any, NoReturn

from core.errors import IllegalMove
from plugins.brass import moves as fm
from plugins.brass.client import Ids, card_ids, end_era_of, numbered
from plugins.brass.vocabulary import OrNone, Same, Vocabulary
from plugins.brass_pittsburgh import internal_moves as im
from plugins.brass_pittsburgh import moves as pm
from plugins.brass_pittsburgh.board import PittsburghBoard
from plugins.brass_pittsburgh.links import LIGHT
from plugins.brass_pittsburgh.move_tables import MoveTables
from plugins.brass_pittsburgh.rules import Rules, default_rules
from plugins.brass_pittsburgh.state import State

MEMO_KEPT = 65536
"""Engine moves whose named form a side keeps (listings repeat the same moves a lot)."""


def _refuse(code: str, sentence: str) -> NoReturn:
    raise IllegalMove(code, sentence)


PLACE_REFUSALS = {
    "space": "there is no industry space {name} on this board; spaces are '<city>:<n>' as the "
    "board metadata lists them ('erie:0')",
    "line": "there is no railroad line {name} on this board; lines are their two location ids "
    "sorted and joined by '~' ('erie~meadville')",
    "route": "there is no pipeline route {name} on this board; routes are '<oilfield>~<city>' "
    "('oil_creek~titusville')",
    "oilfield": "there is no oilfield {name} on this board; oilfields are {all}",
    "market": "there is no market {name} on this board; markets are {all}",
    "merchant": "there is no merchant space {name} on this board; merchant spaces are "
    "'<merchant>:<n>' as the view's merchants list them ('chicago:0')",
}
"""How a name of no place of each kind is refused (code ``unknown_<kind>``; ``{all}``: the
side's ids of that kind)."""


class SideNames:
    """The ids of one board side's places, by engine index, and the reverse lookups."""

    def __init__(self, board: PittsburghBoard) -> None:
        self.board = board
        self.location = tuple(board.locations)
        places = {
            "space": board.slot_name, "line": [line.id for line in board.lines],
            "route": [route.id for route in board.routes], "oilfield": board.oilfields,
            "market": [m.id for m in board.markets],
            "merchant": numbered(board.locations[node] for node, _ in board.merchant_spaces),
        }  # fmt: skip
        self.ids = {kind: Ids(names, f"unknown_{kind}",
                              PLACE_REFUSALS[kind].replace("{all}", ", ".join(names)))
                    for kind, names in places.items()}  # fmt: skip
        """The side's id tables by kind (:class:`Names` adds the mat's ``tile``, for the log)."""
        ids = self.ids
        self.space, self.line, self.route = ids["space"], ids["line"], ids["route"]
        self.oilfield, self.market, self.merchant = ids["oilfield"], ids["market"], ids["merchant"]
        self.source = {"train": self.line, "tile": self.space, "market": self.market,
                       "pipeline": self.route}  # fmt: skip
        """The ids a payment's ``at`` names, by its source (all but Vanderbilt)."""
        self.memo: dict[Any, Any] = {}
        """Engine move -> named move, for moves whose name does not depend on the state."""
        self.vocabulary: Vocabulary
        self.tables: MoveTables
        """The side's move tables holding named moves (the game's action listings read them)."""


class Names:
    """Every id a client sees, by engine index, and the reverse lookups."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        d = rules.data
        # card kinds are the same on both sides (rules.card_names)
        table = next(iter(rules.cards.values()))
        self.card = card_ids((f"{cdef.kind}:{cdef.name}" for cdef in table.defs), pm.CARD_EXAMPLES)
        self.tile = Ids(
            (t.id for t in rules.mat.tiles),
            "unknown_tile",
            "there is no player-mat space {name}; mat spaces are named by their tile id as "
            "the view's mat shows them ('K1', 'C2', 'OC')",
        )
        self.pipelines = frozenset(d.pipelines)
        self.link_tiles = frozenset({LIGHT, *d.heavy_trains, *d.pipelines})
        self.quality = frozenset(d.quality_rewards)
        self.sides = {sid: SideNames(board) for sid, board in rules.boards.items()}
        for n in self.sides.values():
            n.ids["tile"] = self.tile
            ids = {**n.ids, "card": self.card, "card?": OrNone(self.card), "same": Same(),
                   "space?": OrNone(n.space), "oilfield?": OrNone(n.oilfield)}  # fmt: skip
            n.vocabulary = Vocabulary(ids, pm.MOVES)  # type: ignore[arg-type]
        self._encoders: dict[type, Callable[[Any, SideNames], Any]] = {
            im.Network: lambda m, n: pm.Network(m.link, self._site(m.link, m.site, n)),
            im.SecondLink: lambda m, n: pm.SecondLink(m.link, self._site(m.link, m.site, n)),
            im.Pay: self._encode_pay,
            im.Build: self._encode_build,
        }
        for sid, n in self.sides.items():
            n.tables = MoveTables(rules, sid, partial(self._named, n=n))

    # --- names to indices, refusing what does not exist ---------------------------------

    def _site_index(self, link: str, site: str, n: SideNames) -> int:
        if link not in self.link_tiles:
            _refuse(
                "unknown_link",
                f"there is no link tile {link!r}; link tiles are LT (a light train), heavy "
                "trains (HT_...) and pipelines (PL_...) as your link supply lists them",
            )
        if link in self.pipelines:
            if site in n.line:
                _refuse(
                    "pipeline_on_line", f"a pipeline goes on a pipeline route, not on line {site!r}"
                )
            return n.route.index_of(site)
        if site in n.route:
            _refuse("train_on_route", f"a train goes on a railroad line, not on route {site!r}")
        return n.line.index_of(site)

    # --- moves --------------------------------------------------------------------------

    def _site(self, link: str, site: int, n: SideNames) -> str:
        return n.route[site] if link in self.pipelines else n.line[site]

    def _encode_build(self, m: im.Build, n: SideNames) -> pm.Build:
        # Written out rather than through the vocabulary's keyword table: a listing's new
        # builds are named one by one, and the table's optional fields cost a call each.
        return pm.Build(
            card=None if m.card < 0 else self.card[m.card], tile=self.tile[m.space],
            space=None if m.slot < 0 else n.space[m.slot],
            oilfield=None if m.oilfield < 0 else n.oilfield[m.oilfield], whiskey=m.whiskey,
        )  # fmt: skip

    def _encode_pay(self, m: im.Pay, n: SideNames) -> pm.Pay:
        at = None if m.source == "vanderbilt" else n.source[m.source][m.index]
        return pm.Pay(m.resource, m.source, at)  # type: ignore[arg-type]

    def encode_all(self, moves: list[Any], s: State) -> list[Any]:
        """The named form of the engine's listing for state ``s``."""
        n = self.sides[s.side]
        memo = n.memo
        # Most of a listing was named before: looked up in one pass in C, and only the
        # moves not kept (new ones, and those named from the state) named one by one.
        try:
            out = list(map(memo.get, moves))
        except TypeError:  # a produce step's sale plans hold lists: never kept
            out = [None] * len(moves)
        if not all(out):  # a named move is never false: only the misses are
            at = -1
            for _ in range(out.count(None)):  # the few misses found in C, as graph.positions
                at = out.index(None, at + 1)
                out[at] = self._encode(moves[at], s, n)
        return out

    def _encode(self, m: Any, s: State, n: SideNames) -> Any:
        t = type(m)
        if t is im.SellProduced:  # names of the state's markets, not of the move alone
            return pm.SellProduced(dict(zip(self.produce_markets(s), m.plan, strict=True)))
        if t is im.ClaimQuality:
            return pm.ClaimQuality(s.quality_rewards[m.index])
        named = self._named(m, n)
        if len(n.memo) >= MEMO_KEPT:
            n.memo.clear()
        n.memo[m] = named
        return named

    def _named(self, m: Any, n: SideNames) -> Any:
        """The named form of engine move ``m``, one whose name does not depend on the state."""
        t = type(m)
        enc, vocab = self._encoders, n.vocabulary.encoders
        if t in enc:
            return enc[t](m, n)
        if t in vocab:
            return vocab[t](m)
        return m  # Done

    def produce_markets(self, s: State) -> list[str]:
        """The markets the tile being built may sell its cubes to, in the engine's order
        (that of ``SellProduced.plan``)."""
        board = self.rules.board_of(s.side)
        slot = s.pending[0].a
        (resource,) = self.rules.data.mat.tiles[s.slot_tile[slot]].produces
        found = board.markets_connected(board.labels(s.line_owner), board.slot_node[slot], resource)
        return [self.sides[s.side].market[m] for m in found]

    def decode(self, m: Any, s: State) -> Any:
        """The engine form of named move ``m``; raises ``IllegalMove`` for unknown names."""
        n = self.sides[s.side]
        t = type(m)
        if t is pm.Build:
            _check_build_shape(m)
        elif t is pm.Network:
            return im.Network(m.link, self._site_index(m.link, m.site, n))
        elif t is pm.SecondLink:
            return im.SecondLink(m.link, self._site_index(m.link, m.site, n))
        elif t is pm.Pay:
            return self._decode_pay(m, n)
        elif t is pm.SellProduced:
            return self._decode_plan(m, s, n)
        elif t is pm.ClaimQuality:
            return self._decode_quality(m, s)
        elif t is fm.ScoreEra:  # a deal naming an unknown card is refused
            return end_era_of(self.card, m)
        return n.vocabulary.decode(m)

    def _decode_pay(self, m: pm.Pay, n: SideNames) -> im.Pay:
        src, at = m.source, m.at
        if src == "vanderbilt":
            if at is not None:
                _refuse("bad_source", "Vanderbilt delivers from nowhere: send no 'at'")
            return im.Pay(m.resource, src, -1)
        if at is None:
            _refuse("bad_source", f"say where the {m.resource} comes from: 'at' names the {src}")
        return im.Pay(m.resource, src, n.source[src].index_of(at))

    def _decode_plan(self, m: pm.SellProduced, s: State, n: SideNames) -> im.SellProduced:
        if not s.pending or s.pending[0].kind != "produce":
            _refuse("decision_pending", "no new tile's cubes are waiting to be sold to markets")
        markets = self.produce_markets(s)
        for market in m.plan:
            n.market.index_of(market)
            if market not in markets:
                _refuse(
                    "market_not_connected",
                    f"market {market!r} is not connected to the new tile; connected: "
                    f"{', '.join(markets) or 'none'}",
                )
        return im.SellProduced([m.plan.get(market, 0) for market in markets])

    def _decode_quality(self, m: pm.ClaimQuality, s: State) -> im.ClaimQuality:
        if m.reward not in self.quality:
            _refuse(
                "unknown_quality_reward",
                f"there is no Quality Rewards tile {m.reward!r}; the view's quality_rewards "
                "list those in play ('QR_3_VP')",
            )
        for i, reward in enumerate(s.quality_rewards):
            if reward == m.reward and s.quality_faceup[i]:
                return im.ClaimQuality(i)
        _refuse("quality_reward_taken", f"Quality Rewards tile {m.reward!r} is not face up")


def _check_build_shape(m: pm.Build) -> None:
    """A build names exactly one card source and exactly one place."""
    if (m.card is None) != m.whiskey:
        _refuse(
            "build_card",
            "a build names the card it discards, or sets whiskey and names no card (the "
            "card is then chosen by the discard decision)",
        )
    if (m.space is None) == (m.oilfield is None):
        _refuse(
            "build_site",
            "a build names either an industry space ('erie:0') or, for the Oil City, an "
            "oilfield, not both",
        )


@cache
def shipped_names() -> Names:
    """The names of the shipped data, built once per process."""
    return Names(default_rules())
