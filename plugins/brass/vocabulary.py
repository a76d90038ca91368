"""Moves in both forms from one declaration: the named form clients send, the engine's.

A game declares each of its moves once, as a :class:`MovePair`: the named class (what the
OpenAPI document and the client guide show), the engine class (indices, what the actions
work on) and, per field, the kind of id it carries (``card``, ``space``, ``link``,
``industry``, ``merchant``...). :class:`Vocabulary` converts by field kind with the game's
:class:`~plugins.brass.client.Ids` tables, so decoding refuses an unknown name with the
table's own sentence, and no game writes a converter per move.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from inspect import signature
from typing import Any, NamedTuple

import msgspec

from plugins.brass.client import Ids


class MovePair(NamedTuple):
    """One move in both forms; ``fields`` are ``(named field, engine field, id kind)``."""

    named: type
    engine: type
    fields: tuple[tuple[str, str, str], ...] = ()


def fields(*spec: str) -> tuple[tuple[str, str, str], ...]:
    """Field specs from ``"named>engine:kind"`` strings (``"space>slot:space"``), or
    ``"name:kind"`` when both forms call the field the same."""
    out = []
    for item in spec:
        names, kind = item.split(":")
        named, _, engine = names.partition(">")
        out.append((named, engine or named, kind))
    return tuple(out)


class Vocabulary:
    """Converts the declared moves between forms with ``ids`` (an :class:`Ids` per kind)."""

    def __init__(self, ids: Mapping[str, Ids], pairs: Iterable[MovePair]) -> None:
        self.decoders: dict[type, Callable[[Any], Any]] = {}
        """By named class: its engine form (listings convert in bulk through these)."""
        self.encoders: dict[type, Callable[[Any], Any]] = {}
        """By engine class: its named form."""
        for pair in pairs:
            named, engine, spec = pair
            self.decoders[named] = _converter(named, engine, spec, ids, True)
            self.encoders[engine] = _converter(engine, named, spec, ids, False)

    def decode(self, m: Any) -> Any:
        """The engine form of named ``m`` (``m`` itself if undeclared, as ``Done``)."""
        convert = self.decoders.get(type(m))
        return m if convert is None else convert(m)

    def encode(self, m: Any) -> Any:
        """The named form of engine ``m`` (``m`` itself if undeclared)."""
        convert = self.encoders.get(type(m))
        return m if convert is None else convert(m)


def _converter(
    source: type,
    target: type,
    spec: tuple[tuple[str, str, str], ...],
    ids: Mapping[str, Ids],
    decoding: bool,
) -> Callable[[Any], Any]:
    if not spec:
        made = target()
        return lambda m: made  # a field-less move: one shared instance
    # (source field, table), in the order of the target's fields
    by_target = {(e if decoding else n): (n if decoding else e, ids[k]) for n, e, k in spec}
    order = [by_target[name] for name in target.__struct_fields__]  # type: ignore[attr-defined]
    # one or two fields (every Brass move): written out, as answers are encoded in bulk
    positional = all(p.kind is not p.KEYWORD_ONLY for p in signature(target).parameters.values())
    if len(order) == 1 and positional:
        ((f, table),) = order
        if decoding:
            return lambda m: target(table.index_of(getattr(m, f)))
        return lambda m: target(table[getattr(m, f)])
    if len(order) == 2 and positional:
        (f, table), (g, other) = order
        if decoding:
            return lambda m: target(table.index_of(getattr(m, f)), other.index_of(getattr(m, g)))
        return lambda m: target(table[getattr(m, f)], other[getattr(m, g)])
    # more fields, or a keyword-only class (Pittsburgh's builds): by keyword
    named = list(zip(target.__struct_fields__, order, strict=True))  # type: ignore[attr-defined]
    if decoding:
        return lambda m: target(**{n: table.index_of(getattr(m, f)) for n, (f, table) in named})
    return lambda m: target(**{n: table[getattr(m, f)] for n, (f, table) in named})


class Same:
    """The id table of a field both forms carry as it is (a flag, a tile id); like
    :class:`OrNone`, it goes in a :class:`Vocabulary`'s ``ids`` beside the :class:`Ids`."""

    def index_of(self, value: Any) -> Any:
        return value

    def __getitem__(self, value: Any) -> Any:
        return value


class OrNone:
    """``ids`` for a field a move may leave out: ``None`` in the named form, -1 in the
    engine's."""

    def __init__(self, ids: Ids) -> None:
        self.ids = ids

    def index_of(self, name: str | None) -> int:
        return -1 if name is None else self.ids.index_of(name)

    def __getitem__(self, i: int) -> str | None:
        return None if i < 0 else self.ids[i]


class Declare:
    """A game's moves, each declared once: a call makes the named class from the engine
    class (its ``name``, default the engine's; the same tag; the named fields
    ``"named>engine:kind"`` typed by ``types[kind]``, or by a keyword of the field's name;
    ``doc``, what the OpenAPI document and the client guide show) and records the
    :class:`MovePair` in :attr:`pairs`. ``defaults`` gives named fields a default (fields
    a client may leave out), ``options`` the struct's own (``kw_only``, ``omit_defaults``);
    ``convert=False`` leaves the pair out of :attr:`pairs`, for a move the game converts
    itself (a field whose id table depends on another field or on the state)."""

    def __init__(self, module: str, types: Mapping[str, Any]) -> None:
        self.module, self.types = module, types
        self.pairs: list[MovePair] = []

    def __call__(
        self, engine: type, doc: str, *spec: str, name: str = "",
        defaults: Mapping[str, Any] = {}, options: Mapping[str, bool] = {},
        convert: bool = True, **named_types: Any,
    ) -> Any:  # fmt: skip
        pair = fields(*spec)
        typed = [(n, named_types.get(n) or self.types[k]) for n, _, k in pair]
        named = msgspec.defstruct(
            name or engine.__name__,
            [(n, t, defaults[n]) if n in defaults else (n, t) for n, t in typed],
            tag=engine.__struct_config__.tag, frozen=True, module=self.module,  # type: ignore[attr-defined]
            namespace={"__doc__": doc}, **options,
        )  # fmt: skip
        if convert:
            self.pairs.append(MovePair(named, engine, pair))
        return named
