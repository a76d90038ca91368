"""Entry point of the Brass: Pittsburgh plugin (group ``ironworks.games``).

The game is offered with its PROVISIONAL data set; ``metadata["provisional"]`` and
``metadata["data_version"]`` tell users so.
"""

from __future__ import annotations

from core.hooks import hookimpl
from plugins.brass_pittsburgh.game import BrassPittsburgh


@hookimpl
def ironworks_games() -> list[BrassPittsburgh]:
    return [BrassPittsburgh()]
