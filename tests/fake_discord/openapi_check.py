"""A small checker of JSON against Discord's OpenAPI description (the JSON Schema it uses).

Enough of JSON Schema for the response schemas the fake answers with: ``$ref``, ``type`` (one
or a list), ``properties``/``required``, ``items``, ``oneOf``/``anyOf``/``allOf``, ``const``,
``enum`` and ``pattern``. It returns the problems found, each with where it was.

The description is Discord's own, as the fake reads it (``fake_discord.openapi.description``);
the fake holds every request body against it with ``jsonschema``.
"""

import re
from typing import Any

from fake_discord.openapi import description

TYPES: dict[str, Any] = {
    "string": str,
    "boolean": bool,
    "object": dict,
    "array": list,
    "null": type(None),
    "number": (int, float),
}


def response_schema(path: str, method: str = "get") -> dict[str, Any]:
    """The 200 answer's schema of ``method path`` (a path as the description spells it)."""
    operation = description()["paths"][path][method]
    schema: dict[str, Any] = operation["responses"]["200"]["content"]["application/json"]["schema"]
    return schema


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        found: Any = description()
        for part in schema["$ref"].removeprefix("#/").split("/"):
            found = found[part]
        schema = found | {k: v for k, v in schema.items() if k != "$ref"}
    return schema


def _type_ok(value: Any, name: str) -> bool:
    if name == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    if name == "number":
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, TYPES[name]) and (name == "boolean" or not isinstance(value, bool))


def problems(value: Any, schema: dict[str, Any], where: str = "$") -> list[str]:
    schema = _resolve(schema)
    found: list[str] = []
    if "type" in schema:
        names = schema["type"] if isinstance(schema["type"], list) else [schema["type"]]
        if not any(_type_ok(value, name) for name in names):
            return [f"{where}: {value!r} is not {' or '.join(names)}"]
    if "const" in schema and value != schema["const"]:
        found.append(f"{where}: {value!r} is not {schema['const']!r}")
    if "enum" in schema and value not in schema["enum"]:
        found.append(f"{where}: {value!r} not in {schema['enum']}")
    if "pattern" in schema and isinstance(value, str) and not re.search(schema["pattern"], value):
        found.append(f"{where}: {value!r} does not match {schema['pattern']}")
    for part in schema.get("allOf", ()):
        found += problems(value, part, where)
    for key in ("oneOf", "anyOf"):
        if key in schema and not any(not problems(value, part, where) for part in schema[key]):
            found.append(f"{where}: {value!r} matches none of its {key}")
    if isinstance(value, dict):
        found += [f"{where}: missing {name}" for name in schema.get("required", ()) if name not in value]
        for name, part in schema.get("properties", {}).items():
            if name in value:
                found += problems(value[name], part, f"{where}.{name}")
    if isinstance(value, list) and "items" in schema:
        for index, item in enumerate(value):
            found += problems(item, schema["items"], f"{where}[{index}]")
    return found
