"""Every REST request the bot sends, held against Discord's own OpenAPI description.

Real Discord answers 404 to a path it does not have and 400 (50035, Invalid Form Body) to a body
its schema refuses; the hand-written limits of ``fake_discord.validate`` cover what we thought
of, this covers what Discord published. The description is Discord's (the public repository
discord/discord-api-spec, ``specs/openapi.json``), kept unchanged and gzipped beside this module
as package data, so the installed offline console finds it too.

A request is matched to an operation by its method and the description's path templates (a
literal segment wins over a ``{parameter}``, as OpenAPI says). Its JSON body, or the
``payload_json`` part of a multipart body, is validated against the operation's
``application/json`` request schema.

Why ``jsonschema``: it is maintained, implements Draft 2020-12 (the dialect of OpenAPI 3.1) in
full, and resolves the description's ``$ref``s from its root through ``referencing``.
fastjsonschema stops at draft 7 and compiles code per schema; openapi-core validates whole
requests but pins its own jsonschema stack and adds parameter parsing we do not need.

Two normalisations keep the judgement to real mistakes: the description types snowflakes as
strings (``format: snowflake``) while discord.py sends some ids as integers, which Discord
accepts, so a non-negative integer is judged as its decimal string wherever the schema says
``format: snowflake``; and permission bit sets (``default_member_permissions``), which the
description types as integers while discord.py sends decimal strings, are judged as integers.
"""

from __future__ import annotations

import gzip
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from jsonschema.protocols import Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

JSON = dict[str, Any]
ROOT = "urn:discord-openapi"
PERMISSION_KEYS = frozenset({"default_member_permissions", "permissions", "allow", "deny"})
MAX_PROBLEMS = 5
MAX_MESSAGE = 200
BRIEF = 40


@cache
def description() -> JSON:
    """Discord's OpenAPI description, read once."""
    data = resources.files("fake_discord").joinpath("discord-openapi.json.gz").read_bytes()
    loaded: JSON = json.loads(gzip.decompress(data))
    return loaded


def _snowflake_int(instance: object, schema: JSON) -> bool:
    return (
        schema.get("format") == "snowflake"
        and isinstance(instance, int)
        and not isinstance(instance, bool)
        and instance >= 0
    )


def _as_snowflake(keyword: str) -> Any:
    """Draft 2020-12's ``keyword`` check, judging an integer snowflake as its decimal string."""
    check = Draft202012Validator.VALIDATORS[keyword]

    def judged(validator: Validator, value: Any, instance: Any, schema: JSON) -> Iterator[ValidationError]:
        if _snowflake_int(instance, schema):
            instance = str(instance)
        yield from check(validator, value, instance, schema)

    return judged


def _target(schema: JSON) -> JSON:
    """A schema with its ``$ref``s into the description followed (their siblings only narrow it)."""
    while isinstance(ref := schema.get("$ref"), str) and ref.startswith("#/"):
        found: Any = description()
        for part in ref[2:].split("/"):
            found = found[part.replace("~1", "/").replace("~0", "~")]
        schema = found
    return schema


_branch_cache: dict[int, list[tuple[JSON, frozenset[str] | None, list[Any] | None]]] = {}
JSON_TYPES = {dict: "object", list: "array", str: "string", bool: "boolean", type(None): "null"}


def _branches(options: list[JSON]) -> list[tuple[JSON, frozenset[str] | None, list[Any] | None]]:
    """Each branch with the JSON types it allows and the values its ``type`` property allows."""
    found = _branch_cache.get(id(options))
    if found is None:
        found = []
        for branch in options:
            target = _target(branch)
            kinds = target.get("type")
            allowed = frozenset([kinds] if isinstance(kinds, str) else kinds) if kinds else None
            if target.get("format") == "snowflake":
                allowed = None
            tag = _target(target.get("properties", {}).get("type") or {})
            values = [tag["const"]] if "const" in tag else tag.get("enum")
            found.append((branch, allowed, values))
        _branch_cache[id(options)] = found
    return found


