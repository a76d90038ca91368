"""Each plugin offers one High Card variant with one metadata defect (or fails outright).

The entry points name these module attributes, which pluggy registers like modules.
"""

from __future__ import annotations

from typing import Any

from highcard.game import HighCard

from core.hooks import hookimpl


def _variant(name: str, **attrs: Any) -> Any:
    return type(name, (HighCard,), attrs)()


class InvertedPlayers:
    @staticmethod
    @hookimpl
    def ironworks_games() -> list[Any]:
        return [_variant("Inverted", id="inverted-players", min_players=4, max_players=2)]


class MissingMethods:
    @staticmethod
    @hookimpl
    def ironworks_games() -> list[Any]:
        return [_variant("NoView", id="missing-methods", view=None, redact=None)]


class OptionsNotStruct:
    @staticmethod
    @hookimpl
    def ironworks_games() -> list[Any]:
        return [_variant("DictOptions", id="options-not-struct", Options=dict)]


class HookRaises:
    @staticmethod
    @hookimpl
    def ironworks_games() -> list[Any]:
        raise ValueError("cannot build my games")


class NoHook:
    """Registered under the games group but implements no hook at all."""
