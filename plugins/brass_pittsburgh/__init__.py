"""Brass: Pittsburgh on the Brass-family engine (:mod:`plugins.brass`).

The board, mat and tile numbers are a PROVISIONAL designed data set (``data/README.md``);
the game shows it in ``metadata`` (``provisional``, ``data_version``).

Modules: ``data`` (files, loaded and validated against the rulebook), ``rules`` (the data
indexed once), ``board`` (a side as ints; connected over trains, never pipelines),
``mat`` (the player mat as a graph), ``markets``, ``sourcing`` and ``payment`` (where cubes
and oil come from and the cheapest plan), ``links``, ``building``, ``selling``, ``choices``
(each action's Pittsburgh rules), ``rewards``, ``industries`` (crown jewels, upgrades),
``finance``, ``scoring`` (era end), ``state``/``events``/``moves``, ``engine``
(the family resolver's hooks; ``legal_moves`` and ``decide`` share one path), ``position``
(documents), ``game`` and ``plugin``. What the family still lacks: ``FAMILY_NEEDS.md``.

Move form: see :mod:`.moves` (sequential decisions; also ``metadata["move_form"]``).

Decisions where the rulebook is silent (change them here if the official FAQ differs):

* a cube comes from the player's own resource trains at any time, else from connected
  industry tiles while any holds one, else a connected market or Vanderbilt;
* develop's metal goes to the player's network (Vanderbilt when nothing is connected);
* a new link's resources may reach either end of it; the Oil City's iron reaches a city
  piped to its oilfield; the steel train's own cube never pays for it;
* a bankrupt player pays none of that round's income (the three bankruptcy steps replace it);
* location cards may name an upgrade tile in their city but never the Oil City (an oilfield
  is not a location); with a whiskey the card is chosen after the build;
* free develops (line icon, merchant, Locomotive Works) and bonus sells are optional;
* in a sale of several tiles, each tile's oil is taken before the next tile is chosen; one
  Quality Reward may be claimed after the last, then the sold tiles flip; a bonus sell is
  such a sale without the card (one offered by a flip during a sale excludes the tiles
  that sale is selling, and its own tiles flip before that sale's remaining ones);
* when a new tile's cubes fit the connected markets in more than one way, the player
  chooses the split (``SellProduced``);
* an upgraded tile scores its printed VP as it leaves.

Readings that follow the literal rulebook (the rules audit, ``notes/bp_audit.md``, asked;
each is pinned by the named test in ``tests/``):

* a Replacement train is a heavy train "like light trains": it may go on an empty line as
  well as replace another player's light train
  (``test_replacement_train_may_also_go_on_an_empty_line``);
* a bonus sell (Skyscraper, Automobile II) is a Sell action without its card, so it may sell
  several tiles for one Quality Reward
  (``test_bonus_sell_may_sell_several_tiles_adding_their_stars``);
* develop asks only for an accessible tile, so crown jewels may be developed away
  (``test_any_accessible_tile_may_be_developed_crown_jewels_included``);
* swapping a reserve pipeline places a pipeline on the route, so the route's oil icons add
  oil again (``test_swapping_a_reserve_pipeline_adds_the_routes_oil_again``);
* "upgrades a Manufacturing industry tile" names the mat path (as "a Coal industry tile"
  does for the Polyphase Alternator), so the Locomotive Works may replace a flipped
  Automobile (``test_locomotive_works_upgrades_a_flipped_automobile``);
* setup removes only the 3-oil tile in 2 players; on the main side the oilfield left
  without a tile stays on the board, takes pipelines and gets its routes' oil
  (``test_oilfield_left_without_a_tile_in_two_players_still_takes_pipelines_and_route_oil``);
* "each consisting of 8 rounds" holds at 4 players too: the 4-player deck keeps the cards
  showing a 4 icon, like the 2- and 3-player decks (64 of 68; ``data/README.md``).

A seat with nothing on the board may build anywhere with an industry card, but never the Oil
City: that needs a pipeline to a city of the seat's network, and such a seat's is empty.
"""
