"""Brass: Pittsburgh's data set: loading the JSON files in ``data/`` and validating them.

The numbers are PROVISIONAL (see ``data/README.md``): the official board, mat and tiles are
not public, so the files hold a designed data set. Replacing them with a transcription of the
official values must need no code change, so this module never names a tile, city or card;
it checks the files against what the rulebook states (component counts, crown-jewel effects,
costs in the comparison table) and against themselves (every reference resolves).

Any problem raises :class:`DataError` naming the file, a stable code and a sentence.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Literal, TypeVar

import msgspec

from plugins.brass.data import DataError as FamilyDataError
from plugins.brass.data import load
from plugins.brass.income import IncomeTrack as FamilyIncomeTrack

DATA_DIR = Path(__file__).parent / "data"
CUBES: tuple[str, ...] = ("coal", "iron", "steel", "coke")
"""Resource cubes; oil comes in barrels and follows its own route (pipelines first)."""
RESOURCES: tuple[str, ...] = (*CUBES, "oil")
T = TypeVar("T")


class DataError(FamilyDataError):
    """A data file the game cannot be played with: ``file``, a stable ``code``, a sentence."""

    def __init__(self, file: str, code: str, message: str) -> None:
        self.file, self.code, self.message = file, code, message
        super().__init__(f"{file}: {message} [{code}]")


# --- effects: every reward or special score is a typed object --------------------------------


class _Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag_field="type"):
    pass


class Money(_Effect, tag="money"):
    amount: int


class IncomeSpaces(_Effect, tag="income_spaces"):
    amount: int


class Vp(_Effect, tag="vp"):
    amount: int


class Whiskey(_Effect, tag="whiskey"):
    amount: int


class FreeDevelop(_Effect, tag="free_develop"):
    count: int


class BonusSell(_Effect, tag="bonus_sell"):
    pass


class MoneyTimesIncomeLevel(_Effect, tag="money_times_income_level"):
    multiplier: int
    min: int = 0
    """Floor of the payment (a negative income level never takes money)."""


class VpPerEmptyMatSpace(_Effect, tag="vp_per_empty_industry_space_on_mat"):
    per: int


class VpPerHeavyTrainBuilt(_Effect, tag="vp_per_heavy_train_built"):
    per: int


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


class _Strict(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    pass


class Provenance(_Strict):
    about: str
    version: str
    provisional: bool


class Cost(_Strict):
    money: int = 0
    coal: int = 0
    iron: int = 0
    steel: int = 0
    coke: int = 0
    oil: int = 0
    income_levels: int = 0
    """Negative: the income marker moves down that many levels."""

    def resources(self) -> dict[str, int]:
        return {r: n for r in RESOURCES if (n := getattr(self, r))}


class Manifest(_Strict):
    title: str
    version: str
    provisional: bool
    status: str
    rulebook_version: str
    source: str


class Components(_Strict):
    whiskey: int
    coal: int
    iron: int
    steel: int
    coke: int
    oil: int
    money_tokens: int


class Constants(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    players: list[int]
    eras: int
    rounds_per_era_nominal: int
    starting_money: int
    starting_vp: int
    hand_size: int
    extra_face_down_discard_era1: int
    actions_per_turn: int
    actions_first_round_era1: int
    loan_amount: int
    loan_income_levels: int
    second_link_extra_money: int
    whiskey_max: int
    bankruptcy_vp_loss: int
    quality_reward_spaces: int
    oil_city_extra_barrels: int
    oil_city_flip_money: int
    components: Components


class Character(_Strict):
    tile: int
    colour: str
    sides: list[str]


class CharactersFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    characters: list[Character]


class Industry(_Strict):
    id: str
    name: str
    path: str
    sellable: bool
    flip: Literal["sell", "resources_depleted", "already_flipped"]


class IndustriesFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    industries: list[Industry]


class City(_Strict):
    id: str
    name: str
    region: str
    perimeter: bool
    link_icons: int
    slots: list[list[str]]
    """Each slot lists the industry icons printed on it (one icon: that industry only)."""
    history: str = ""


class MerchantSpace(_Strict):
    min_players: int


class Merchant(_Strict):
    id: str
    name: str
    perimeter: bool
    link_icons: int
    spaces: list[MerchantSpace]
    history: str = ""


class SideLayout(_Strict):
    id: str
    name: str
    players: list[int]
    cities: list[City]
    merchants: list[Merchant]


class BoardSidesFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    default_side_by_players: dict[str, str]
    sides: list[SideLayout]


class Line(_Strict):
    endpoints: tuple[str, str]
    bonus: Whiskey | IncomeSpaces | FreeDevelop | None = None

    @property
    def id(self) -> str:
        return "~".join(sorted(self.endpoints))


class LinesFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    sides: dict[str, list[Line]]


class PipelineRoute(_Strict):
    oilfield: str
    city: str
    oil_icons: int

    @property
    def id(self) -> str:
        return f"{self.oilfield}~{self.city}"


class PipelineRoutesFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    sides: dict[str, list[PipelineRoute]]


class Oilfield(_Strict):
    id: str
    name: str
    region: str
    min_players: int
    """From this player count on, setup puts a face-down tile here; with fewer players the
    oilfield stays in play without one (it still takes pipelines and their route oil)."""


class OilfieldsOfSide(_Strict):
    oilfields: list[Oilfield]
    tile_display: list[str]
    """The oilfield tiles printed under this side: the ones a game on it uses."""


class OilfieldsFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    sides: dict[str, OilfieldsOfSide]


class LadderSpace(_Strict):
    price: int
    vp: int = 0


class Ladder(_Strict):
    spaces: list[LadderSpace]
    """Top first: the dearest space, filled first."""
    initial_cubes: int


class Market(_Strict):
    id: str
    kind: Literal["coal_iron", "coke_steel"]
    city: str
    placement: Literal["inside", "perimeter"]
    ladders: dict[str, Ladder]


class MarketsFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    sides: dict[str, list[Market]]


class VanderbiltFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    sides: dict[str, dict[str, int]]


class MatPath(_Strict):
    id: str
    name: str
    column: int


class MatTile(_Strict):
    """One space of the player mat: a stack of ``count`` identical industry tiles."""

    id: str
    industry: str
    level: int | None
    count: int
    crown_jewel: bool
    cost: Cost
    upgrade_of: str | None
    """A mat path: the tile replaces one of its owner's flipped tiles of that path."""
    build_on: Literal["industry_space", "oilfield", "upgrade"]
    era: Literal["era1_only", "era2_only", "both"]
    produces: dict[str, int]
    oil_to_sell: int | None
    quality_stars: int
    flip_reward: list[Effect]
    vp: int
    vp_special: VpPerEmptyMatSpace | VpPerHeavyTrainBuilt | None
    link_icons: int
    developable: bool
    note: str = ""

    def allowed_in_era(self, era: int) -> bool:
        return self.era == "both" or self.era == f"era{era}_only"


