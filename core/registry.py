"""The game registry: games from entry points and from explicitly registered plugins.

A plugin that fails to import, or offers something that is not a valid game, is recorded
in :attr:`GameRegistry.problems` and skipped; it never stops the service.
"""

from __future__ import annotations

import logging
from importlib.metadata import entry_points
from typing import Any

import msgspec
import pluggy

from core.errors import NotFound
from core.hooks import ENTRY_POINT_GROUP, PROJECT, GameSpec

log = logging.getLogger(__name__)

_REQUIRED_METHODS = (
    "setup", "evolve", "decide", "legal_moves", "view", "redact",
    "pending_tasks", "result", "export_position", "load_position", "sample_hidden",
)  # fmt: skip


class PluginProblem(msgspec.Struct, frozen=True):
    plugin: str
    error: str


class GameRegistry:
    def __init__(self) -> None:
        self._pm = pluggy.PluginManager(PROJECT)
        self._pm.add_hookspecs(GameSpec)
        self._games: dict[str, Any] = {}
        self.problems: list[PluginProblem] = []

    def load_entry_points(self, group: str = ENTRY_POINT_GROUP) -> None:
        for ep in entry_points(group=group):
            try:
                plugin = ep.load()
            except Exception as exc:  # a third party's import error must not stop us
                self._problem(ep.name, f"import failed: {type(exc).__name__}: {exc}")
                continue
            self.register(plugin, name=ep.name)

    def register(self, plugin: object, name: str | None = None) -> None:
        """Register a plugin object (a module or instance with ``ironworks_games``)."""
        name = name or getattr(plugin, "__name__", None) or type(plugin).__name__
        if self._pm.is_registered(plugin) or self._pm.has_plugin(name):
            return
        try:
            self._pm.register(plugin, name=name)
            offered = plugin.ironworks_games()  # type: ignore[attr-defined]
        except Exception as exc:
            if self._pm.is_registered(plugin):
                self._pm.unregister(plugin)
            self._problem(name, f"registration failed: {type(exc).__name__}: {exc}")
            return
        for game in offered or ():
            error = validate_game(game)
            if error is None and game.id in self._games and self._games[game.id] is not game:
                error = f"game id {game.id!r} is already provided by another plugin"
            if error:
                self._problem(name, error)
                continue
            self._games[game.id] = game

    def _problem(self, name: str, error: str) -> None:
        log.warning("plugin %s skipped: %s", name, error)
        self.problems.append(PluginProblem(plugin=name, error=error))

    def get(self, game_id: str) -> Any:
        try:
            return self._games[game_id]
        except KeyError:
            raise NotFound("unknown_game", f"no game {game_id!r} is installed") from None

    def games(self) -> list[Any]:
        return [self._games[k] for k in sorted(self._games)]

    def __contains__(self, game_id: str) -> bool:
        return game_id in self._games


def validate_game(game: Any) -> str | None:
    """Why ``game`` is not a usable game, or ``None`` if it is."""
    gid = getattr(game, "id", None)
    if not isinstance(gid, str) or not gid or not gid.replace("-", "").replace("_", "").isalnum():
        return f"bad game id {gid!r}: want a non-empty slug"
    for attr in ("title", "rules_version"):
        if not isinstance(getattr(game, attr, None), str):
            return f"game {gid}: {attr} must be a string"
    lo, hi = getattr(game, "min_players", None), getattr(game, "max_players", None)
    if not (isinstance(lo, int) and isinstance(hi, int) and 1 <= lo <= hi):
        return f"game {gid}: min_players/max_players must be integers with 1 <= min <= max"
    options = getattr(game, "Options", None)
    if not (isinstance(options, type) and issubclass(options, msgspec.Struct)):
        return f"game {gid}: Options must be a msgspec Struct type"
    for attr in ("Move", "Event"):
        if getattr(game, attr, None) is None:
            return f"game {gid}: {attr} union is missing"
    missing = [m for m in _REQUIRED_METHODS if not callable(getattr(game, m, None))]
    if missing:
        return f"game {gid}: missing methods {', '.join(missing)}"
    metadata = getattr(game, "metadata", {})
    if not isinstance(metadata, dict):
        return f"game {gid}: metadata must be a dict"
    # The API serves these to clients; a plugin whose types cannot be encoded, decoded or
    # described would otherwise fail on every request that touches it.
    try:
        msgspec.json.encode(metadata)
    except (TypeError, msgspec.EncodeError) as exc:
        return f"game {gid}: metadata must be JSON-encodable ({exc})"
    try:
        options()
    except TypeError as exc:
        return f"game {gid}: every option needs a default ({exc})"
    for attr in ("Options", "Move", "Event"):
        try:
            msgspec.json.Decoder(getattr(game, attr))
            msgspec.json.schema(getattr(game, attr))
        except (TypeError, ValueError) as exc:
            return f"game {gid}: {attr} is not a usable msgspec type ({exc})"
    return None


def default_registry() -> GameRegistry:
    """Every game installed through the ``ironworks.games`` entry points."""
    registry = GameRegistry()
    registry.load_entry_points()
    return registry
