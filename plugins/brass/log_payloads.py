"""The structs the Brass games' log payloads follow (``Game.LogPayloads``): what
:func:`plugins.brass.log.redact_log` serves for each stored event, as types the OpenAPI
document describes.

Most served payloads are the stored event's fields with some renamed and engine indices
written as client names (strings); :func:`served` builds such a struct from the stored one.
The events that carry secret cards, and the pending decision, have shapes of their own
here. A game's table says, per event, what it renames and retypes, next to the ``rename``
hook that does it; ``tests/test_served_event_schemas.py`` checks every payload served in
real matches against these structs, both ways (no field missing, none extra).

A game whose own events only rename fields and write ids as names declares each once, as a
:class:`Named` in a table: :func:`rename_named` serves them and :func:`named_payloads` gives
their payload structs, so the log and the OpenAPI document cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple, get_origin

import msgspec

from plugins.brass import events as ev


class _Payload(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    pass


class DrewLog(_Payload, kw_only=True):
    seat: int
    count: int
    cards: list[str] | None
    """By name, sorted, for the seat that drew them; ``null`` for everybody else."""


class EraBeganLog(_Payload, kw_only=True):
    era: int
    deck_count: int
    hand_counts: list[int]
    hand: list[str] | None
    """The reading seat's new hand by name; ``null`` for a spectator."""


class DiscardedLog(_Payload, kw_only=True):
    seat: int
    cards: list[str]
    """Face up, by name."""


def served(
    stored: type[msgspec.Struct],
    renamed: dict[str, str] | None = None,
    retyped: dict[str, Any] | None = None,
    added: dict[str, Any] | None = None,
    dropped: tuple[str, ...] = (),
) -> type[msgspec.Struct]:
    """The struct of ``stored``'s served payload: its fields (the tag aside), ``renamed``
    (stored name -> served name), then the served names in ``retyped`` given new types,
    ``dropped`` ones left out and the optional ``added`` ones appended."""
    renamed, retyped = renamed or {}, retyped or {}
    fields: list[Any] = []
    for field in msgspec.structs.fields(stored):
        name = renamed.get(field.name, field.name)
        if name in dropped:
            continue
        kind = retyped.get(name, field.type)
        fields.append((name, kind) if field.required else (name, kind, field.default))
    fields += [(name, kind | None, None) for name, kind in (added or {}).items()]
    return msgspec.defstruct(
        f"{stored.__name__}Log", fields, bases=(_Payload,), kw_only=True,
        module=__name__,
    )  # fmt: skip


def family_payloads(decision: type[msgspec.Struct]) -> dict[str, type[msgspec.Struct]]:
    """The served payloads of the family's shared events, ``decision`` being the game's
    struct for a pending decision (``awaiting``)."""
    awaiting = msgspec.defstruct(
        "AwaitingLog", [("deciding", int | None), ("decision", decision)], bases=(_Payload,),
        kw_only=True, module=__name__,
    )  # fmt: skip
    shapes: dict[str, type[msgspec.Struct]] = {
        "awaiting": awaiting, "drew": DrewLog, "era_began": EraBeganLog,
        "discarded": DiscardedLog,
    }  # fmt: skip
    for event in (ev.Paid, ev.ActionDone, ev.RoundEnded, ev.EraScored, ev.GameEnded):
        shapes[event.__struct_config__.tag] = served(event)
    return shapes


class Named(NamedTuple):
    """How the log serves one of a game's stored events: fields ``renamed`` (stored name ->
    served name), then the served fields in ``ids`` written as client ids by the game's id
    table of that kind (an index, or a list of them), ``added`` fields the game fills from
    the match (the payload's optional fields), and ``retyped`` ones the game's hook serves
    in another shape (their served types: a per-place list as ``{id: value}``, say)."""

    renamed: Mapping[str, str] = {}
    ids: Mapping[str, str] = {}
    added: Mapping[str, Any] = {}
    retyped: Mapping[str, Any] = {}


def named_payloads(table: Mapping[type, Named]) -> dict[str, type[msgspec.Struct]]:
    """The served payload of each event of ``table``, by tag: ids are strings (a list of
    ids a list of strings)."""
    out = {}
    for stored, spec in table.items():
        kinds = {spec.renamed.get(f.name, f.name): f.type for f in msgspec.structs.fields(stored)}
        ids = {n: list[str] if get_origin(kinds[n]) is list else str for n in spec.ids}
        tag = stored.__struct_config__.tag  # type: ignore[attr-defined]
        out[tag] = served(stored, dict(spec.renamed), {**ids, **spec.retyped}, dict(spec.added))
    return out


def rename_named(
    table: Mapping[type, Named], ids: Mapping[str, Any], e: Any, out: dict[str, Any]
) -> dict[str, Any]:
    """The ``rename`` hook of :func:`plugins.brass.log.redact_log` for the events of
    ``table`` (any other event is served as stored), ``ids`` the game's tables by kind."""
    spec = table.get(type(e))
    if spec is None:
        return out
    if spec.renamed:
        out = {spec.renamed.get(k, k): v for k, v in out.items()}
    for field, kind in spec.ids.items():
        value, names = out[field], ids[kind]
        out[field] = [names[i] for i in value] if isinstance(value, list) else names[value]
    return out
