"""A Brass game's data set read from a manifest: the variant declares each file's Struct.

``manifest.json`` names the set's version and its files; a variant lists its rule files
with the Struct of each (``{"board.json": BoardFile, ...}``) and checks only what is its
own. Every file opens with a ``"_"`` header, read apart from the body so the variant's
Structs never repeat it: its version must be the manifest's (a half-replaced set cannot
load), and each provisional fact it marks is a path into the file with the value chosen
and the alternative; a mark whose path no longer leads to its value is refused, so a fact
cannot be changed while still claiming to be the doubtful one. Drawing-only files
(``layout.json``) are listed in the manifest but read by their own loader
(:func:`plugins.brass.layout.load_layout`); :meth:`DataSet.check_version` holds them to
the set's version. Every problem raises :class:`plugins.brass.data.DataError` naming the
file and the field (through the variant's coded check, when it gives one).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Literal

import msgspec

from plugins.brass.boarddata import Strict
from plugins.brass.data import CodedCheck, convert, load, uncoded


class Provisional(Strict):
    path: list[str | int]
    value: Any
    alternative: Any
    why: str


class Header(Strict):
    """A file's ``"_"`` record: its data version, source, confidence and doubtful facts."""

    about: str
    version: str
    source: str
    confidence: Literal["high", "medium", "low"]
    provisional: list[Provisional] = []


class Manifest(Strict):
    title: str
    edition: str
    """The printing, or the rulebook version, whose rules the set follows."""
    version: str
    source: str
    files: list[str]
    provisional: bool = False
    """The whole set is doubtful (designed where no printed value is public), beyond the
    facts its files mark; games show it to their users."""
    status: str = ""
    """A sentence on the set's standing, for users (a provisional set says why)."""


class _Headed(msgspec.Struct):
    """A file's header alone (its body is decoded apart, into the variant's Struct)."""

    header: Header = msgspec.field(name="_")


class DataSet:
    """The rule files of one data directory, each decoded into its declared Struct
    (``docs[name]``) once the manifest lists exactly ``files`` and ``drawing`` and the
    file's header agrees with the manifest; ``check`` refuses a file (a variant's coded
    check: ``unreadable``, ``bad_value`` or ``version_mismatch``)."""

    def __init__(
        self,
        directory: Path,
        files: Mapping[str, type[Any]],
        drawing: Sequence[str] = ("layout.json",),
        check: CodedCheck = uncoded,
    ) -> None:
        self.directory, self.check = directory, check
        self.manifest = load(directory / "manifest.json", Manifest, check)
        want = [*files, *drawing]
        check(
            sorted(self.manifest.files) == sorted(want),
            "manifest.json",
            "bad_value",
            f"files: must list exactly {', '.join(want)}",
        )
        self.headers: dict[str, Header] = {}
        self.docs: dict[str, Any] = {name: self._read(name, kind) for name, kind in files.items()}

    def _read(self, name: str, kind: type[Any]) -> Any:
        raw = load(self.directory / name, dict[str, Any], self.check)
        self.headers[name] = header = convert(raw, _Headed, name, self.check).header
        check_header(name, header, self.manifest.version, raw, self.check)
        return convert({key: v for key, v in raw.items() if key != "_"}, kind, name, self.check)

    def check_version(self, name: str, header: Mapping[str, Any]) -> None:
        """A drawing file's header (a plain mapping) names the set's version."""
        version = header.get("version")
        self.check(
            version == self.manifest.version,
            name,
            "version_mismatch",
            f"_.version {version!r} is stale",
        )

    def provisional(self) -> dict[str, list[Provisional]]:
        """Per file, the facts still marked provisional (for metadata and the guide)."""
        return {name: h.provisional for name, h in self.headers.items() if h.provisional}


def check_header(
    file: str, header: Header, version: str, raw: Any, check: CodedCheck = uncoded
) -> None:
    """The file (decoded as ``raw``) belongs to the data set of ``version``, and each
    provisional mark's path still leads to its value."""
    check(
        header.version == version,
        file,
        "version_mismatch",
        f"_.version {header.version!r} is not the manifest's {version!r}",
    )
    for i, mark in enumerate(header.provisional):
        node: Any = raw
        for step in mark.path:
            ok = (isinstance(node, dict) and isinstance(step, str) and step in node) or (
                isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)
            )
            check(ok, file, "bad_value", f"_.provisional[{i}].path {mark.path} leads nowhere")
            node = node[step]
        check(
            node == mark.value,
            file,
            "bad_value",
            f"_.provisional[{i}]: {mark.path} holds {node!r}, not the marked {mark.value!r}",
        )
