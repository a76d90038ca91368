"""The OpenAPI document: Litestar's, plus every installed game's options, moves and events.

Litestar only knows that a move or a match's options are "a JSON object"; each game's msgspec
structs and unions say exactly which objects. Their schemas are added as components named
``<game id>.<Struct>`` (plus ``<game id>.AnyMove`` / ``<game id>.AnyEvent`` for the whole
unions, always ``<game id>.Options``, and ``<game id>.View`` for a game whose class names the
struct its views follow as ``View``) and the API's fields point at them. Across games
those fields are an ``anyOf``: one value may fit several games (the Brass family shares its
move structs; every game accepts ``{}`` as options), which a ``oneOf`` would reject.
"""

from __future__ import annotations

import json
import logging
from random import Random
from typing import Annotated, Any

import msgspec
from litestar import Litestar, Request, Router, route
from litestar.enums import HttpMethod
from litestar.exceptions import NotFoundException
from litestar.openapi.plugins import JsonRenderPlugin, SwaggerRenderPlugin
from litestar.params import PathParameter

from api.bodies import MAX_VERSION, HandToBot, RequestBody
from api.record_routes import record_schema_fixes
from core.clock import TimeControl
from core.log_payloads import core_log_payloads
from core.registry import GameRegistry
from core.seating import BotChoice, MatchRules

log = logging.getLogger(__name__)

_REF = "#/components/schemas/"
CLOSED_PARTS = (MatchRules, TimeControl, BotChoice)
"""Structs inside request bodies that refuse unknown fields too."""
_CACHE_KEY = "openapi_document"
_GAME_FILTER = {
    "type": "string",
    "description": "Only matches of this installed game (another id is a 400 `unknown_game`, "
    "but for a game no longer installed whose matches are stored: those are listed).",
}
_LEVELS_FOR_SEARCH_ONLY = {
    "if": {"properties": {"bot": {"not": {"const": "search"}}}},
    "then": {"properties": {"level": {"type": "null"}, "think_ms": {"type": "null"}}},
}
"""A bot choice's rule the service checks (``bot_has_no_levels``), said in its schema: a
level or think budget is for the search bot only (the default bot is never the search bot),
so that a schema-valid choice is one the service takes."""


def game_components(registry: GameRegistry) -> dict[str, Any]:
    """Schema components of every game's options, moves and events, keyed ``<game id>.<name>``.

    A game whose structs msgspec cannot describe is logged and left out: one broken plugin
    must not take the API's documentation down with it.
    """
    components: dict[str, Any] = {}
    for game in registry.games():
        prefix = f"{game.id}."
        view_type = getattr(game, "View", None)  # optional: the struct view() follows
        logged = dict(getattr(game, "LogPayloads", None) or {})  # optional, likewise redact()
        payload_types = list(dict.fromkeys(logged.values()))
        setup_type = getattr(game, "SetupOutcome", None)  # optional: a record's ``setup``
        extra = [t for t in (view_type, setup_type) if t is not None]
        types = [game.Move, game.Event, game.Options, *extra]
        try:
            (moves, events, options, *extras_and_payloads), defs = msgspec.json.schema_components(
                [*types, *payload_types], ref_template=f"{_REF}{prefix}{{name}}"
            )
        except (TypeError, ValueError) as exc:
            log.warning("no OpenAPI schemas for game %s: %s", game.id, exc)
            continue
        extras = dict(zip(extra, extras_and_payloads, strict=False))
        view = [extras[view_type]] if view_type is not None else []
        payloads = extras_and_payloads[len(extra) :]
        for name, schema in defs.items():
            # Generators name classes after titles: msgspec's bare struct names (``Build``)
            # repeat across games, the game's title makes them unique
            schema["title"] = f"{game.title} {schema.get('title', name)}"
            components[prefix + name] = _closed_tuples_as_prefix_items(schema)
        components[f"{prefix}AnyMove"] = {"title": f"{game.title} move", **moves}
        components[f"{prefix}AnyEvent"] = {
            "title": f"{game.title} stored event",
            "description": "The events as the game stores them (engine indices, secrets and "
            "all): what `GET /matches/{match_id}/events` serves is `<game>.AnyLogPayload`.",
            **events,
        }
        if payload_types:
            refs = dict(zip(payload_types, payloads, strict=True))
            components[f"{prefix}AnyLogPayload"] = _log_payload_union(
                f"{game.title} log payload", {tag: refs[kind] for tag, kind in logged.items()}
            )
        _add_options(components, game, options["$ref"].removeprefix(_REF))
        if view:
            _rename(components, view[0]["$ref"].removeprefix(_REF), f"{prefix}View")
            components[f"{prefix}View"]["title"] = f"{game.title} view"
        if setup_type is not None:
            name = f"{prefix}SetupOutcome"
            _rename(components, extras[setup_type]["$ref"].removeprefix(_REF), name)
            components[name]["title"] = f"{game.title} setup outcome"
    return components


