"""Brass: Birmingham on the Brass-family engine (:mod:`plugins.brass`).

Modules: ``data`` (data files, validated), ``moves`` and ``events`` (msgspec tagged
unions), ``state`` (flat state and the reducer), ``engine`` (checks shared by ``decide``
and ``legal_moves``, the step resolver, turns, rounds and era scoring), ``position``
(position documents, see ``POSITION.md``), ``game`` (the :class:`core.game.Game`), and
``plugin`` (the entry point).

Move form (also in ``BrassBirmingham.metadata["move_form"]``): *sequential decisions*.
The first move of an action names the action and its main choice -- ``Build(card, slot,
industry)``, ``Network(link)``, ``Develop(industry)``, ``Sell(slot, merchant)``, ``Loan()``,
``Scout()``, ``Pass()``. Every further choice the rules leave to the player is then asked
as its own decision, and only when more than one option exists (a single option is taken
automatically): ``Discard(card)`` for the card paying a non-build action (three for Scout),
``PickCoal(slot)`` among tied nearest mines (recomputed after each cube), ``PickIron(slot)``
among works with iron, ``PickBeer(slot)`` / ``PickMerchantBeer()`` among beer sources, and
the optional continuations ``SecondLink(link)`` (double rail), ``SellAlso(slot, merchant)``,
``DevelopAlso(industry)``, ``FreeDevelop(industry)`` (Gloucester) or ``Done()``. Market coal
and iron are bought automatically once the board has none to offer. At a round's end a
seat that cannot pay its negative income and owns two or more industries is asked
``Liquidate(slot)`` (one at a time, until the debt is covered) before the round ends.
Era scoring is the system move ``ScoreEra()``.

Indices: cards are card kinds (``data.cards``), slots are build spaces numbered across the
board, links and merchant spaces follow ``data/board.json``; ``view`` and positions use
names (``birmingham:0``, ``birmingham~dudley``, ``location:coventry``).
"""