class Arrow(_Strict):
    from_: str = msgspec.field(name="from")
    to: str
    kind: Literal["path", "branch", "shortcut"]


class LinkSpace(_Strict):
    link: str
    unlocked_by: str


class PlayerMatFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    accessibility: str
    paths: list[MatPath]
    tiles: list[MatTile]
    arrows: list[Arrow]
    link_spaces: list[LinkSpace]


class LightTrains(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    id: str
    count: int
    cost: Cost


class HeavyTrain(_Strict):
    id: str
    type: Literal["resource", "whiskey", "double_link", "replacement"]
    carries: dict[str, int]
    reward: list[Effect]
    cost: Cost
    link_score_multiplier: int
    note: str = ""


class HeavyTrainsFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    heavy_trains: list[HeavyTrain]


class Pipeline(_Strict):
    id: str
    type: Literal["money", "income", "vp", "reserve"]
    per_barrel: Money | IncomeSpaces | Vp | None
    """Paid to the owner for each barrel travelling through it; ``None`` for the reserve."""
    adds_oil_when_built: int
    cost: Cost

    @property
    def carries_oil(self) -> bool:
        return self.type != "reserve"


class PipelinesFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    pipelines: list[Pipeline]


class MerchantTile(_Strict):
    id: str
    accepts: list[str]
    reward: list[Effect]
    min_players: int


class MerchantTilesFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    merchant_tiles: list[MerchantTile]


class OilfieldTile(_Strict):
    id: str
    reward: list[Effect]
    """Paid at once to the first pipeline's owner."""
    production: int
    """Barrels added to the oilfield at the end of era 1 (or at once in era 2)."""
    min_players: int


class OilfieldTilesFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    oilfield_tiles: list[OilfieldTile]


class QualityReward(_Strict):
    id: str
    stars_required: int
    reward: list[Effect]


class QualityRewardsFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    quality_rewards: list[QualityReward]


class IndustryType(_Strict):
    label: str
    builds: list[str]


class LocationCard(_Strict, tag="location", tag_field="kind"):
    id: str
    location: str
    player_counts: list[int]


class IndustryCard(_Strict, tag="industry", tag_field="kind"):
    id: str
    industry: str
    """A key of ``industry_types``: the mat path the card builds from."""
    player_counts: list[int]


Card = LocationCard | IndustryCard


class CardsFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    industry_types: dict[str, IndustryType]
    cards: list[Card]


class IncomeTrackFile(_Strict):
    provenance: Provenance = msgspec.field(name="_")
    start_space: int
    space_to_level: list[int]
    """Index = progress-track space, value = the income level printed under it."""


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
    manifest: Manifest
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
    income_track: IncomeTrackFile

    @property
    def version(self) -> str:
        return self.manifest.version

    def side_for(self, players: int) -> BoardSide:
        return self.sides[self.default_side_by_players[players]]

    def deck_for(self, players: int) -> list[Card]:
        """Setup step 2: only the cards whose player-count icons match, at every player
        count: 4 players leave out the four cards without a 4 icon, so that each era lasts
        its 8 rounds (the loader checks 16 cards per player)."""
        return [c for c in self.cards if players in c.player_counts]

    def links_on_mat(self) -> set[str]:
        return {ls.link for ls in self.mat.link_spaces}


# --- what the rulebook states ------------------------------------------------------------------

RULEBOOK_TILES_PER_COLOUR = 36
RULEBOOK_TILE_COUNTS = {
    "oil_city": 1,
    "locomotive_works": 1,
    "coal": 5,
    "polyphase_alternator": 1,
    "manufactured_goods": 8,
    "coke": 1,
    "automobile": 3,
    "steel": 5,
    "skyscraper": 2,
}
RULEBOOK_LINKS_PER_COLOUR = 21
RULEBOOK_SUPPLY = {"light": 9, "heavy": 2, "pipelines": 2}
RULEBOOK_CARDS = 68
RULEBOOK_OIL_TILES = 5
RULEBOOK_QUALITY_REWARDS = 6
RULEBOOK_MERCHANT_TILES = 5
RULEBOOK_PATHS = ("Kerosene", "Coal", "Manufacturing", "Coke", "Iron & Steel")
RULEBOOK_SELLABLE = {"kerosene", "manufactured_goods", "automobile"}
RULEBOOK_HEAVY_TYPES = {"resource", "whiskey", "double_link", "replacement"}
RULEBOOK_PIPELINE_TYPES = {"money", "income", "vp", "reserve"}
RULEBOOK_LINK_COSTS = {"light": Cost(coal=1), "heavy": Cost(steel=2), "pipeline": Cost(iron=1)}
RULEBOOK_MARKETS = {"coal_iron": ("coal", "iron"), "coke_steel": ("coke", "steel")}
RULEBOOK_MARKETS_PER_KIND = 3
RULEBOOK_COKE_VP_PER_CUBE = 4
RULEBOOK_CONSTANTS = {
    "players": [2, 3, 4],
    "eras": 2,
    "rounds_per_era_nominal": 8,
    "starting_money": 30,
    "starting_vp": 0,
    "hand_size": 8,
    "extra_face_down_discard_era1": 1,
    "actions_per_turn": 2,
    "actions_first_round_era1": 1,
    "loan_amount": 30,
    "loan_income_levels": 3,
    "second_link_extra_money": 10,
    "whiskey_max": 3,
    "bankruptcy_vp_loss": 40,
    "quality_reward_spaces": 3,
    "oil_city_extra_barrels": 3,
    "oil_city_flip_money": 25,
}
RULEBOOK_COMPONENTS = Components(
    whiskey=12, coal=18, iron=14, steel=18, coke=10, oil=18, money_tokens=77
)
RULEBOOK_START_SPACE, RULEBOOK_START_LEVEL, RULEBOOK_MIN_LEVEL = 10, 0, -10
CROWN_JEWELS = ("oil_city", "polyphase_alternator", "locomotive_works", "skyscraper")

FILES = (
    "manifest.json",
    "constants.json",
    "characters.json",
    "industries.json",
    "board_sides.json",
    "lines.json",
    "pipeline_routes.json",
    "oilfields.json",
    "markets.json",
    "vanderbilt.json",
    "player_mat.json",
    "light_trains.json",
    "heavy_trains.json",
    "pipelines.json",
    "merchant_tiles.json",
    "oilfield_tiles.json",
    "quality_rewards.json",
    "cards.json",
    "income_track.json",
)


# --- loading ---------------------------------------------------------------------------------


@functools.cache
def default_data() -> PittsburghData:
    """The data set shipped in ``data/``, loaded and validated once per process."""
    return load_data(DATA_DIR)


def load_data(directory: Path | str = DATA_DIR) -> PittsburghData:
    """Load every file of ``directory`` and validate the whole; raises :class:`DataError`."""
    directory = Path(directory)

    def read(name: str, kind: type[T]) -> T:
        try:
            return load(directory / name, kind)
        except FamilyDataError as exc:
            raise DataError(name, "unreadable", str(exc)) from None

    manifest = read("manifest.json", Manifest)
    files = {
        "constants.json": read("constants.json", Constants),
        "characters.json": read("characters.json", CharactersFile),
        "industries.json": read("industries.json", IndustriesFile),
        "board_sides.json": read("board_sides.json", BoardSidesFile),
        "lines.json": read("lines.json", LinesFile),
        "pipeline_routes.json": read("pipeline_routes.json", PipelineRoutesFile),
        "oilfields.json": read("oilfields.json", OilfieldsFile),
        "markets.json": read("markets.json", MarketsFile),
        "vanderbilt.json": read("vanderbilt.json", VanderbiltFile),
        "player_mat.json": read("player_mat.json", PlayerMatFile),
        "light_trains.json": read("light_trains.json", LightTrains),
        "heavy_trains.json": read("heavy_trains.json", HeavyTrainsFile),
        "pipelines.json": read("pipelines.json", PipelinesFile),
        "merchant_tiles.json": read("merchant_tiles.json", MerchantTilesFile),
        "oilfield_tiles.json": read("oilfield_tiles.json", OilfieldTilesFile),
        "quality_rewards.json": read("quality_rewards.json", QualityRewardsFile),
        "cards.json": read("cards.json", CardsFile),
        "income_track.json": read("income_track.json", IncomeTrackFile),
    }
    for name, parsed in files.items():
        prov = parsed.provenance  # type: ignore[attr-defined]
        if prov.version != manifest.version or prov.provisional != manifest.provisional:
            raise DataError(
                name,
                "version_mismatch",
                f"file is data version {prov.version!r} (provisional={prov.provisional}) but "
                f"manifest.json says {manifest.version!r} (provisional={manifest.provisional})",
            )
    data = _assemble(manifest, files)
    _validate(data)
    return data


def _by_id(file: str, items: Iterable[T], what: str) -> dict[str, T]:
    out: dict[str, T] = {}
    for item in items:
        key = item.id  # type: ignore[attr-defined]
        if key in out:
            raise DataError(file, "duplicate_id", f"{what} id {key!r} appears twice")
        out[key] = item
    return out


def _assemble(manifest: Manifest, f: dict[str, msgspec.Struct]) -> PittsburghData:
    board: BoardSidesFile = f["board_sides.json"]  # type: ignore[assignment]
    per_side_files = (
        "lines.json",
        "pipeline_routes.json",
        "oilfields.json",
        "markets.json",
        "vanderbilt.json",
    )
    side_ids = [s.id for s in board.sides]
    _by_id("board_sides.json", board.sides, "board side")
    for name in per_side_files:
        got = sorted(f[name].sides)  # type: ignore[attr-defined]
        if got != sorted(side_ids):
            raise DataError(
                name,
                "side_mismatch",
                f"has sides {got}, but board_sides.json defines {sorted(side_ids)}",
            )
    sides = {}
    for layout in board.sides:
        sid = layout.id
        cities = _by_id("board_sides.json", layout.cities, f"{sid} city")
        merchants = _by_id("board_sides.json", layout.merchants, f"{sid} merchant")
        for dup in cities.keys() & merchants.keys():
            raise DataError("board_sides.json", "duplicate_id", f"{sid}: {dup!r} is twice")
        oil: OilfieldsOfSide = f["oilfields.json"].sides[sid]  # type: ignore[attr-defined]
        sides[sid] = BoardSide(
            id=sid,
            name=layout.name,
            players=layout.players,
            cities=cities,
            merchants=merchants,
            lines=f["lines.json"].sides[sid],  # type: ignore[attr-defined]
            pipeline_routes=f["pipeline_routes.json"].sides[sid],  # type: ignore[attr-defined]
            oilfields=_by_id("oilfields.json", oil.oilfields, f"{sid} oilfield"),
            oilfield_tile_display=oil.tile_display,
            markets=f["markets.json"].sides[sid],  # type: ignore[attr-defined]
            vanderbilt=f["vanderbilt.json"].sides[sid],  # type: ignore[attr-defined]
        )
    mat: PlayerMatFile = f["player_mat.json"]  # type: ignore[assignment]
    cards: CardsFile = f["cards.json"]  # type: ignore[assignment]
    _by_id("cards.json", cards.cards, "card")
    try:
        default_side = {int(k): v for k, v in board.default_side_by_players.items()}
    except ValueError:
        raise DataError(
            "board_sides.json", "bad_value", "default_side_by_players keys must be player counts"
        ) from None
    return PittsburghData(
        manifest=manifest,
        constants=f["constants.json"],  # type: ignore[arg-type]
        characters=f["characters.json"].characters,  # type: ignore[attr-defined]
        industries=_by_id(
            "industries.json",
            f["industries.json"].industries,
            "industry",  # type: ignore[attr-defined]
        ),
        default_side_by_players=default_side,
        sides=sides,
        mat=PlayerMat(
            paths=list(_by_id("player_mat.json", mat.paths, "path").values()),
            tiles=_by_id("player_mat.json", mat.tiles, "mat tile"),
            arrows=mat.arrows,
            link_spaces=mat.link_spaces,
        ),
        light_trains=f["light_trains.json"],  # type: ignore[arg-type]
        heavy_trains=_by_id(
            "heavy_trains.json",
            f["heavy_trains.json"].heavy_trains,
            "heavy train",  # type: ignore[attr-defined]
        ),
        pipelines=_by_id("pipelines.json", f["pipelines.json"].pipelines, "pipeline"),  # type: ignore[attr-defined]
        merchant_tiles=_by_id(
            "merchant_tiles.json",
            f["merchant_tiles.json"].merchant_tiles,
            "merchant tile",  # type: ignore[attr-defined]
        ),
        oilfield_tiles=_by_id(
            "oilfield_tiles.json",
            f["oilfield_tiles.json"].oilfield_tiles,
            "oilfield tile",  # type: ignore[attr-defined]
        ),
        quality_rewards=_by_id(
            "quality_rewards.json",
            f["quality_rewards.json"].quality_rewards,
            "quality reward",  # type: ignore[attr-defined]
        ),
        industry_types=cards.industry_types,
        cards=cards.cards,
        income_track=f["income_track.json"],  # type: ignore[arg-type]
    )


# --- validation ------------------------------------------------------------------------------


def _validate(d: PittsburghData) -> None:
    _validate_constants(d)
    _validate_industries(d)
    _validate_mat(d)
    _validate_links(d)
    _validate_tiles_on_board(d)
    _validate_cards(d)
    _validate_income_track(d)
    _validate_sides(d)
    for side in d.sides.values():
        _validate_side(d, side)


def _validate_constants(d: PittsburghData) -> None:
    c = d.constants
    for key, want in RULEBOOK_CONSTANTS.items():
        got = getattr(c, key)
        if got != want:
            raise DataError(
                "constants.json",
                "rulebook_mismatch",
                f"{key} is {got!r} but the rulebook says {want!r}",
            )
    for key in msgspec.structs.fields(Components):
        got, want = getattr(c.components, key.name), getattr(RULEBOOK_COMPONENTS, key.name)
        if got != want:
            raise DataError(
                "constants.json",
                "rulebook_mismatch",
                f"components.{key.name} is {got} but the rulebook lists {want}",
            )
    if len(d.characters) * 2 < max(c.players):
        raise DataError(
            "characters.json", "count_mismatch", "there must be a character tile per player"
        )


def _validate_industries(d: PittsburghData) -> None:
    file = "industries.json"
    path_ids = {p.id for p in d.mat.paths}
    for ind in d.industries.values():
        if ind.path not in path_ids:
            raise DataError(
                file,
                "unknown_reference",
                f"industry {ind.id!r} is on mat path {ind.path!r}, which player_mat.json lacks",
            )
    sellable = {i.id for i in d.industries.values() if i.sellable}
    if sellable != RULEBOOK_SELLABLE:
        raise DataError(
            file,
            "rulebook_mismatch",
            f"sellable industries are {sorted(sellable)}; the rulebook's Sell action names "
            f"{sorted(RULEBOOK_SELLABLE)}",
        )
    for ind in d.industries.values():
        want_flip = "sell" if ind.sellable else ind.flip
        if ind.flip != want_flip:
            raise DataError(file, "bad_value", f"{ind.id} is sellable, so it must flip by 'sell'")
    for cj in CROWN_JEWELS:
        if cj not in d.industries:
            raise DataError(file, "rulebook_mismatch", f"crown jewel {cj!r} is missing")


def _mat_tiles_of(d: PittsburghData, industry: str) -> list[MatTile]:
    return [t for t in d.mat.tiles.values() if t.industry == industry]


def _validate_mat(d: PittsburghData) -> None:
    file = "player_mat.json"
    tiles = d.mat.tiles
    names = tuple(p.name for p in sorted(d.mat.paths, key=lambda p: p.column))
    if names != RULEBOOK_PATHS:
        raise DataError(
            file,
            "rulebook_mismatch",
            f"paths left to right are {list(names)}; the rulebook names {list(RULEBOOK_PATHS)}",
        )
    total = sum(t.count for t in tiles.values())
    if total != RULEBOOK_TILES_PER_COLOUR:
        raise DataError(
            file,
            "count_mismatch",
            f"the mat holds {total} industry tiles; the rulebook gives {RULEBOOK_TILES_PER_COLOUR}"
            " per colour",
        )
    for tile in tiles.values():
        if tile.industry not in d.industries:
            raise DataError(
                file,
                "unknown_reference",
                f"tile {tile.id} is of unknown industry {tile.industry!r}",
            )
        if tile.count < 1:
            raise DataError(file, "bad_value", f"tile {tile.id} has count {tile.count}")
        _check_tile(d, tile)
    for industry, want in RULEBOOK_TILE_COUNTS.items():
        got = sum(t.count for t in _mat_tiles_of(d, industry))
        if got != want:
            raise DataError(
                file,
                "count_mismatch",
                f"{got} {industry} tiles per colour; the rulebook lists {want}",
            )
    path_of = {t: d.industries[tile.industry].path for t, tile in tiles.items()}
    column = {p.id: p.column for p in d.mat.paths}
    incoming: dict[str, list[Arrow]] = {t: [] for t in tiles}
    outgoing: dict[str, list[Arrow]] = {t: [] for t in tiles}
    for arrow in d.mat.arrows:
        for end in (arrow.from_, arrow.to):
            if end not in tiles:
                raise DataError(
                    file,
                    "unknown_reference",
                    f"arrow {arrow.from_}->{arrow.to} points at unknown tile {end!r}",
                )
        same = path_of[arrow.from_] == path_of[arrow.to]
        if same == (arrow.kind == "shortcut"):
            raise DataError(
                file,
                "bad_value",
                f"arrow {arrow.from_}->{arrow.to}: a shortcut joins two paths, other arrows stay "
                "on one path",
            )
        incoming[arrow.to].append(arrow)
        outgoing[arrow.from_].append(arrow)
    for path in d.mat.paths:
        roots = [t for t in tiles if path_of[t] == path.id and not incoming[t]]
        if len(roots) != 1:
            raise DataError(
                file, "bad_graph", f"path {path.id} must have exactly one bottom tile, has {roots}"
            )
    _check_reachable_and_acyclic(tiles, incoming, outgoing)
    for p in ("manufacturing", "coke"):
        sides = {
            column[path_of[a.to]] > column[p]
            for t in tiles
            if path_of[t] == p
            for a in outgoing[t]
            if a.kind == "shortcut"
        }
        if sides != {True, False}:
            raise DataError(
                file,
                "rulebook_mismatch",
                f"the {p} path must have shortcut branches to either side",
            )
    steel_to_sky = any(
        a.kind == "branch"
        and tiles[a.from_].industry == "steel"
        and tiles[a.to].industry == "skyscraper"
        for a in d.mat.arrows
    )
    if not steel_to_sky:
        raise DataError(file, "rulebook_mismatch", "the Steel path must branch into Skyscrapers")
    for tile in tiles.values():
        if tile.crown_jewel and any(a.kind != "shortcut" for a in outgoing[tile.id]):
            raise DataError(
                file, "bad_graph", f"crown jewel {tile.id} must sit at the top of its path"
            )
    seen: set[str] = set()
    for ls in d.mat.link_spaces:
        if not (ls.link in d.heavy_trains or ls.link in d.pipelines):
            raise DataError(file, "unknown_reference", f"link space holds unknown link {ls.link!r}")
        if ls.link in seen:
            raise DataError(file, "duplicate_id", f"link {ls.link} sits on the mat twice")
        seen.add(ls.link)
        if ls.unlocked_by not in tiles:
            raise DataError(
                file,
                "unknown_reference",
                f"link {ls.link} is unlocked by unknown tile {ls.unlocked_by!r}",
            )
        if tiles[ls.unlocked_by].count != 1:
            raise DataError(
                file,
                "bad_value",
                f"link {ls.link} must sit above a single-tile space, not {ls.unlocked_by}",
            )


def _check_reachable_and_acyclic(
    tiles: dict[str, MatTile], incoming: dict[str, list[Arrow]], outgoing: dict[str, list[Arrow]]
) -> None:
    indegree = {t: len(incoming[t]) for t in tiles}
    ready = [t for t, n in indegree.items() if n == 0]
    order = 0
    while ready:
        t = ready.pop()
        order += 1
        for a in outgoing[t]:
            indegree[a.to] -= 1
            if indegree[a.to] == 0:
                ready.append(a.to)
    stuck = sorted(t for t, n in indegree.items() if n > 0)
    if order != len(tiles):
        raise DataError("player_mat.json", "bad_graph", f"the arrows form a cycle through {stuck}")


def _check_tile(d: PittsburghData, tile: MatTile) -> None:
    file = "player_mat.json"
    ind = d.industries[tile.industry]
    where = f"tile {tile.id}"
    if tile.cost.oil:
        raise DataError(file, "bad_value", f"{where}: no build cost is paid in oil barrels")
    if tile.crown_jewel != (tile.industry in CROWN_JEWELS):
        raise DataError(
            file,
            "bad_value",
            f"{where}: crown_jewel must be true exactly for the four crown jewels",
        )
    if (tile.oil_to_sell is not None) != ind.sellable:
        raise DataError(
            file, "bad_value", f"{where}: oil_to_sell is given exactly for sellable industries"
        )
    if not (ind.sellable or tile.quality_stars == 0):
        raise DataError(file, "bad_value", f"{where}: only sellable industries show quality stars")
    if (ind.flip == "resources_depleted") != bool(tile.produces):
        raise DataError(
            file,
            "bad_value",
            f"{where}: tiles that flip by depletion produce resources, others do not",
        )
    for res, n in tile.produces.items():
        if not (res in RESOURCES and n > 0):
            raise DataError(file, "bad_value", f"{where}: produces {n} {res}")
    if (tile.build_on == "upgrade") != (tile.upgrade_of is not None):
        raise DataError(file, "bad_value", f"{where}: build_on 'upgrade' goes with upgrade_of")
    if tile.upgrade_of is not None and tile.upgrade_of not in {p.id for p in d.mat.paths}:
        raise DataError(
            file, "unknown_reference", f"{where} upgrades unknown path {tile.upgrade_of!r}"
        )
    rules = _CROWN_JEWEL_RULES.get(tile.industry)
    if rules is not None:
        for problem in rules(d, tile):
            raise DataError(file, "rulebook_mismatch", f"{where}: {problem}")


def _oil_city_rules(d: PittsburghData, t: MatTile) -> Iterable[str]:
    c = d.constants
    if t.build_on != "oilfield":
        yield "Oil City is built directly on an oilfield"
    if t.era != "era2_only":
        yield "Oil City is built in era 2 only"
    if t.produces != {"oil": c.oil_city_extra_barrels}:
        yield f"Oil City adds {c.oil_city_extra_barrels} barrels"
    if t.flip_reward != [Money(c.oil_city_flip_money)]:
        yield f"Oil City flips for ${c.oil_city_flip_money}"


def _polyphase_rules(d: PittsburghData, t: MatTile) -> Iterable[str]:
    if t.upgrade_of != "coal" or t.build_on != "upgrade":
        yield "the Polyphase Alternator upgrades a Coal tile"
    if d.industries[t.industry].flip != "already_flipped":
        yield "the Polyphase Alternator is already flipped"
    if not any(isinstance(e, MoneyTimesIncomeLevel) and e.multiplier == 2 for e in t.flip_reward):
        yield "the Polyphase Alternator pays 2x the income"
    if not isinstance(t.vp_special, VpPerEmptyMatSpace):
        yield "the Polyphase Alternator scores per empty industry space on the mat"


def _locomotive_rules(d: PittsburghData, t: MatTile) -> Iterable[str]:
    if t.upgrade_of != "manufacturing" or t.build_on != "upgrade":
        yield "the Locomotive Works upgrades a Manufacturing tile"
    if t.era != "era2_only":
        yield "the Locomotive Works is built in era 2 only"
    if d.industries[t.industry].flip != "already_flipped":
        yield "the Locomotive Works is already flipped"
    if FreeDevelop(3) not in t.flip_reward:
        yield "the Locomotive Works gives 3 free develops"
    if t.vp_special != VpPerHeavyTrainBuilt(4):
        yield "the Locomotive Works scores 4 VP per heavy train built"


def _skyscraper_rules(d: PittsburghData, t: MatTile) -> Iterable[str]:
    if d.industries[t.industry].flip != "already_flipped":
        yield "the Skyscraper is already flipped"
    if BonusSell() not in t.flip_reward:
        yield "the Skyscraper gives a bonus sell action"


_CROWN_JEWEL_RULES = {
    "oil_city": _oil_city_rules,
    "polyphase_alternator": _polyphase_rules,
    "locomotive_works": _locomotive_rules,
    "skyscraper": _skyscraper_rules,
}


def _validate_links(d: PittsburghData) -> None:
    on_mat = d.links_on_mat()
    light = d.light_trains
    if light.count != RULEBOOK_SUPPLY["light"]:
        raise DataError(
            "light_trains.json",
            "count_mismatch",
            f"{light.count} light trains; the rulebook puts {RULEBOOK_SUPPLY['light']} in the "
            f"personal supply ({RULEBOOK_LINKS_PER_COLOUR} link tiles per colour in all)",
        )
    total = light.count + len(d.heavy_trains) + len(d.pipelines)
    if total != RULEBOOK_LINKS_PER_COLOUR:
        raise DataError(
            "heavy_trains.json",
            "count_mismatch",
            f"{light.count} light + {len(d.heavy_trains)} heavy + {len(d.pipelines)} pipelines = "
            f"{total} link tiles per colour; the rulebook gives {RULEBOOK_LINKS_PER_COLOUR}",
        )
    supply = {
        "light": light.count,
        "heavy": len(d.heavy_trains.keys() - on_mat),
        "pipelines": len(d.pipelines.keys() - on_mat),
    }
    if supply != RULEBOOK_SUPPLY:
        raise DataError(
            "player_mat.json",
            "count_mismatch",
            f"the personal supply at setup would be {supply}; the rulebook says {RULEBOOK_SUPPLY}",
        )
    if light.cost != RULEBOOK_LINK_COSTS["light"]:
        raise DataError("light_trains.json", "rulebook_mismatch", "a light train costs 1 coal")
    types = {h.type for h in d.heavy_trains.values()}
    if types != RULEBOOK_HEAVY_TYPES:
        raise DataError(
            "heavy_trains.json",
            "rulebook_mismatch",
            f"heavy train types are {sorted(types)}; the rulebook names "
            f"{sorted(RULEBOOK_HEAVY_TYPES)}",
        )
    for h in d.heavy_trains.values():
        where = f"heavy train {h.id}"
        if h.cost != RULEBOOK_LINK_COSTS["heavy"]:
            raise DataError(
                "heavy_trains.json", "rulebook_mismatch", f"{where}: a heavy train costs 2 steel"
            )
        if bool(h.carries) != (h.type == "resource"):
            raise DataError(
                "heavy_trains.json",
                "bad_value",
                f"{where}: exactly the resource trains carry resources",
            )
        for res in h.carries:
            if res not in RESOURCES:
                raise DataError("heavy_trains.json", "bad_value", f"{where}: carries {res}")
        if (h.link_score_multiplier == 2) != (h.type == "double_link"):
            raise DataError(
                "heavy_trains.json",
                "rulebook_mismatch",
                f"{where}: only the double link train scores double",
            )
        if h.type == "whiskey" and not any(isinstance(e, Whiskey) for e in h.reward):
            raise DataError(
                "heavy_trains.json",
                "rulebook_mismatch",
                f"{where}: the whiskey train gives whiskey",
            )
    variants = {r for h in d.heavy_trains.values() for r in h.carries}
    if not {"coke", "steel", "oil"} <= variants:
        raise DataError(
            "heavy_trains.json",
            "rulebook_mismatch",
            "resource trains carry coke, steel or oil barrels; each variant must exist",
        )
    types = {p.type for p in d.pipelines.values()}
    if types != RULEBOOK_PIPELINE_TYPES:
        raise DataError(
            "pipelines.json",
            "rulebook_mismatch",
            f"pipeline types are {sorted(types)}; the rulebook names "
            f"{sorted(RULEBOOK_PIPELINE_TYPES)}",
        )
    paid_as = {"money": Money, "income": IncomeSpaces, "vp": Vp}
    for p in d.pipelines.values():
        where = f"pipeline {p.id}"
        if p.cost != RULEBOOK_LINK_COSTS["pipeline"]:
            raise DataError(
                "pipelines.json", "rulebook_mismatch", f"{where}: a pipeline costs 1 iron"
            )
        if p.type == "reserve":
            if not (p.per_barrel is None and p.adds_oil_when_built == 1):
                raise DataError(
                    "pipelines.json",
                    "rulebook_mismatch",
                    f"{where}: a reserve pipeline adds 1 oil and pays nothing",
                )
        else:
            if not (isinstance(p.per_barrel, paid_as[p.type]) and p.adds_oil_when_built == 0):
                raise DataError(
                    "pipelines.json",
                    "bad_value",
                    f"{where}: a {p.type} pipeline pays {p.type} per barrel and adds no oil",
                )


def _validate_tiles_on_board(d: PittsburghData) -> None:
    mt = d.merchant_tiles
    if len(mt) != RULEBOOK_MERCHANT_TILES:
        raise DataError(
            "merchant_tiles.json",
            "count_mismatch",
            f"{len(mt)} merchant tiles; the rulebook lists {RULEBOOK_MERCHANT_TILES}",
        )
    removed = [t.id for t in mt.values() if t.min_players > 2]
    fifteen = [t.id for t in mt.values() if Money(15) in t.reward]
    if not (removed == fifteen and len(fifteen) == 1):
        raise DataError(
            "merchant_tiles.json",
            "rulebook_mismatch",
            "exactly one merchant tile rewards $15 and only it is removed in a 2-player game "
            f"(removed: {removed}, $15: {fifteen})",
        )
    for t in mt.values():
        bad = set(t.accepts) - RULEBOOK_SELLABLE
        if bad:
            raise DataError(
                "merchant_tiles.json",
                "unknown_reference",
                f"merchant tile {t.id} shows {sorted(bad)}, which cannot be sold",
            )
    for players in d.constants.players:
        shown = {i for t in mt.values() if t.min_players <= players for i in t.accepts}
        if shown != RULEBOOK_SELLABLE:
            raise DataError(
                "merchant_tiles.json",
                "bad_value",
                f"with {players} players no merchant tile buys {sorted(RULEBOOK_SELLABLE - shown)}",
            )
    ot = d.oilfield_tiles
    if len(ot) != RULEBOOK_OIL_TILES:
        raise DataError(
            "oilfield_tiles.json",
            "count_mismatch",
            f"{len(ot)} oilfield tiles; the rulebook lists {RULEBOOK_OIL_TILES}",
        )
    removed = [t.id for t in ot.values() if t.min_players > 2]
    three = [t.id for t in ot.values() if t.production == 3]
    if not (removed == three and len(three) == 1):
        raise DataError(
            "oilfield_tiles.json",
            "rulebook_mismatch",
            "exactly one oilfield tile produces 3 oil and only it is removed in a 2-player game "
            f"(removed: {removed}, producing 3: {three})",
        )
    qr = d.quality_rewards
    if len(qr) != RULEBOOK_QUALITY_REWARDS:
        raise DataError(
            "quality_rewards.json",
            "count_mismatch",
            f"{len(qr)} Quality Rewards tiles; the rulebook lists {RULEBOOK_QUALITY_REWARDS}",
        )
    for t in qr.values():
        if not (t.stars_required > 0 and t.reward):
            raise DataError(
                "quality_rewards.json",
                "bad_value",
                f"{t.id} needs a positive star requirement and a reward",
            )


def _validate_cards(d: PittsburghData) -> None:
    file = "cards.json"
    if len(d.cards) != RULEBOOK_CARDS:
        raise DataError(
            file, "count_mismatch", f"{len(d.cards)} cards; the rulebook lists {RULEBOOK_CARDS}"
        )
    built = Counter(i for t in d.industry_types.values() for i in t.builds)
    for ind in d.industries:
        if built[ind] != 1:
            raise DataError(
                file,
                "bad_value",
                f"industry {ind!r} must be built by exactly one card type, is by {built[ind]}",
            )
    for name, t in d.industry_types.items():
        for ind in t.builds:
            if ind not in d.industries:
                raise DataError(
                    file, "unknown_reference", f"card type {name} builds unknown industry {ind!r}"
                )
    for card in d.cards:
        counts = card.player_counts
        if not (bool(counts) and set(counts) <= set(d.constants.players)):
            raise DataError(file, "bad_value", f"card {card.id} shows player counts {counts}")
        if isinstance(card, IndustryCard):
            if card.industry not in d.industry_types:
                raise DataError(
                    file,
                    "unknown_reference",
                    f"card {card.id} shows unknown industry type {card.industry!r}",
                )
            continue
        for side in d.sides.values():
            for players in set(counts) & set(side.players):
                if card.location not in side.cities:
                    raise DataError(
                        file,
                        "unknown_reference",
                        f"card {card.id} names {card.location!r}, which is no city on the "
                        f"{side.id} side used with {players} players",
                    )
    c = d.constants
    # An era's cards: era 1 spends one face-down card and every action of its rounds (one
    # fewer in round 1), era 2 every action; either way "8 rounds" fixes the deck size.
    era1 = (
        c.extra_face_down_discard_era1
        + c.actions_first_round_era1
        + (c.rounds_per_era_nominal - 1) * c.actions_per_turn
    )
    era2 = c.rounds_per_era_nominal * c.actions_per_turn
    for players in c.players:
        deck = len(d.deck_for(players))
        if deck != players * era1 or deck != players * era2:
            raise DataError(
                file,
                "count_mismatch",
                f"{deck} cards show the {players}-player icon; {c.rounds_per_era_nominal} "
                f"rounds per era need {players * era2} ({era2} per player)",
            )


def _validate_income_track(d: PittsburghData) -> None:
    file = "income_track.json"
    try:
        track = FamilyIncomeTrack(d.income_track.space_to_level, d.income_track.start_space)
    except FamilyDataError as exc:
        raise DataError(file, "bad_value", str(exc)) from None
    start = track.start_space
    if start != RULEBOOK_START_SPACE or track.level(start) != RULEBOOK_START_LEVEL:
        raise DataError(
            file, "rulebook_mismatch", "the income marker starts on space 10, income level 0"
        )
    if track.min_level != RULEBOOK_MIN_LEVEL:
        raise DataError(file, "rulebook_mismatch", "the lowest income level is -10, on space 0")


def _validate_sides(d: PittsburghData) -> None:
    for players, chosen in d.default_side_by_players.items():
        if chosen not in d.sides:
            raise DataError(
                "board_sides.json",
                "unknown_reference",
                f"default side for {players} players is unknown side {chosen!r}",
            )
        if players not in d.sides[chosen].players:
            raise DataError(
                "board_sides.json",
                "bad_value",
                f"default side {chosen} for {players} players is not marked for {players}",
            )
    two = [s.id for s in d.sides.values() if s.players == [2]]
    if not (len(two) == 1 and len(d.sides) == 2):
        raise DataError(
            "board_sides.json",
            "rulebook_mismatch",
            "the board has two sides, one marked for 2 players",
        )


def _validate_side(d: PittsburghData, side: BoardSide) -> None:
    sid = side.id
    places = side.cities.keys() | side.merchants.keys()
    kinds_on_slots = {i for c in side.cities.values() for slot in c.slots for i in slot}
    for city in side.cities.values():
        for slot in city.slots:
            for ind in slot:
                if ind not in d.industries:
                    raise DataError(
                        "board_sides.json",
                        "unknown_reference",
                        f"{sid}: {city.id} has a slot for unknown industry {ind!r}",
                    )
    for tile in d.mat.tiles.values():
        if tile.build_on == "industry_space" and tile.industry not in kinds_on_slots:
            raise DataError(
                "board_sides.json", "bad_value", f"{sid}: no slot allows {tile.industry}"
            )
    for players in side.players:
        spaces = sum(
            1 for m in side.merchants.values() for s in m.spaces if s.min_players <= players
        )
        tiles = sum(1 for t in d.merchant_tiles.values() if t.min_players <= players)
        if spaces != tiles:
            raise DataError(
                "board_sides.json",
                "count_mismatch",
                f"{sid} with {players} players: {spaces} merchant spaces for {tiles} tiles",
            )
    _validate_lines(side, places)
    _validate_oil(d, side)
    _validate_markets(d, side)


def _validate_lines(side: BoardSide, places: set[str]) -> None:
    file, sid = "lines.json", side.id
    seen: set[str] = set()
    adjacent: dict[str, set[str]] = {p: set() for p in places}
    for line in side.lines:
        a, b = line.endpoints
        for end in (a, b):
            if end not in places:
                raise DataError(
                    file,
                    "unknown_reference",
                    f"{sid}: line {line.id} ends at unknown location {end!r}",
                )
        if a == b:
            raise DataError(file, "bad_value", f"{sid}: line {line.id} joins a location to itself")
        if line.id in seen:
            raise DataError(file, "duplicate_id", f"{sid}: line {line.id} is twice")
        seen.add(line.id)
        adjacent[a].add(b)
        adjacent[b].add(a)
    lonely = sorted(p for p, n in adjacent.items() if not n)
    if lonely:
        raise DataError(
            file, "bad_value", f"{sid}: {lonely} have no railroad line, so they are not locations"
        )
    start = next(iter(sorted(places)))
    reached, frontier = {start}, [start]
    while frontier:
        for nxt in adjacent[frontier.pop()] - reached:
            reached.add(nxt)
            frontier.append(nxt)
    if reached != places:
        raise DataError(
            "lines.json",
            "bad_graph",
            f"{sid}: {sorted(places - reached)} cannot be reached by rail",
        )


def _validate_oil(d: PittsburghData, side: BoardSide) -> None:
    sid = side.id
    seen: set[str] = set()
    for route in side.pipeline_routes:
        if route.oilfield not in side.oilfields:
            raise DataError(
                "pipeline_routes.json",
                "unknown_reference",
                f"{sid}: route {route.id} starts at unknown oilfield {route.oilfield!r}",
            )
        if route.city not in side.cities:
            raise DataError(
                "pipeline_routes.json",
                "unknown_reference",
                f"{sid}: route {route.id} ends at unknown city {route.city!r}",
            )
        if route.oil_icons < 0:
            raise DataError(
                "pipeline_routes.json",
                "bad_value",
                f"{sid}: route {route.id} shows {route.oil_icons} oil icons",
            )
        if route.id in seen:
            raise DataError(
                "pipeline_routes.json", "duplicate_id", f"{sid}: route {route.id} is twice"
            )
        seen.add(route.id)
    served = {r.oilfield for r in side.pipeline_routes}
    for field in side.oilfields:
        if field not in served:
            raise DataError(
                "pipeline_routes.json",
                "bad_value",
                f"{sid}: no pipeline route reaches oilfield {field}",
            )
        if field in side.cities or field in side.merchants:
            raise DataError(
                "oilfields.json", "bad_value", f"{sid}: oilfield {field} must not be a location"
            )
    for tid in side.oilfield_tile_display:
        if tid not in d.oilfield_tiles:
            raise DataError(
                "oilfields.json",
                "unknown_reference",
                f"{sid}: the tile display shows unknown oilfield tile {tid!r}",
            )
    for players in side.players:
        fields = sum(1 for o in side.oilfields.values() if o.min_players <= players)
        shown = sum(
            1 for t in side.oilfield_tile_display if d.oilfield_tiles[t].min_players <= players
        )
        if fields != shown:
            raise DataError(
                "oilfields.json",
                "count_mismatch",
                f"{sid} with {players} players: {fields} oilfields for {shown} oilfield tiles",
            )


def _validate_markets(d: PittsburghData, side: BoardSide) -> None:
    file, sid = "markets.json", side.id
    _by_id(file, side.markets, f"{sid} market")
    per_kind = Counter(m.kind for m in side.markets)
    if per_kind != dict.fromkeys(RULEBOOK_MARKETS, RULEBOOK_MARKETS_PER_KIND):
        raise DataError(
            file,
            "count_mismatch",
            f"{sid}: markets per kind are {dict(per_kind)}; want 3 Coal & Iron and 3 Coke & Steel",
        )
    initial: Counter[str] = Counter()
    top_price: dict[str, int] = {}
    for m in side.markets:
        where = f"{sid}: market {m.id}"
        if m.city not in side.cities:
            raise DataError(file, "unknown_reference", f"{where} sits at unknown city {m.city!r}")
        if sorted(m.ladders) != sorted(RULEBOOK_MARKETS[m.kind]):
            raise DataError(
                file, "bad_value", f"{where} ({m.kind}) has ladders {sorted(m.ladders)}"
            )
        if (m.placement == "perimeter") != side.cities[m.city].perimeter:
            raise DataError(
                file,
                "bad_value",
                f"{where}: placement {m.placement!r} disagrees with {m.city}'s perimeter flag",
            )
        for res, ladder in m.ladders.items():
            prices = [s.price for s in ladder.spaces]
            if not (
                bool(prices)
                and prices == sorted(prices, reverse=True)
                and len(set(prices)) == len(prices)
            ):
                raise DataError(
                    file,
                    "bad_value",
                    f"{where}: {res} prices {prices} must fall strictly from the top space",
                )
            want = 1 if res == "coke" else len(prices)
            if ladder.initial_cubes != want:
                raise DataError(
                    file,
                    "rulebook_mismatch",
                    f"{where}: {res} starts with {ladder.initial_cubes} cubes; setup puts {want}",
                )
            vps = {s.vp for s in ladder.spaces}
            if res == "coke" and vps != {RULEBOOK_COKE_VP_PER_CUBE}:
                raise DataError(
                    file,
                    "rulebook_mismatch",
                    f"{where}: every coke space gives {RULEBOOK_COKE_VP_PER_CUBE} VP",
                )
            initial[res] += ladder.initial_cubes
            top_price[res] = max(top_price.get(res, 0), prices[0])
    for res, n in initial.items():
        have = getattr(d.constants.components, res)
        if n > have:
            raise DataError(
                file, "count_mismatch", f"{sid}: setup needs {n} {res} cubes, the box has {have}"
            )
    vb = side.vanderbilt
    if sorted(vb) != sorted(CUBES):
        raise DataError(
            "vanderbilt.json",
            "bad_value",
            f"{sid}: Vanderbilt prices are for {sorted(vb)}; he delivers exactly {list(CUBES)}",
        )
    for res, price in vb.items():
        if price <= top_price.get(res, 0):
            raise DataError(
                "vanderbilt.json",
                "bad_value",
                f"{sid}: Vanderbilt's {res} price ${price} must be above every market price",
            )
