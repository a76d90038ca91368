"""The REST API: a Litestar app over :class:`core.service.MatchService`, plus the CLI."""
