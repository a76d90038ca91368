from core.hooks import hookimpl
from highcard.game import HighCard


@hookimpl
def ironworks_games():
    return [HighCard()]
