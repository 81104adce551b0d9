"""The fake's answers held against Discord's OpenAPI description, as its requests are.

The same description and validator as ``fake_discord.openapi`` (jsonschema, Draft 2020-12, an
integer snowflake judged as its decimal string), pointed at an operation's 200 answer instead
of its request body. Each problem says where it was (a JSON path) and what is wrong.
"""

from typing import Any

from fake_discord.openapi import SnowflakeValidator, pointer, registry


def response_schema(path: str, method: str = "get", status: str = "200") -> dict[str, Any]:
    """The answer's schema of ``method path`` (a path as the description spells it) with
    ``status`` (200, or 201 for what some routes create)."""
    return {
        "$ref": pointer("paths", path, method, "responses", status, "content", "application/json", "schema")
    }


def problems(value: Any, schema: dict[str, Any]) -> list[str]:
    validator = SnowflakeValidator(schema, registry=registry())
    return [f"{error.json_path}: {error.message}" for error in validator.iter_errors(value)]
