"""Brass: Pittsburgh's data set: the records of the JSON files in ``data/``, and loading them.

The numbers are PROVISIONAL (see ``data/README.md``): the official board, mat and tiles are
not public, so the files hold a designed data set. Replacing them with a transcription of the
official values must need no code change, so this module never names a tile, city or card.
Its records' types refuse on decode what the rules rule out (a game number other than the
rulebook's, a count below 1, an unknown resource or player count), naming the field;
:mod:`.data_checks` checks the files against what the rulebook states (component counts,
crown-jewel effects, costs in the comparison table) and against themselves (every reference
resolves).

The files are read as every Brass board's are (:class:`plugins.brass.dataset.DataSet`):
``manifest.json`` lists them, each opens with the family's ``"_"`` header (version,
source, confidence, provisional marks), and the manifest says the whole set is provisional.
Any problem raises :class:`DataError` naming the file, a stable code and a sentence.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Annotated, Any, Generic, Literal, TypeVar, get_args

import msgspec

from plugins.brass.boarddata import Amount, IncomeTable, PriceLadder, Strict
from plugins.brass.data import CodedDataError, by_id
from plugins.brass.dataset import DataSet, Manifest

DATA_DIR = Path(__file__).parent / "data"
Cube = Literal["coal", "iron", "steel", "coke"]
Resource = Literal["coal", "iron", "steel", "coke", "oil"]
CUBES: tuple[str, ...] = get_args(Cube)
"""Resource cubes; oil comes in barrels and follows its own route (pipelines first)."""
PlayerCount = Literal[2, 3, 4]
Positive = Annotated[int, msgspec.Meta(ge=1)]
T = TypeVar("T")


class DataError(CodedDataError):
    """A data file the game cannot be played with: ``file``, a stable ``code``, a sentence."""


need = DataError.check


# --- effects: every reward or special score is a typed object --------------------------------


class _Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class Money(_Effect, tag="money"):
    amount: Amount


class IncomeSpaces(_Effect, tag="income_spaces"):
    amount: Amount


class Vp(_Effect, tag="vp"):
    amount: Amount


class Whiskey(_Effect, tag="whiskey"):
    amount: Amount


class FreeDevelop(_Effect, tag="free_develop"):
    count: Amount


class BonusSell(_Effect, tag="bonus_sell"):
    pass


class MoneyTimesIncomeLevel(_Effect, tag="money_times_income_level"):
    multiplier: Amount
    min: int = 0
    """Floor of the payment (a negative income level never takes money)."""


class VpPerEmptyMatSpace(_Effect, tag="vp_per_empty_industry_space_on_mat"):
    per: Amount


class VpPerHeavyTrainBuilt(_Effect, tag="vp_per_heavy_train_built"):
    per: Amount


Effect = (
    Money
    | IncomeSpaces
    | Vp
    | Whiskey
    | FreeDevelop
    | BonusSell
    | MoneyTimesIncomeLevel
    | VpPerEmptyMatSpace
    | VpPerHeavyTrainBuilt
)


# --- file structs ----------------------------------------------------------------------------


class Cost(Strict):
    money: Amount = 0
    coal: Amount = 0
    iron: Amount = 0
    steel: Amount = 0
    coke: Amount = 0
    oil: Literal[0] = 0
    """No cost is paid in oil barrels (the rulebook); clients see the field all the same."""
    income_levels: int = 0
    """Negative: the income marker moves down that many levels."""

    def resources(self) -> dict[str, int]:
        return {r: n for r in CUBES if (n := getattr(self, r))}


class Components(Strict):
    """The box's components, as the rulebook lists them."""

    whiskey: Literal[12]
    coal: Literal[18]
    iron: Literal[14]
    steel: Literal[18]
    coke: Literal[10]
    oil: Literal[18]
    money_tokens: Literal[77]


class Constants(Strict):
    """The game's numbers: each field admits only the rulebook's value, so a file that
    differs is refused when decoded, naming the field."""

    players: tuple[Literal[2], Literal[3], Literal[4]]
    eras: Literal[2]
    rounds_per_era_nominal: Literal[8]
    starting_money: Literal[30]
    starting_vp: Literal[0]
    hand_size: Literal[8]
    extra_face_down_discard_era1: Literal[1]
    actions_per_turn: Literal[2]
    actions_first_round_era1: Literal[1]
    loan_amount: Literal[30]
    loan_income_levels: Literal[3]
    second_link_extra_money: Literal[10]
    whiskey_max: Literal[3]
    bankruptcy_vp_loss: Literal[40]
    quality_reward_spaces: Literal[3]
    oil_city_extra_barrels: Literal[3]
    oil_city_flip_money: Literal[25]
    components: Components


