"""Brass: Birmingham on the Brass-family engine (:mod:`plugins.brass`).

Modules: ``data`` (data files, validated), ``moves`` (each move declared once: the named
form clients send, the engine form of indices), ``names`` (the boundary: names to indices
and back, refusing unknown names), ``events`` (msgspec tagged unions, stored with indices),
``state`` (flat state and the reducer), ``variant`` (the game on the family engine,
:mod:`plugins.brass.turn` and :mod:`plugins.brass.actions`: its tables and its own rules,
beer, merchants and scout), ``view`` (the client view, the pending decision in words, the
readable event log, its payload shapes and the static board), ``position`` (position
documents, see "Positions" in ``CLIENTS.md``), ``bot`` (the bots' facts, playout view and
evaluation), ``game`` (the :class:`core.game.Game`), and ``plugin`` (the entry point).

Clients see names only: cards as the hand shows them (``location:cannock``,
``wild:industry``), industries by name, build spaces ``birmingham:2``, merchant spaces
``oxford:0``, links ``birmingham~dudley``. ``CLIENTS.md`` documents the moves, the view and
the decision sequence with worked examples; ``BrassBirmingham.metadata["move_form"]``
summarises the form: *sequential decisions*, each asked only when it leaves a real choice.
The state stays compact integer lists for speed; ``names`` converts at the boundary, and
each action's ``options`` builds the long lists of first moves directly in named form.
"""