PAYLOAD_BY_TYPE = "x-ironworks-payload-by-type"
"""In a ``<game>.AnyLogPayload``: each event ``type`` -> the schema its ``payload`` follows."""


def _log_payload_union(title: str, by_type: dict[str, dict[str, str]]) -> dict[str, Any]:
    unique = list({ref["$ref"]: ref for ref in by_type.values()}.values())
    return {
        "title": title,
        "description": "The payload of a logged event, as the caller may see it; which "
        f"schema follows from the event's `type`, as `{PAYLOAD_BY_TYPE}` says.",
        "anyOf": unique,
        PAYLOAD_BY_TYPE: dict(sorted(by_type.items())),
    }


def core_components() -> dict[str, Any]:
    """The served payloads of the service's own events, as ``core.<Struct>`` components."""
    logged = core_log_payloads()
    kinds = list(dict.fromkeys(logged.values()))
    refs, defs = msgspec.json.schema_components(kinds, ref_template=f"{_REF}core.{{name}}")
    components = {f"core.{name}": {**schema, "title": f"Service {schema.get('title', name)}"}
                  for name, schema in defs.items()}  # fmt: skip
    by_kind = dict(zip(kinds, refs, strict=True))
    components["core.AnyLogPayload"] = _log_payload_union(
        "Service log payload", {tag: by_kind[kind] for tag, kind in logged.items()}
    )
    return components


def _any_log_payload(components: dict[str, Any], games: list[Any]) -> dict[str, Any] | None:
    """LogEvent's ``payload``: one of the games' ``<game>.AnyLogPayload`` or the service's;
    ``None`` (a free object) when some game does not say what its log serves."""
    names = [f"{game.id}.AnyLogPayload" for game in games]
    if not names or any(name not in components for name in names):
        return None
    return {
        "anyOf": [{"$ref": _REF + name} for name in [*sorted(names), "core.AnyLogPayload"]],
        "description": "The event as the caller may see it (the game's `redact`; another "
        "seat's secrets left out, ids as the game's client names). Its schema follows from "
        f"`type`: a `core.*` type is a service event (`core.AnyLogPayload`), any other an "
        f"event of the match's game (`<game>.AnyLogPayload`); each one's `{PAYLOAD_BY_TYPE}` "
        "names the schema of every type. The game's guide (`GET /games/{game_id}/guide`) "
        "explains them.",
    }


def _closed_tuples_as_prefix_items(schema: Any) -> Any:
    """``schema`` as generators read it: no ``"items": false`` beside ``prefixItems``, and
    an ``items`` on every other array.

    A boolean schema is valid JSON Schema, but generators (openapi-python-client) refuse it;
    ``maxItems``, which msgspec writes too, closes the tuple just as well.
    """
    if isinstance(schema, list):
        return [_closed_tuples_as_prefix_items(item) for item in schema]
    if not isinstance(schema, dict):
        return schema
    cleaned = {key: _closed_tuples_as_prefix_items(value) for key, value in schema.items()}
    if "prefixItems" in cleaned and cleaned.get("items") is False:
        del cleaned["items"]
        cleaned["maxItems"] = len(cleaned["prefixItems"])
    if cleaned.get("type") == "array" and "items" not in cleaned and "prefixItems" not in cleaned:
        cleaned["items"] = {}  # ``list[Any]``: generators want the (any) item schema said
    return cleaned


_SAYS_PROPERTIES = ("properties", "additionalProperties", "patternProperties", "$ref", "anyOf",
                    "oneOf", "allOf")  # fmt: skip