class Character(Strict):
    tile: int
    colour: str
    sides: list[str]


class Industry(Strict):
    id: str
    name: str
    path: str
    sellable: bool
    flip: Literal["sell", "resources_depleted", "already_flipped"]


class City(Strict):
    id: str
    name: str
    region: str
    perimeter: bool
    link_icons: Amount
    slots: list[list[str]]
    """Each slot lists the industry icons printed on it (one icon: that industry only)."""
    history: str = ""


class MerchantSpace(Strict):
    min_players: int


class Merchant(Strict):
    id: str
    name: str
    perimeter: bool
    link_icons: Amount
    spaces: list[MerchantSpace]
    history: str = ""


class SideLayout(Strict):
    id: str
    name: str
    players: list[int]
    cities: list[City]
    merchants: list[Merchant]


class BoardSidesFile(Strict):
    default_side_by_players: dict[Literal["2", "3", "4"], str]
    sides: list[SideLayout]


class PerSide(Strict, Generic[T]):
    """A file giving one record per board side (lines, routes, oilfields, markets, prices)."""

    sides: dict[str, T]


class Line(Strict):
    endpoints: tuple[str, str]
    bonus: Whiskey | IncomeSpaces | FreeDevelop | None = None

    @property
    def id(self) -> str:
        return "~".join(sorted(self.endpoints))


class PipelineRoute(Strict):
    oilfield: str
    city: str
    oil_icons: Amount

    @property
    def id(self) -> str:
        return f"{self.oilfield}~{self.city}"


class Oilfield(Strict):
    id: str
    name: str
    region: str
    min_players: int
    """From this player count on, setup puts a face-down tile here; with fewer players the
    oilfield stays in play without one (it still takes pipelines and their route oil)."""


class OilfieldsOfSide(Strict):
    oilfields: list[Oilfield]
    tile_display: list[str]
    """The oilfield tiles printed under this side: the ones a game on it uses."""


class Ladder(PriceLadder):
    """A market's ladder for one resource, as every Brass market's (cheapest first), with
    the VP its spaces print."""

    vp: Amount = 0
    """VP a seller gains for each cube sold into the ladder."""


class Market(Strict):
    id: str
    kind: Literal["coal_iron", "coke_steel"]
    city: str
    placement: Literal["inside", "perimeter"]
    ladders: dict[Cube, Ladder]


class MatPath(Strict):
    id: str
    name: str
    column: int


class MatTile(Strict):
    """One space of the player mat: a stack of ``count`` identical industry tiles."""

    id: str
    industry: str
    level: int | None
    count: Positive
    crown_jewel: bool
    cost: Cost
    upgrade_of: str | None
    """A mat path: the tile replaces one of its owner's flipped tiles of that path."""
    build_on: Literal["industry_space", "oilfield", "upgrade"]
    era: Literal["era1_only", "era2_only", "both"]
    produces: dict[Resource, Positive]
    oil_to_sell: Amount | None
    quality_stars: Amount
    flip_reward: list[Effect]
    vp: Amount
    vp_special: VpPerEmptyMatSpace | VpPerHeavyTrainBuilt | None
    link_icons: Amount
    developable: bool
    note: str = ""

    def allowed_in_era(self, era: int) -> bool:
        return self.era == "both" or self.era == f"era{era}_only"


class Arrow(Strict):
    from_: str = msgspec.field(name="from")
    to: str
    kind: Literal["path", "branch", "shortcut"]


class LinkSpace(Strict):
    link: str
    unlocked_by: str


class PlayerMatFile(Strict):
    accessibility: str
    paths: list[MatPath]
    tiles: list[MatTile]
    arrows: list[Arrow]
    link_spaces: list[LinkSpace]


class LightTrains(Strict):
    id: str
    count: Amount
    cost: Cost


