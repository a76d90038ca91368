"""Entry point of the ``brass-birmingham`` game (``ironworks.games`` group)."""

from __future__ import annotations

from core.hooks import hookimpl
from plugins.brass_birmingham.game import BrassBirmingham


@hookimpl
def ironworks_games() -> list[BrassBirmingham]:
    return [BrassBirmingham()]
