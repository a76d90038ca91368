"""Brass: Pittsburgh on the Brass-family engine (:mod:`plugins.brass`).

The board, mat and tile numbers are a PROVISIONAL designed data set (``data/README.md``);
the game shows it in ``metadata`` (``provisional``, ``data_version``).

Modules: ``data`` (files, loaded and validated against the rulebook), ``rules`` (the data
indexed once), ``board`` (a side as ints; connected over trains, never pipelines),
``mat`` (the player mat as a graph), ``markets``, ``sourcing`` and ``payment`` (where cubes
and oil come from and the cheapest plan), ``links``, ``building``, ``selling``, ``choices``
(each action's Pittsburgh rules), ``rewards``, ``industries`` (crown jewels, upgrades),
``finance``, ``eras`` and ``scoring`` (era end), ``state``/``events``/``moves``, ``engine``
(the family resolver's hooks; ``legal_moves`` and ``decide`` share one path), ``position``
(documents), ``game`` and ``plugin``. What the family still lacks: ``FAMILY_NEEDS.md``.

Move form: see :mod:`.moves` (sequential decisions; also ``metadata["move_form"]``).

Decisions where the rulebook is silent (change them here if the official FAQ differs):

* a cube comes from the player's own resource trains at any time, else from connected
  industry tiles while any holds one, else a connected market or Vanderbilt;
* develop's metal goes to the player's network (Vanderbilt when nothing is connected);
* a new link's resources may reach either end of it; the Oil City's iron reaches a city
  piped to its oilfield; the steel train's own cube never pays for it;
* swapping a reserve pipeline does not pay the route's oil icons again;
* a bankrupt player pays none of that round's income (the three bankruptcy steps replace it);
* location cards may name an upgrade tile in their city but never the Oil City (an oilfield
  is not a location); with a whiskey the card is chosen after the build;
* free develops (line icon, merchant, Locomotive Works) and bonus sells are optional;
* in a sale of several tiles, each tile's oil is taken before the next tile is chosen; one
  Quality Reward may be claimed after the last, then the sold tiles flip;
* when a new tile's cubes fit the connected markets in more than one way, the player
  chooses the split (``SellProduced``);
* an upgraded tile scores its printed VP as it leaves.
"""
