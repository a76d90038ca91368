"""Entry point of the ``brass-lancashire`` game (``ironworks.games`` group)."""

from plugins.brass_lancashire.game import ironworks_games

__all__ = ["ironworks_games"]
