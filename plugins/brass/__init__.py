"""The Brass-family engine: what every Brass game shares, as data-driven helpers.

Brass: Birmingham (``plugins.brass_birmingham``) and Brass: Pittsburgh build on these
modules; a game supplies its data files and a few explicit hooks, never a copy of the logic.

Modules (each public piece carries its own docstring):

* :mod:`plugins.brass.data` -- loading a JSON data file into msgspec Structs, with
  :class:`~plugins.brass.data.DataError` naming the file and the broken fact.
* :mod:`plugins.brass.boarddata` -- the data shapes Brass boards share, read and checked
  once: file headers with provisional marks, locations and build spaces, link lines, cards
  per player count, tile tables into the mat's stacks, markets and the income track.
* :mod:`plugins.brass.income` -- the progress track's income spaces and levels: advancing by
  spaces, loans dropping by levels to the highest space of the new level, the floor.
* :mod:`plugins.brass.cards` -- card kinds (location, industry, wild), the deck by player
  count, hands as sorted lists of card kinds, refilling, reshuffling.
* :mod:`plugins.brass.turns` -- the next round's order by least spent, ties keeping order.
* :mod:`plugins.brass.graph` -- the board as locations and links; connectivity over built
  links of anyone, a player's network, distances in links, nearest-source search.
* :mod:`plugins.brass.market` -- a resource market as a ladder of prices filled from the
  expensive end: buying cheapest first, selling into the most expensive vacancies.
* :mod:`plugins.brass.mat` -- the :class:`~plugins.brass.mat.Mat` protocol (``accessible``,
  ``take``) with tile stacks per industry (levels from 1, or from 0) as one implementation,
  and develop's filter.
* :mod:`plugins.brass.build` -- build-space rules: single-icon spaces first, and which card
  may build where (``card_reach`` for listings, ``card_refusal`` for one build; both take a
  "treat as wild" flag).
* :mod:`plugins.brass.scoring` -- link scoring by endpoint icons, the final ranking with
  tie-breaks and shared places, and ``final_result`` naming the tie-breaks.
* :mod:`plugins.brass.state` -- :class:`~plugins.brass.state.BrassState` (players, money,
  income, VP, cards, turn order, the pending decision), :class:`~plugins.brass.state.
  TurnRules` and :func:`~plugins.brass.state.apply_core`, the reducer of the shared events.
* :mod:`plugins.brass.events` / :mod:`plugins.brass.moves` -- the shared events (discards,
  spending, ``Awaiting``, turns, rounds, eras) and moves (``Discard``, ``Done``,
  ``ScoreEra``; engine forms of ``Sell``, ``SellAlso``, ``Loan``, ``Pass``) a game lists in
  its unions.
* :mod:`plugins.brass.resolver` -- the turn engine: a move run to its consequences as a
  queue of steps (ask the player only where there is a choice), turns, refills, round end
  (turn order, income, the shortfall hook) and the era's end (scores, the game's era
  change, reshuffle and deal).
* :mod:`plugins.brass.hidden` -- dealing, redacting cards (drawn cards sorted, never in
  deck order), resampling what a seat cannot see, and the cards a seat cannot account
  for dealt at random (``unseen_cards``, ``deal_unseen``) for a determinization.
* :mod:`plugins.brass.first_deal` -- the setup's deal as a record's chance outcome
  (``FirstDeal``, which a game's ``SetupOutcome`` extends with its tiles): checked
  (``first_deal``, ``tiles_on_spaces``) and read back from ``Started``.
* :mod:`plugins.brass.client` / :mod:`plugins.brass.log` -- the client boundary: ids by
  index and back with clear refusals (``Ids``, ``card_ids``), the view's shared parts
  (``Doc``, ``Decision``, ``PlayerCore``, ``player_fields``, ``turn_fields``,
  ``current_decision``, ``StepView`` for the action's ``pending`` steps) and the event
  log's skeleton (``redact_log``).
* :mod:`plugins.brass.bot` -- the "greedy" bot (``bot_policy``): every legal move weighed in
  VP from the seat's view and the game's printed facts, :mod:`plugins.brass.knowledge`
  (tile tables, lines, icons, rules' numbers by the names views use, built by each game).
* :mod:`plugins.brass.evaluation` / :mod:`plugins.brass.worth` -- the search hooks'
  ``evaluate`` (each seat's expected final VP) and the VP worth of money and income both
  it and the bot use.

Brass: Birmingham (``plugins.brass_birmingham``) and Brass: Pittsburgh
(``plugins.brass_pittsburgh``) are the worked examples. What a third Brass variant provides:

1. **Data files** loaded with :func:`plugins.brass.data.load` (errors as ``DataError``) and
   read into index tables by :class:`plugins.brass.boarddata.BoardData`:
   board (locations, links, build spaces with icons), cards with copies per player count,
   tiles, merchants, markets (prices cheapest first; per-space VP and empty price optional),
   the income track, and :class:`~plugins.brass.state.TurnRules` (hand size, actions, eras).
2. **State**: a ``BrassState`` subclass with its board fields (the family's ``clone``
   copies every list field, found by type), started with ``core_fields``.
3. **Events and moves**: its own events next to ``CoreEvent`` in its ``Event`` union (tags
   never change once stored); named moves for clients and engine moves (indices), both
   listing the family's shared ones.
4. **Reducer**: ``apply`` calling ``apply_core`` for the shared events, the mat's ``take``
   for tiles leaving a mat.
5. **Resolver hooks** (a ``Resolver`` subclass): ``start``, ``resolve``, ``answer_step``,
   ``income_shortfall``; optional ``shortfall_step`` and ``era_change`` (board changes
   between an era's scores and the next deal); era scoring computes link and industry VP
   and calls ``end_era``.
6. **Mat**: ``TileStacks`` for stacks per industry, or its own class with ``accessible``
   and ``take`` (:class:`~plugins.brass.mat.Mat`).
7. **Client boundary**: ``Names`` built from ``Ids`` / ``card_ids``; a ``view`` module with
   ``Decision`` / ``PlayerCore`` subclasses, ``describe(step)`` wording each step kind and
   ``redact`` answering its ``Started`` (with ``hidden.dealt``) then ``redact_log`` with a
   ``rename`` hook for its own events; ``result`` via ``final_result`` and its tie-breaks.
8. **Game**: the :class:`core.game.Game` methods delegating to the above, ``sample_hidden``
   with ``resample_cards`` (plus any hidden board tiles), ``determinize`` (a ``determinize``
   module turning a seat's view into a position document, hidden parts drawn with
   ``unseen_cards`` and ``deal_unseen``, then loaded), and a ``plugin`` entry point.
9. **Bots** (optional): a :class:`~plugins.brass.knowledge.Knowledge` of its data for
   ``bot_policy``, and an ``evaluate`` for the search hooks (``clone`` and
   ``playout_policy`` come with :class:`~plugins.brass.game.BrassGame`).

Everything here is pure and works on plain lists and ints so games can keep state compact.
"""
