"""Brass: Lancashire (Roxley 2018) as a variant of the Brass family engine: ``variant``
(its rules), ``events``/``moves`` (its own few), ``state``, ``names``, ``view``,
``position``, ``bot``, ``game`` (the Game and entry point); ``CLIENTS.md`` the guide."""
