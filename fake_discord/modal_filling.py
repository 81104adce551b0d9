"""A modal filled in as a person fills it in Discord's client, checked as the client checks it.

Apart from the harness (``fake_discord.harness``), which finds the modal the bot opened and
sends the answers; here a field is named by custom_id or label, a pick is checked
(``modal_parts``) and a required field left empty is refused before anything is sent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from fake_discord import modal_parts, payloads, uploads
from fake_discord.commandline import CommandLineError

JSON = dict[str, Any]


def filled(
    modal: JSON, values: Mapping[str, str | list[str] | bool], files: dict[str, list[JSON]]
) -> dict[str, str | list[str] | bool]:
    """The answers a submit of ``modal`` carries: ``values`` (by custom_id or label) over what
    the modal opened with; ``files`` by upload's custom_id (``Harness.submit`` says how)."""
    inputs = payloads.text_inputs(modal)
    parts = modal_parts.fields(modal)
    answers: dict[str, str | list[str] | bool] = {i["custom_id"]: i["value"] for i in inputs if i["value"]}
    picks: dict[str, list[str] | bool] = {p["custom_id"]: p["value"] for p in parts}
    for key, value in values.items():
        wanted = key.lower()
        match = next((i for i in inputs if wanted in (i["custom_id"].lower(), i["label"].lower())), None)
        part = next((p for p in parts if wanted in (p["custom_id"].lower(), p["label"].lower())), None)
        if match is not None:
            answers[match["custom_id"]] = str(value)
        elif part is not None:
            try:
                picks[part["custom_id"]] = modal_parts.picked(part, value)
            except modal_parts.NotSendable as error:
                raise CommandLineError(str(error)) from None
        else:
            names = [i["custom_id"] for i in inputs] + [p["custom_id"] for p in parts]
            raise CommandLineError(f"modal has no field {key!r} (fields: {', '.join(names)})")
    missing = [i["custom_id"] for i in inputs if i.get("required", True) and i["custom_id"] not in answers]
    if missing:
        raise CommandLineError(f"modal field(s) required: {', '.join(missing)}")
    for part in parts:
        try:
            answers[part["custom_id"]] = modal_parts.checked(part, picks[part["custom_id"]])
        except modal_parts.NotSendable as error:
            raise CommandLineError(str(error)) from None
    if problems := uploads.check_files(modal, files):
        raise CommandLineError("; ".join(problems))
    return answers
