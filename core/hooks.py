"""pluggy hook specifications: how a package contributes games to ironworks.

A plugin is any object (usually a module) with a ``@hookimpl``-decorated
``ironworks_games`` function, exposed through the ``ironworks.games`` entry-point group::

    [project.entry-points."ironworks.games"]
    my_game = "my_package.plugin"
"""

from __future__ import annotations

from typing import Any

import pluggy

PROJECT = "ironworks"
ENTRY_POINT_GROUP = "ironworks.games"

hookspec = pluggy.HookspecMarker(PROJECT)
hookimpl = pluggy.HookimplMarker(PROJECT)


class GameSpec:
    @hookspec
    def ironworks_games(self) -> list[Any]:
        """Return the game objects (implementations of :class:`core.game.Game`) this plugin
        provides."""
        raise NotImplementedError
