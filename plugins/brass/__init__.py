"""The Brass-family engine: what every Brass game shares, as data-driven helpers.

Brass: Birmingham (``plugins.brass_birmingham``) and Brass: Pittsburgh build on these
modules; a game supplies its data files and a few explicit hooks, never a copy of the logic.

Modules (each public piece carries its own docstring):

* :mod:`plugins.brass.data` -- loading a JSON data file into msgspec Structs, with
  :class:`~plugins.brass.data.DataError` naming the file and the broken fact.
* :mod:`plugins.brass.income` -- the progress track's income spaces and levels: advancing by
  spaces, loans dropping by levels to the highest space of the new level, the floor.
* :mod:`plugins.brass.cards` -- card kinds (location, industry, wild), the deck by player
  count, hands as sorted lists of card kinds, refilling, reshuffling.
* :mod:`plugins.brass.turns` -- the next round's order by least spent, ties keeping order.
* :mod:`plugins.brass.graph` -- the board as locations and links; connectivity over built
  links of anyone, a player's network, distances in links, nearest-source search.
* :mod:`plugins.brass.market` -- a resource market as a ladder of prices filled from the
  expensive end: buying cheapest first, selling into the most expensive vacancies.
* :mod:`plugins.brass.mat` -- the player mat as tile stacks per industry; the lowest tile,
  developing, the hook for games whose mat is a graph of paths.
* :mod:`plugins.brass.build` -- build-space rules: single-icon spaces first, one industry
  per location per player in the first era, which card may name which build.
* :mod:`plugins.brass.scoring` -- link scoring by endpoint icons, flipped-industry VP, the
  final ranking with tie-breaks and shared places.
* :mod:`plugins.brass.state` -- :class:`~plugins.brass.state.BrassState` (players, money,
  income, VP, cards, turn order, the pending decision), :class:`~plugins.brass.state.
  TurnRules` and :func:`~plugins.brass.state.apply_core`, the reducer of the shared events.
* :mod:`plugins.brass.events` / :mod:`plugins.brass.moves` -- the shared events (discards,
  spending, ``Awaiting``, turns, rounds, eras) and moves (``Discard``, ``Done``,
  ``ScoreEra``) a game lists in its unions.
* :mod:`plugins.brass.resolver` -- the turn engine: a move run to its consequences as a
  queue of steps (ask the player only where there is a choice), turns, refills, round end
  (turn order, income, the shortfall hook) and the era's end (reshuffle and deal).
* :mod:`plugins.brass.hidden` -- dealing, redacting cards, resampling what a seat cannot see.

A game provides: its data (loaded with :mod:`plugins.brass.data`), a state subclassing
``BrassState`` with its board, a reducer calling ``apply_core``, and a ``Resolver``
subclass with four hooks (``start``, ``resolve``, ``answer_step``, ``income_shortfall``).
Brass: Birmingham (``plugins.brass_birmingham``) is the worked example.

Everything here is pure and works on plain lists and ints so games can keep state compact.
"""
