"""What the API refuses in any request, told once for both of its doors: the routes' guard
(:func:`api.app.check_request`) refuses it with a problem document, and the move lane in
front of Litestar (:mod:`api.move_lane`) hands such a request on to that guard rather than
answer it."""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

ONE_VALUE_HEADERS = ("authorization", "idempotency-key", "last-event-id", "content-type")
"""Headers the API reads one value of: sent twice, one would be used and the other dropped."""

CONTROL_CHARACTERS = r"\x00-\x1f\x7f"
"""A regular expression's character range: no path the API answers holds one of these."""

CONTROL_CHARACTER = re.compile(f"[{CONTROL_CHARACTERS}]")


class _RepeatedKey(Exception):
    pass


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _RepeatedKey(key)
        found[key] = value
    return found


# Built once: ``json.loads`` with a hook builds a decoder on every call.
_decode_pairs = json.JSONDecoder(object_pairs_hook=_unique_keys).decode


def repeated_key(body: bytes) -> str | None:
    """The first key ``body`` names twice in one object (``{"players": 2, "players": 3}``),
    which every JSON decoder here reads as one of the two, dropping the other unread; ``None``
    when each object names each key once. ``body`` is JSON that msgspec decoded (UTF-8);
    what the standard library will not read is ``None`` too (nothing known)."""
    try:
        _decode_pairs(body.decode())
    except _RepeatedKey as exc:
        return str(exc.args[0])
    except ValueError:  # UnicodeDecodeError and json's JSONDecodeError among them
        return None
    return None


_decode = msgspec.json.decode
_encode = msgspec.json.encode
_BLANKS = b" \t\n\r"


def names_each_key_once(body: bytes) -> bool:
    """Whether no object in ``body`` (JSON that msgspec decoded) names a key twice, told
    cheaply for what clients send: decoded and encoded again, the body comes back as it was
    but for blanks unless some key was named twice (read once, written once) or the client
    wrote something another way (an escape, a number's form); only then is every object's
    keys counted by :func:`repeated_key`.

    ``False`` too for a body that does not decode whole: a part decoded raw (a move's
    JSON) is not checked, so a string in it may not be UTF-8; the caller leaves such a body
    to the route, which refuses it as it refuses any body that is not JSON (400)."""
    try:
        again = _encode(_decode(body))
    except msgspec.DecodeError:
        return False
    if again == body or again.translate(None, _BLANKS) == body.translate(None, _BLANKS):
        return True
    return repeated_key(body) is None