_const_cache: dict[int, list[Any] | None] = {}
CONST_KEYS = frozenset({"const", "title", "description"})


def _consts(options: list[JSON]) -> list[Any] | None:
    """The values of a union of ``const`` branches (how the description spells an enum), or None."""
    if id(options) not in _const_cache:
        plain = all(isinstance(b, dict) and "const" in b and b.keys() <= CONST_KEYS for b in options)
        _const_cache[id(options)] = [b["const"] for b in options] if plain else None
    return _const_cache[id(options)]


def _cannot_match(instance: Any, kinds: frozenset[str] | None, values: list[Any] | None) -> bool:
    """True only when the branch is sure to fail: a JSON type or a ``type`` tag it refuses."""
    name = JSON_TYPES.get(type(instance))
    if kinds is not None and name is not None and name not in kinds:
        return True
    return (
        isinstance(instance, dict)
        and values is not None
        and "type" in instance
        and (instance["type"] not in values)
    )


def _order(value: Any) -> tuple[str, Any]:
    return type(value).__name__, value


def _tagged(keyword: str) -> Any:
    """``oneOf``/``anyOf`` that skips the branches sure to fail (by JSON type or ``type`` tag).

    The verdict is the same; the work is not: a message's components are a union of seven
    component kinds, each with unions inside, and trying every branch of every union made a
    body take milliseconds. It also makes the complaint name the branch the body meant.
    """
    check = Draft202012Validator.VALIDATORS[keyword]

    def pruned(validator: Validator, options: Any, instance: Any, schema: JSON) -> Iterator[ValidationError]:
        if not isinstance(options, list):
            yield from check(validator, options, instance, schema)
            return
        consts = _consts(options)
        if consts is not None and isinstance(instance, (str, int, float)):
            boolean = isinstance(instance, bool)
            matches = sum(1 for c in consts if c == instance and isinstance(c, bool) == boolean)
            if matches == 0 or (keyword == "oneOf" and matches > 1):
                yield ValidationError(f"{instance!r} is not one of {consts}")
            return
        kept = [b for b, kinds, values in _branches(options) if not _cannot_match(instance, kinds, values)]
        if kept:
            yield from check(validator, kept, instance, schema)
        elif isinstance(instance, dict) and "type" in instance:
            tags = sorted({v for _, _, values in _branches(options) for v in values or ()}, key=_order)
            yield ValidationError(f"type {instance['type']!r} is not one of {tags}")
        else:
            yield ValidationError(f"{instance!r} is not valid under any of the given schemas")

    return pruned


SnowflakeValidator = validators.extend(  # type: ignore[no-untyped-call]
    Draft202012Validator,
    {
        "type": _as_snowflake("type"),
        "pattern": _as_snowflake("pattern"),
        "oneOf": _tagged("oneOf"),
        "anyOf": _tagged("anyOf"),
    },
)


@dataclass(frozen=True)
class Operation:
    """One method of one path template, and its request body's validator (None: no body)."""

    method: str
    template: str
    body: Validator | None


def pointer(*parts: str) -> str:
    """A ``$ref`` to the description's node at ``parts`` (``$ref``s inside it resolve from the root)."""
    escaped = (part.replace("~", "~0").replace("/", "~1") for part in parts)
    return ROOT + "#/" + "/".join(escaped)


@cache
def registry() -> Registry[Any]:
    """The description as the one resource ``$ref``s resolve in."""
    resource: Resource[Any] = Resource.from_contents(description(), default_specification=DRAFT202012)
    found: Registry[Any] = Registry().with_resource(ROOT, resource)
    return found


def _specificity(template: str) -> tuple[int, ...]:
    """Literal segments before ``{parameters}``, position by position (OpenAPI's matching rule)."""
    return tuple(1 if part.startswith("{") else 0 for part in template.strip("/").split("/"))


