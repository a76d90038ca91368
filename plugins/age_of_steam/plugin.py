"""Entry point of the Age of Steam plugin (``ironworks.games`` group)."""

from __future__ import annotations

from typing import Any

from core.hooks import hookimpl
from plugins.age_of_steam.game import AgeOfSteam


@hookimpl
def ironworks_games() -> list[Any]:
    return [AgeOfSteam()]
