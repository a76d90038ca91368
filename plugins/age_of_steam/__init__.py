"""Age of Steam as an ironworks plugin: Rust Belt (3-6 players), Barbados (1), St. Lucia (2).

Rules: ``shared/rules/age-of-steam-rules.txt``; where it is silent, the published game.
Maps and components are data (``data/*.json``); a map's differences from the base game are
the named switches of its ``rules`` block (see :class:`data.Rules`).

API clients: ``CLIENTS.md`` (coordinates, tiles, the view of :mod:`view`, the board in
``metadata["board"]``, a worked game). Move form (``metadata["move_form"]``). Every move is
one decision:

* ``issue_shares {count}``: once per player per turn (0 issues none).
* ``bid {amount}`` / ``drop_out`` / ``turn_order_pass``; St. Lucia: ``buy_first`` /
  ``decline_first``.
* ``select_action {action}``.
* Build: ``urbanize {col,row,city}`` (Urbanization holder, before any tile), then one
  ``build {col,row,tile,rotation}`` per tile, then ``done_building`` (always needed, also
  after the last allowed tile, because it is when unfinished track is checked). ``rotation``
  turns the tile's printed picture clockwise in sixths; only the smallest rotation giving a
  picture is accepted. On a town the tile's exits become the town's spokes. Whether a build
  lays, upgrades or redirects follows from what is on the hex.
* ``move_good {col,row,color,steps}``: a full path, one hex side per link (the side the cube
  leaves its current city or town by), or ``raise_engine`` / ``pass_move``.
* ``place_cube {column}``: Production, once per drawn cube.
* System steps (``settle``, ``draw_production``, ``grow_goods``) are Tasks run by the
  service with the SYSTEM actor; dice and draws are written into their events.

Choices where the rule text is silent (published game unless said otherwise):

* Unfinished track is lost (becomes ownerless) at the end of its owner's next build unless
  a tile lengthened it; a redirect does not count. Extending ownerless track claims it.
* Replacing costs $2 (simple to coexisting, redirect) or $3 (simple to crossing, any town
  tile), terrain ignored. New track must start at a city, extend your own or ownerless
  track, or leave a town where you own track; no track may point off the map or into water,
  and no link may return to the city or town it starts from. At most 8 towns carry track.
* Urbanization on a town that has track removes the town's tile (back to the supply, its
  spokes with it); every track that reached the town now ends at the New City and keeps
  its owner (an unfinished track pointing into the town becomes a completed link of its
  owner; ownerless track stays ownerless).
* Bids may not exceed the bidder's money, and each must beat the last, so places never tie;
  the Turn Order holder's free pass may be used once at any point of the next auction (with
  two bidders left and the other one holding the high bid it changes nothing); the first to
  drop out pays nothing even if it bid, also when only two players are left in the game.
* One engine raise per Move Goods step. Delivered cubes go back to the bag. Production cubes
  go on any display column with an empty space (New City rows included, even before that
  New City is on the map: the cubes wait there).
* Elimination happens only on a shortfall that leaves income at $0 or below (rule text).
* The bag has no order: each draw is random when it happens and written into its event, so
  nothing in the game is hidden. Ties are shared (the rule text names no tie-break);
  eliminated players rank below the rest, those out later ahead of those out earlier.
* Barbados: 1 share per turn, no auction, the four actions in cycles, 2 growth dice; the
  score is money after buying back every share at $5 (``details["won"]`` = score >= 0).
* St. Lucia (options for the disputed points): the $5 first place before shares, Turn
  Order action kept by default (``st_lucia_turn_order_action``, as the Deluxe rulebook;
  its taker decides first next turn and the alternation goes on from there), a cube on
  built track moves from there and that stretch counts as one link of the engine and pays
  its owner 1 (``st_lucia_first_section_income`` = 2 adds the map sheet's extra $1); no
  Production, no growth.

:func:`policy.sensible_move` is the "greedy" bot's policy: every choice weighed by the final
score it expects afterwards (:mod:`economy` plays a seat's money to the end, :mod:`deliveries`
values its network, :mod:`projects` lists the track it could build); the service plays it
through the ``bot_policy`` hook (:mod:`bot`, from the seat's view and legal moves only). The
search bot's hooks are in :mod:`lookahead` (``clone``, ``determinize``, ``evaluate`` with
:mod:`evaluation`) and :mod:`playout_policy`. The event log reads as :mod:`log` writes it.
"""
