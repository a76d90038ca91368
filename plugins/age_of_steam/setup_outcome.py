"""The setup's draws as a chance outcome that a record may fix.

``setup`` shuffles the turn order and draws the first goods from the bag: the display's
columns first, then each city's cubes, then (on maps with goods on land) one cube per open
hex. A record may give that outcome instead (:class:`SetupOutcome`); :func:`started` checks
it is one those draws could give, in the order ``setup`` draws them, and :func:`outcome_of`
reads it back from the ``Started`` event (the ``setup_outcome`` hook).
"""

from __future__ import annotations

from typing import Any

import msgspec

from core.errors import IllegalMove
from plugins.age_of_steam import events as ev
from plugins.age_of_steam.data import Board


class SetupOutcome(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """The setup's draws (a record's ``setup``), keyed as the position document keys them."""

    order: list[int]
    """Seats in first-turn order (the shuffle that picks the first player): each seat once."""
    display: dict[str, list[str]]
    """Goods display column id -> the cubes drawn onto it (columns left empty may be left
    out)."""
    goods: dict[str, list[str]]
    """Hex ``"col,row"`` (a city, or an open hex on maps with goods on land) -> the cubes
    drawn onto it (hexes left empty may be left out)."""


class _Spot(msgspec.Struct, frozen=True):
    """A place the setup draws cubes for: ``count`` of them, none of ``refused``."""

    key: str
    count: int
    refused: str | None = None


def _display_spots(b: Board, refused_colour: Any) -> list[_Spot]:
    fill = b.rules.display_fill
    out = []
    for col in b.spec.display:
        if fill == "full":
            out.append(_Spot(col.id, col.spaces))
        elif fill == "top":
            refused = (
                refused_colour(b, col.new_city) if b.rules.display_refuses_own_colour else None
            )
            out.append(_Spot(col.id, 1, refused))
        else:
            out.append(_Spot(col.id, 0))
    return out


def _goods_spots(b: Board, easy: bool) -> list[_Spot]:
    n = b.rules.easy_city_cubes if easy and b.rules.easy_city_cubes is not None else None
    out = [_Spot(f"{c.col},{c.row}", c.cubes if n is None else n) for c in b.spec.cities]
    if b.rules.goods_on_land:
        out += [
            _Spot(f"{col},{row}", 1)
            for h, (col, row) in enumerate(b.coords)
            if b.terrain[h] in ("clear", "river") and b.town_at[h] < 0
        ]
    return out


def started(
    b: Board, outcome: SetupOutcome, map_id: str, players: int, options: dict[str, Any],
    easy: bool, refused_colour: Any,
) -> ev.Started:  # fmt: skip
    """The ``Started`` event dealing ``outcome``; ``IllegalMove`` for draws the bag and the
    shuffle cannot give. ``refused_colour(b, letter)`` is the colour a display column of
    new city ``letter`` refuses."""
    if sorted(outcome.order) != list(range(players)):
        raise IllegalMove(
            "order_not_the_seats",
            f"the turn order lists each of the {players} seats once, not {outcome.order}",
        )
    display, goods = _display_spots(b, refused_colour), _goods_spots(b, easy)
    unknown = _unknown(outcome.display, display)
    if unknown:
        raise IllegalMove("unknown_display_column", f"{unknown}: no display column of the map")
    unknown = _unknown(outcome.goods, goods)
    if unknown:
        raise IllegalMove("goods_hex", f"{unknown}: no hex the setup places goods on")
    bag = dict(b.spec.bag)
    for spot, given in [
        *((s, outcome.display.get(s.key, [])) for s in display),
        *((s, outcome.goods.get(s.key, [])) for s in goods),
    ]:
        for cube in given:
            if bag.get(cube, 0) <= 0:
                raise IllegalMove(
                    "cube_not_in_bag",
                    f"{spot.key}: no {cube!r} cube is left in the bag to draw "
                    f"(left: {', '.join(f'{c} {n}' for c, n in sorted(bag.items()) if n)})",
                )
            bag[cube] -= 1
        if spot.refused is not None and spot.refused in given:
            raise IllegalMove(
                "display_colour",
                f"display column {spot.key} takes no {spot.refused} cube (its new city's)",
            )
        short = len(given) < spot.count and any(n for c, n in bag.items() if c != spot.refused)
        if len(given) > spot.count or short:
            raise IllegalMove(
                "goods_count",
                f"{spot.key} draws {spot.count} cubes (fewer only once the bag is empty), "
                f"not {len(given)}",
            )
    placed: list[tuple[int, int, list[str]]] = []
    for i, spot in enumerate(goods):
        cubes = outcome.goods.get(spot.key, [])
        if i < len(b.spec.cities) or cubes:  # every city is listed, land hexes with a cube
            col, row = (int(x) for x in spot.key.split(","))
            placed.append((col, row, list(cubes)))
    return ev.Started(
        map=map_id, players=players, options=options, order=list(outcome.order),
        display=[list(outcome.display.get(s.key, [])) for s in display], goods=placed,
    )  # fmt: skip


def _unknown(given: dict[str, list[str]], spots: list[_Spot]) -> str:
    """The keys of ``given`` that are no place of ``spots``, named, or ``""``."""
    known = {s.key for s in spots}
    return ", ".join(sorted(set(given) - known))


def outcome_of(b: Board, event: ev.Started) -> SetupOutcome:
    """The outcome ``event`` dealt, every empty place left out."""
    return SetupOutcome(
        order=list(event.order),
        display={cid: list(c) for cid, c in zip(b.display_ids, event.display, strict=True) if c},
        goods={f"{col},{row}": list(c) for col, row, c in event.goods if c},
    )