class HeavyTrain(Strict):
    id: str
    type: Literal["resource", "whiskey", "double_link", "replacement"]
    carries: dict[Resource, Amount]
    reward: list[Effect]
    cost: Cost
    link_score_multiplier: Amount
    note: str = ""


class Pipeline(Strict):
    id: str
    type: Literal["money", "income", "vp", "reserve"]
    per_barrel: Money | IncomeSpaces | Vp | None
    """Paid to the owner for each barrel travelling through it; ``None`` for the reserve."""
    adds_oil_when_built: Amount
    cost: Cost

    @property
    def carries_oil(self) -> bool:
        return self.type != "reserve"


class MerchantTile(Strict):
    id: str
    accepts: list[str]
    reward: list[Effect]
    min_players: int


class OilfieldTile(Strict):
    id: str
    reward: list[Effect]
    """Paid at once to the first pipeline's owner."""
    production: Amount
    """Barrels added to the oilfield at the end of era 1 (or at once in era 2)."""
    min_players: int


class QualityReward(Strict):
    id: str
    stars_required: Positive
    reward: Annotated[list[Effect], msgspec.Meta(min_length=1)]


class IndustryType(Strict):
    label: str
    builds: list[str]


class LocationCard(Strict, tag="location", tag_field="kind"):
    id: str
    location: str
    player_counts: Annotated[list[PlayerCount], msgspec.Meta(min_length=1)]


class IndustryCard(Strict, tag="industry", tag_field="kind"):
    id: str
    industry: str
    """A key of ``industry_types``: the mat path the card builds from."""
    player_counts: Annotated[list[PlayerCount], msgspec.Meta(min_length=1)]


Card = LocationCard | IndustryCard


class CardsFile(Strict):
    industry_types: dict[str, IndustryType]
    cards: list[Card]


# --- the resolved data set -------------------------------------------------------------------


class BoardSide(msgspec.Struct, frozen=True, kw_only=True):
    """Everything printed on one side of the board, with references resolved."""

    id: str
    name: str
    players: list[int]
    cities: dict[str, City]
    merchants: dict[str, Merchant]
    lines: list[Line]
    pipeline_routes: list[PipelineRoute]
    oilfields: dict[str, Oilfield]
    oilfield_tile_display: list[str]
    markets: list[Market]
    vanderbilt: dict[str, int]


class PlayerMat(msgspec.Struct, frozen=True, kw_only=True):
    paths: list[MatPath]
    tiles: dict[str, MatTile]
    """In the file's order: paths left to right, bottom of each path first."""
    arrows: list[Arrow]
    link_spaces: list[LinkSpace]


class PittsburghData(msgspec.Struct, frozen=True, kw_only=True):
    files: DataSet
    """The files as read: manifest, headers and provisional marks."""
    constants: Constants
    characters: list[Character]
    industries: dict[str, Industry]
    default_side_by_players: dict[int, str]
    sides: dict[str, BoardSide]
    mat: PlayerMat
    light_trains: LightTrains
    heavy_trains: dict[str, HeavyTrain]
    pipelines: dict[str, Pipeline]
    merchant_tiles: dict[str, MerchantTile]
    oilfield_tiles: dict[str, OilfieldTile]
    quality_rewards: dict[str, QualityReward]
    industry_types: dict[str, IndustryType]
    cards: list[Card]
    income_track: IncomeTable

    @property
    def manifest(self) -> Manifest:
        return self.files.manifest

    @property
    def version(self) -> str:
        return self.manifest.version

    def deck_for(self, players: int) -> list[Card]:
        """Setup step 2: only the cards whose player-count icons match, at every player
        count: 4 players leave out the four cards without a 4 icon, so that each era lasts
        its 8 rounds (the loader checks 16 cards per player)."""
        return [c for c in self.cards if players in c.player_counts]

    def links_on_mat(self) -> set[str]:
        return {ls.link for ls in self.mat.link_spaces}


def _listed(field: str, record: type[Any]) -> Any:
    """A file holding its records as one list, ``{field: [...]}``."""
    return msgspec.defstruct(field, [(field, list[record])], bases=(Strict,))


BY_ID = ("industries", "heavy_trains", "pipelines", "merchant_tiles", "oilfield_tiles",
         "quality_rewards")  # fmt: skip
"""The files ``<field>.json`` listed under ``field``, read into ``PittsburghData.<field>``
by id."""
PER_SIDE = ("lines.json", "pipeline_routes.json", "oilfields.json", "markets.json",
            "vanderbilt.json")  # fmt: skip
