"""Brass: Lancashire (Roxley 2018 edition), groundwork for a plugin on the Brass family.

Only the data is here so far: ``data/`` (one file per concept, see ``data/README.md`` for
each file's source and confidence) and ``data`` (loading and validating it). The game
itself waits for the family engine (``plugins/brass/ENGINE_PLAN.md``); no entry point is
registered, so the service does not offer the game yet.
"""
