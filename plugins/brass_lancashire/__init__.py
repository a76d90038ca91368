"""Brass: Lancashire (Roxley 2018 edition) as a variant of the Brass family engine.

Modules: ``data`` (the data files, validated; ``data/README.md``), ``variant`` (the rules
Lancashire overrides: ports and the distant market, loans, the Double Action Build...),
``events`` and ``moves`` (its own few, beside the family's), ``state`` (the reducer),
``names`` (client names <-> indices), ``view`` (view, decisions, log, board), ``position``
(position documents, determinize), ``bot`` (greedy-bot facts, evaluate), ``game`` (the
:class:`core.game.Game` and entry point), ``plugin``. ``CLIENTS.md`` is the client guide.
"""