FILES: dict[str, Any] = {
    "constants.json": Constants,
    "characters.json": _listed("characters", Character),
    "industries.json": _listed("industries", Industry),
    "board_sides.json": BoardSidesFile,
    "lines.json": PerSide[list[Line]],
    "pipeline_routes.json": PerSide[list[PipelineRoute]],
    "oilfields.json": PerSide[OilfieldsOfSide],
    "markets.json": PerSide[list[Market]],
    "vanderbilt.json": PerSide[dict[Cube, Amount]],
    "player_mat.json": PlayerMatFile,
    "light_trains.json": LightTrains,
    "heavy_trains.json": _listed("heavy_trains", HeavyTrain),
    "pipelines.json": _listed("pipelines", Pipeline),
    "merchant_tiles.json": _listed("merchant_tiles", MerchantTile),
    "oilfield_tiles.json": _listed("oilfield_tiles", OilfieldTile),
    "quality_rewards.json": _listed("quality_rewards", QualityReward),
    "cards.json": CardsFile,
    "income_track.json": IncomeTable,
}
"""Every rule file with its record, in reading order; ``layout.json`` (drawing only) is
read by :func:`.view.board_layouts`."""


# --- loading ---------------------------------------------------------------------------------


@functools.cache
def default_data() -> PittsburghData:
    """The data set shipped in ``data/``, loaded and validated once per process."""
    return load_data(DATA_DIR)


def load_data(directory: Path | str = DATA_DIR) -> PittsburghData:
    """Load every file of ``directory`` and check the whole against the rulebook and
    itself (:mod:`.data_checks`); raises :class:`DataError`."""
    from plugins.brass_pittsburgh.data_checks import check_data  # it reads this module's records

    data = _assemble(DataSet(Path(directory), FILES, check=need))
    check_data(data)
    return data


def _side(layout: SideLayout, of: dict[str, Any]) -> BoardSide:
    """A side of ``board_sides.json`` with its records of the per-side files (``of``)."""
    sid = layout.id
    by_id("board_sides.json", [*layout.cities, *layout.merchants], f"{sid} location", need)
    by_id("markets.json", of["markets.json"], f"{sid} market", need)
    oil: OilfieldsOfSide = of["oilfields.json"]
    return BoardSide(
        id=sid, name=layout.name, players=layout.players,
        cities={c.id: c for c in layout.cities}, merchants={m.id: m for m in layout.merchants},
        lines=of["lines.json"], pipeline_routes=of["pipeline_routes.json"],
        oilfields=by_id("oilfields.json", oil.oilfields, f"{sid} oilfield", need),
        oilfield_tile_display=oil.tile_display, markets=of["markets.json"],
        vanderbilt=of["vanderbilt.json"],
    )  # fmt: skip


def _assemble(files: DataSet) -> PittsburghData:
    f = files.docs
    board: BoardSidesFile = f["board_sides.json"]
    side_ids = sorted(by_id("board_sides.json", board.sides, "board side", need))
    for name in PER_SIDE:
        got = sorted(f[name].sides)
        need(got == side_ids, name, "side_mismatch",
             f"has sides {got}, but board_sides.json defines {side_ids}")  # fmt: skip
    mat: PlayerMatFile = f["player_mat.json"]
    cards: CardsFile = f["cards.json"]
    by_id("cards.json", cards.cards, "card", need)
    return PittsburghData(
        files=files, constants=f["constants.json"], characters=f["characters.json"].characters,
        default_side_by_players={int(n): s for n, s in board.default_side_by_players.items()},
        sides={s.id: _side(s, {n: f[n].sides[s.id] for n in PER_SIDE}) for s in board.sides},
        mat=PlayerMat(paths=list(by_id("player_mat.json", mat.paths, "path", need).values()),
                      tiles=by_id("player_mat.json", mat.tiles, "mat tile", need),
                      arrows=mat.arrows, link_spaces=mat.link_spaces),
        light_trains=f["light_trains.json"], industry_types=cards.industry_types,
        cards=cards.cards, income_track=f["income_track.json"],
        **{k: by_id(f"{k}.json", getattr(f[f"{k}.json"], k), k, need) for k in BY_ID},
    )  # fmt: skip
