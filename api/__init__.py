"""The REST API: a Litestar app over :class:`core.service.MatchService`, plus the CLI."""

from importlib.metadata import PackageNotFoundError, version


def package_version() -> str:
    """The installed ironworks distribution's version."""
    try:
        return version("ironworks")
    except PackageNotFoundError:  # a source tree that was never installed
        return "0+unknown"