@cache
def _matcher() -> tuple[re.Pattern[str], list[str]]:
    """One regular expression for all path templates; the first alternative that matches wins."""
    templates = sorted(description()["paths"], key=_specificity)
    alternatives = []
    for number, template in enumerate(templates):
        parts = re.split(r"(\{[^}]+\})", template)
        body = "".join("[^/]+" if part.startswith("{") else re.escape(part) for part in parts)
        alternatives.append(f"(?P<t{number}>{body})")
    return re.compile("|".join(alternatives)), templates


def find_template(path: str) -> str | None:
    """The description's path template for a request path (no ``/api/v10``), or None."""
    pattern, templates = _matcher()
    found = pattern.fullmatch(path)
    if found is None or found.lastgroup is None:
        return None
    return templates[int(found.lastgroup[1:])]


@cache
def operation(method: str, template: str) -> Operation | None:
    """The operation ``method template`` with a validator for its JSON body (built once)."""
    item = description()["paths"][template]
    spec = item.get(method.lower())
    if spec is None:
        return None
    request_body = spec.get("requestBody")
    if request_body is None or "application/json" not in request_body.get("content", {}):
        return Operation(method, template, None)
    ref = pointer("paths", template, method.lower(), "requestBody", "content", "application/json", "schema")
    validator = SnowflakeValidator({"$ref": ref}, registry=registry())
    return Operation(method, template, validator)


def _permissions_as_ints(value: Any) -> Any:
    """Permission bit sets sent as decimal strings, turned into the integers the description types."""
    if isinstance(value, list):
        return [_permissions_as_ints(item) for item in value]
    if not isinstance(value, dict):
        return value
    return {
        key: int(item)
        if key in PERMISSION_KEYS and isinstance(item, str) and item.isdigit()
        else _permissions_as_ints(item)
        for key, item in value.items()
    }


def _complaint(error: ValidationError) -> str:
    """jsonschema's message with the value it quotes cut short (a 5000-character text would
    otherwise hide what is wrong with it)."""
    message, quoted = error.message, repr(error.instance)
    if len(quoted) > BRIEF and message.startswith(quoted):
        size = f" ({len(error.instance)} long)" if isinstance(error.instance, (str, list, dict)) else ""
        message = quoted[: BRIEF - 3] + "..." + size + message[len(quoted) :]
    return message if len(message) <= MAX_MESSAGE else message[: MAX_MESSAGE - 3] + "..."


def body_problems(found: Operation, body: Any) -> list[str]:
    """Where ``body`` breaks the operation's request schema: the JSON path and the complaint.

    Remembered per body text: every bot a test suite starts syncs the same command set, a body
    of some 50 kB that takes tens of milliseconds to judge and a fraction of one to spell.
    """
    if found.body is None:
        return []
    return list(_judged(found.method, found.template, json.dumps(body, sort_keys=True)))


@lru_cache(maxsize=128)
def _judged(method: str, template: str, text: str) -> tuple[str, ...]:
    found = operation(method, template)
    assert found is not None and found.body is not None
    problems = []
    for error in list(found.body.iter_errors(_permissions_as_ints(json.loads(text))))[:MAX_PROBLEMS]:
        relevant = best_match([error])
        problems.append(f"{relevant.json_path}: {_complaint(relevant)}")
    return tuple(problems)


def route_problems(method: str, path: str) -> tuple[Operation | None, list[str]]:
    """The operation a request goes to, or why Discord would answer 404 (an undescribed path)."""
    template = find_template(path)
    if template is None:
        return None, [f"{method} {path} is not in Discord's API description (Discord answers 404)"]
    found = operation(method, template)
    if found is None:
        methods = sorted(m.upper() for m in description()["paths"][template] if m != "parameters")
        has = ", ".join(methods)
        return None, [f"{method} {template} is not in Discord's API description (it has {has})"]
    return found, []