def _free_objects_said_open(node: Any) -> None:
    """Every ``{"type": "object"}`` that says nothing of its properties (msgspec's
    ``dict[str, Any]``) given ``"additionalProperties": {}``, which means the same: some
    generators (openapi-typescript) read the bare form as an object with no properties at
    all (``Record<string, never>``), so the options in an Age of Steam view or a Pittsburgh
    merchant's rewards could not be typed as served."""
    if isinstance(node, list):
        for item in node:
            _free_objects_said_open(item)
    elif isinstance(node, dict):
        if node.get("type") == "object" and not any(key in node for key in _SAYS_PROPERTIES):
            node["additionalProperties"] = {}
        for value in node.values():
            _free_objects_said_open(value)


def _rename(components: dict[str, Any], name: str, wanted: str) -> None:
    """Component ``name`` moved to ``wanted`` (a stable name, whatever the struct is called),
    every reference to it following. A ``$ref``-only alias would not do: generators make a
    second class of the same title from it."""
    if name == wanted or wanted in components:
        return
    components[wanted] = components.pop(name)
    old, new = _REF + name, _REF + wanted

    def follow(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("$ref") == old:
                node["$ref"] = new
            for value in node.values():
                follow(value)
        elif isinstance(node, list):
            for value in node:
                follow(value)

    follow(components)


def _add_options(components: dict[str, Any], game: Any, name: str) -> None:
    """Make ``<game id>.Options`` the game's options struct, whatever msgspec named it.

    Every game's struct is titled "Options"; the game's title tells them apart in the docs.
    """
    components[name]["title"] = f"{game.title} options"
    wanted = f"{game.id}.Options"
    if name == wanted:
        return
    if wanted in components:  # a move or event struct of that name: no room for an alias
        log.warning("no %s component: the name is taken by another struct", wanted)
        return
    components[wanted] = {"$ref": _REF + name}


def _example_players(game: Any) -> int:
    """The fewest players a match of ``game`` with its default options is set up for: its
    ``min_players`` may need other options (Age of Steam's one-player map is not its default
    one), and the example was refused when sent as it stood (Swagger UI's "Try it out")."""
    try:
        options = msgspec.convert({}, game.Options)
        counts = range(game.min_players, game.max_players + 1)
    except Exception:  # a plugin without them: the example is all it can be
        return int(game.min_players)
    for players in counts:
        try:
            game.setup(options, players, Random(0))
        except Exception:  # a plugin's refusal, whatever its kind: try the next count
            continue
        return players
    return int(game.min_players)


def _any_move(components: dict[str, Any]) -> dict[str, Any]:
    refs = [{"$ref": _REF + name} for name in sorted(components) if name.endswith(".AnyMove")]
    if not refs:
        return {"type": "object"}
    return {"anyOf": refs, "description": "A move of the match's game (see `<game>.AnyMove`)."}


def _any_view(components: dict[str, Any], games: list[Any]) -> dict[str, Any] | None:
    """MatchView's ``view``: one of the games' ``<game>.View``; ``None`` (a free object) when
    some game does not say what its view holds."""
    names = [f"{game.id}.View" for game in games]
    if not names or any(name not in components for name in names):
        return None
    return {
        "anyOf": [{"$ref": _REF + name} for name in sorted(names)],
        "description": "What the caller may see of the game state: the `<game>.View` schema "
        "of the match's game (another seat's secrets left out).",
    }


def _any_setup(components: dict[str, Any]) -> dict[str, Any]:
    """Record's ``setup``: one of the games' ``<game>.SetupOutcome``, or ``null``."""
    refs = [{"$ref": _REF + n} for n in sorted(components) if n.endswith(".SetupOutcome")]
    return {
        "anyOf": [*refs, {"type": "null"}],
        "description": "With `options`: the chance outcome of the game's setup (the first "
        "deal, turn order, tiles, goods), as its `<game>.SetupOutcome` schema says; left out, "
        "the server draws it.",
    }


def _any_options(components: dict[str, Any], games: list[Any]) -> dict[str, Any] | None:
    """CreateMatch's ``options``: one of the games' options objects, or ``null``.

    ``None`` when some game has no options component: the document must not refuse what
    the server accepts, so the field then stays a free object.
    """
    names = [f"{game.id}.Options" for game in games]
    if not names or any(name not in components for name in names):
        return None
    return {
        "anyOf": [*({"$ref": _REF + name} for name in sorted(names)), {"type": "null"}],
        "description": (
            "Options of the chosen `game`: its `<game>.Options` schema (also `options_schema` "
            "in `GET /games`). Every option has a default; leave out the field, or any "
            "option, to keep it. An option the chosen game does not have is a 400."
        ),
    }


_MATCH_ID = "$response.body#/id"
_CREATED_MATCH_LINKS = {
    "getMatch": {"operationId": "getMatch", "parameters": {"match_id": _MATCH_ID}},
    "listEvents": {"operationId": "listEvents", "parameters": {"match_id": _MATCH_ID}},
    "claimSeat": {
        "operationId": "claimSeat", "parameters": {"match_id": _MATCH_ID, "seat": "0"},
    },
    "handSeatToBot": {
        "operationId": "handSeatToBot", "parameters": {"match_id": _MATCH_ID, "seat": "1"},
        "requestBody": {"bot": "random"},
    },
}  # fmt: skip
"""Where a client goes with a new match's id (and what stateful API tests follow)."""


_RETRY_AFTER = {
    "description": "Seconds to wait before trying again.",
    "required": True,
    "schema": {"type": "integer", "minimum": 1},
}


_WWW_AUTHENTICATE = {
    "description": 'How to authenticate: `Bearer realm="ironworks"`, with RFC 6750\'s '
    "`error` when the header sent was no `Bearer <token>` (`invalid_request`) or the stream "
    "ticket is not, or no longer, one (`invalid_token`).",
    "required": True,
    "schema": {"type": "string"},
}


_LAST_EVENT_ID = {"type": "integer", "minimum": 0, "maximum": MAX_VERSION}
"""What a ``Last-Event-ID`` header carries: the version of an event (an SSE ``id``)."""


def build_document(litestar_doc: dict[str, Any], registry: GameRegistry) -> dict[str, Any]:
    """``litestar_doc`` (left untouched) completed with the games' schemas."""
    doc = json.loads(json.dumps(litestar_doc))
    schemas = doc.setdefault("components", {}).setdefault("schemas", {})
    components = {**game_components(registry), **core_components()}
    schemas.update(components)
    for body in (*RequestBody.__subclasses__(), *CLOSED_PARTS):
        # msgspec refuses their unknown fields; Litestar's schema does not say so
        schemas[body.__name__]["additionalProperties"] = False
        _add_extra_json_schema(schemas[body.__name__], body)
    for choice in (HandToBot, BotChoice):
        schemas[choice.__name__].update(_LEVELS_FOR_SEARCH_ONLY)
    games = registry.games()
    schemas["CreateMatch"]["properties"]["game"]["enum"] = [g.id for g in games]
    lobby = doc["paths"]["/matches"]["get"]["parameters"]
    for parameter in (p for p in lobby if p["name"] == "game"):
        # another id is refused (``unknown_game``) unless matches of it are stored
        parameter["schema"] = {**_GAME_FILTER, "enum": [g.id for g in games]}
        parameter["description"] = _GAME_FILTER["description"]
    if games:
        schemas["CreateMatch"]["examples"] = [
            {"game": g.id, "players": _example_players(g)} for g in games
        ]
    options = _any_options(components, games)
    if options is not None:
        schemas["CreateMatch"]["properties"]["options"] = options
    view = _any_view(components, games)
    if view is not None:
        schemas["MatchView"]["properties"]["view"] = view
    move = _any_move(components)
    schemas["SubmitMove"]["properties"]["move"] = move
    schemas["LegalMoves"]["properties"]["moves"]["items"] = move
    record_schema_fixes(schemas, move, _any_setup(components))
    payload = _any_log_payload(components, games)
    if payload is not None:
        schemas["LogEvent"]["properties"]["payload"] = payload
    else:  # some game does not say what its log serves
        schemas["LogEvent"]["properties"]["payload"]["description"] = (
            "The event as the caller may see it (the game's `redact`), its kind in `type`: "
            "ids written as the game's client names (as in the view), another seat's secrets "
            "left out; each game's guide (`GET /games/{game_id}/guide`) lists them. A "
            "`core.*` type is a service event (`core.AnyLogPayload`)."
        )
    doc["paths"]["/matches"]["post"]["responses"]["201"]["links"] = _CREATED_MATCH_LINKS
    # Litestar marks an optional body required, as ``ClaimSeat | null``: a claim needs none.
    claim = doc["paths"]["/matches/{match_id}/seats/{seat}/claim"]["post"]
    claim["requestBody"]["required"] = False
    claim["requestBody"]["content"]["application/json"]["schema"] = {"$ref": _REF + "ClaimSeat"}
    for path in doc["paths"].values():
        path.pop("head", None)  # every GET answers HEAD (api.reads): one operation says both
    for operation in (op for path in doc["paths"].values() for op in path.values()):
        for parameter in operation.get("parameters", []):
            if parameter["name"] == "Last-Event-ID":
                parameter["schema"] = _LAST_EVENT_ID
        unavailable = operation.get("responses", {}).get("503")
        if unavailable is not None:
            unavailable.setdefault("headers", {})["Retry-After"] = _RETRY_AFTER
        unauthorized = operation.get("responses", {}).get("401")
        if unauthorized is not None:
            unauthorized.setdefault("headers", {})["WWW-Authenticate"] = _WWW_AUTHENTICATE
    _free_objects_said_open(doc)
    return doc


def _add_extra_json_schema(schema: dict[str, Any], struct: type) -> None:
    """Each field's ``extra_json_schema`` (its choices, its bounds) into the struct's
    ``schema``: Litestar drops it, so a field the service checks itself (a bot's kind, level
    and think budget: :mod:`core.bots`) read as any string or number to a client."""
    inspect = msgspec.inspect
    for field in inspect.type_info(struct).fields:  # type: ignore[attr-defined]
        kinds = field.type.types if isinstance(field.type, inspect.UnionType) else [field.type]
        metadata = [k for k in kinds if isinstance(k, inspect.Metadata)]
        extra = next((m.extra_json_schema for m in metadata if m.extra_json_schema), None)
        if not extra:
            continue
        nullable = any(isinstance(k, inspect.NoneType) for k in kinds)
        target = schema["properties"][field.encode_name]
        for key, value in extra.items():
            target[key] = [*value, None] if key == "enum" and nullable else value


def openapi_document(app: Litestar) -> dict[str, Any]:
    """The document the app serves at ``/docs/openapi.json`` (built once per app)."""
    doc = app.state.get(_CACHE_KEY)
    if doc is None:
        doc = build_document(app.openapi_schema.to_schema(), app.state["service"].games)
        app.state[_CACHE_KEY] = doc
    return doc


def render_document(doc: dict[str, Any]) -> str:
    """Stable text of the document: sorted keys, so regenerating it gives a clean diff."""
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


class _AnswersHead:
    """Litestar serves a render plugin's pages to GET alone; RFC 9110 (and the README:
    "HEAD answers wherever GET does") wants HEAD there too, with the same headers."""

    paths: Any
    media_type: Any

    def receive_router(self, router: Router) -> None:
        super().receive_router(router)  # type: ignore[misc]
        plugin = self

        @route(
            list(self.paths),
            http_method=HttpMethod.HEAD,
            media_type=self.media_type,
            sync_to_thread=False,
            name=f"{type(self).__name__}.head",
        )
        def head(request: Request[Any, Any, Any]) -> bytes:
            # Rendered in full so Content-Length is the GET's; the server sends no body.
            return plugin.render(request, {})  # type: ignore[attr-defined, no-any-return]

        router.register(head)


class GameAwareJsonPlugin(_AnswersHead, JsonRenderPlugin):
    """Serves :func:`openapi_document` instead of Litestar's bare document."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return msgspec.json.encode(openapi_document(request.app))


class GameAwareSwaggerPlugin(_AnswersHead, SwaggerRenderPlugin):
    """Swagger UI (it embeds the document in the page) showing :func:`openapi_document`."""

    def receive_router(self, router: Router) -> None:
        super().receive_router(router)

        # Litestar's catch-all under /docs answers GET with a 404; without this, HEAD there
        # would be a 405, as if the path existed.
        @route("/{path:str}", http_method=HttpMethod.HEAD, sync_to_thread=False)
        def head_not_found(path: Annotated[str, PathParameter()]) -> None:
            raise NotFoundException(f"no page {router.path}/{path}")

        router.register(head_not_found)
        # Swagger UI's OAuth2 redirect page, which Litestar serves to GET alone too.
        router.register(
            route(
                "/oauth2-redirect.html", http_method=HttpMethod.HEAD, media_type="text/html",
                sync_to_thread=False, name="swagger-oauth2-redirect.head",
            )(self.render_oauth2_redirect)
        )  # fmt: skip

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return super().render(request, openapi_document(request.app))
