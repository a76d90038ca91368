"""A full state from one seat's view alone (``Game.determinize``, for the search bot).

Everything public is read from the view. What the seat cannot see is dealt at random from
the cards it cannot account for: the player count's deck minus its own hand and every
face-up discard, dealt into the other hands (beside their wild cards, which are public),
every face-down discard and the deck, keeping each count the view shows. The result is
the position document such a state exports, so loading it checks it like any other.
"""

from __future__ import annotations

from random import Random
from typing import Any

from plugins.brass.hidden import deal_unseen, unseen_cards
from plugins.brass_birmingham.data import INDUSTRIES, Birmingham
from plugins.brass_birmingham.names import Names
from plugins.brass_birmingham.position import FORMAT

WILD_KINDS = ("location", "industry")
"""The keys of the view's ``wild_cards`` and ``wild_supply``."""


def position_from_view(
    d: Birmingham, names: Names, view: dict[str, Any], rng: Random
) -> dict[str, Any]:
    """The position document of a state ``view`` (a seat's) cannot tell from the real one,
    its hidden cards drawn with ``rng``."""
    if view["seat"] is None:
        raise ValueError("determinize needs a seat's view, not a spectator's")
    seat, players = view["seat"], view["players"]
    n = len(players)
    cards = d.cards
    wild = (cards.wild_location, cards.wild_industry)
    own = [cards.index(c) for c in view["hand"]]
    seen = [c for c in own if c not in wild]
    seen += [cards.index(c) for p in players for c in p["discards"]]
    held_wild = [
        [w for w, key in zip(wild, WILD_KINDS, strict=True) for _ in range(p["wild_cards"][key])]
        for p in players
    ]
    hands, facedown, deck = deal_unseen(
        unseen_cards(d.deck_copies[n], seen),
        seat,
        [p["hand_count"] - len(w) for p, w in zip(players, held_wild, strict=True)],
        [p["facedown_count"] for p in players],
        view["deck_count"],
        rng,
    )
    hands[seat] = own
    name = cards.name
    in_play = view["phase"] == "play"
    turn_seat = view["turn_seat"]
    order = view["order"]
    merchants = {m["merchant"]: m for m in view["merchants"]}
    return {
        "format": FORMAT,
        "players": n,
        "era": view["era"],
        "round": view["round"],
        "phase": view["phase"],
        "order": order,
        # no seat's turn in play: a round's end waiting for a seat's decision
        "turn": order.index(turn_seat) if turn_seat is not None else (n if in_play else 0),
        "actions_left": view["actions_left"],
        "seats": [
            {
                "money": p["money"], "spent": p["spent"], "income_space": p["income_space"],
                "vp": p["vp"],
                "hand": [name(c) for c in sorted(hands[i] + held_wild[i])] if i != seat
                else view["hand"],
                "discards": p["discards"], "facedown": [name(c) for c in facedown[i]],
                "mat": {k: size - p["tiles_left"][k]
                        for k, size in zip(INDUSTRIES, d.stacks.sizes, strict=True)},
            }
            for i, p in enumerate(players)
        ],
        "deck": [name(c) for c in deck],
        "wild_supply": view["wild_supply"],
        "tiles": [
            {"space": t["space"], "owner": t["owner"], "industry": t["industry"],
             "level": t["level"], "cubes": t["resources"], "flipped": t["flipped"]}
            for t in view["tiles"]
        ],
        "links": [{"link": lk["link"], "owner": lk["owner"]} for lk in view["links"]],
        "markets": {k: m["cubes"] for k, m in view["markets"].items()},
        "merchants": [
            {"location": d.locations[loc].id,
             "tile": merchants[m]["tile"] if m in merchants else None,
             "beer": int(merchants[m]["beer"]) if m in merchants else 0}
            for m, loc in zip(names.merchant, d.merchant_loc, strict=True)
        ],
        "pending": view["pending"],
        "deciding": view["decision"]["seat"] if in_play and turn_seat is None else -1,
    }  # fmt: skip
