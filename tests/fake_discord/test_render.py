"""Messages, embeds, components and whole interaction records as the console prints them."""

from __future__ import annotations

from typing import Any

from fake_discord.records import InteractionRecord
from fake_discord.render import render_message

SHEET = {
    "content": "Vin's sheet",
    "flags": 64,
    "embeds": [
        {
            "author": {"name": "Narrator"},
            "title": "Vin",
            "description": "Mistborn\nof Luthadel",
            "fields": [{"name": "Physique", "value": "3"}, {"name": "Notes", "value": "line one\nline two"}],
            "footer": {"text": "sheet v1"},
        }
    ],
    "attachments": [{"filename": "vin.json", "size": 12}],
    "components": [
        {
            "type": 1,
            "components": [
                {"type": 2, "style": 1, "label": "Roll again", "custom_id": "a"},
                {"type": 2, "style": 4, "label": "Delete", "custom_id": "b", "disabled": True},
                {"type": 2, "style": 5, "label": "Rules", "url": "https://example.invalid"},
            ],
        },
        {
            "type": 1,
            "components": [
                {
                    "type": 3,
                    "custom_id": "pick",
                    "placeholder": "Choose a metal",
                    "options": [{"label": "Steel", "value": "steel"}, {"label": "Iron", "value": "iron"}],
                }
            ],
        },
    ],
}


def test_full_message() -> None:
    bar = "+" + "-" * 40
    assert render_message(SHEET).splitlines() == [
        "[ephemeral]",
        "Vin's sheet",
        bar,
        "| Narrator",
        "| == Vin ==",
        "| Mistborn",
        "| of Luthadel",
        "| Physique: 3",
        "| Notes: line one",
        "|   line two",
        "| -- sheet v1",
        bar,
        "[file: vin.json (12 bytes)]",
        "[Roll again] [!Delete (disabled)] [link Rules] https://example.invalid",
        "<select Choose a metal: Steel | Iron>",
    ]


def test_layout_components_and_edge_cases() -> None:
    layout = {
        "flags": 1 << 15,
        "components": [
            {"type": 17, "components": [{"type": 10, "content": "Round 2"}, {"type": 14}]},
            {
                "type": 9,
                "components": [{"type": 10, "content": "Vin"}],
                "accessory": {"type": 2, "label": "Act"},
            },
        ],
    }
    assert render_message(layout).splitlines() == ["Round 2", "-" * 20, "Vin", "[Act]"]
    assert render_message({"content": ""}) == "(empty message)"
    assert render_message({"content": "x", "edited_timestamp": "t"}) == "x\n(edited)"


def record(response: dict[str, Any] | None, original: dict[str, Any] | None = None) -> InteractionRecord:
    rec = InteractionRecord({"id": "1", "token": "t", "type": 2}, 0.0)
    rec.response, rec.original = response, original
    return rec


def test_records() -> None:
    assert "did not respond" in record(None).text
    thinking = record({"type": 5}, {"content": "", "flags": 128})
    assert thinking.text == "(thinking...)"
    choices = record(
        {"type": 8, "data": {"choices": [{"name": "Vin", "value": "Vin"}, {"name": "Kel", "value": 2}]}}
    )
    assert choices.text == "  Vin\n  Kel  = 2"
    assert record({"type": 8, "data": {"choices": []}}).text == "(no suggestions)"
    modal = {
        "custom_id": "m",
        "title": "Note",
        "components": [{"type": 18, "label": "Your note", "component": {"type": 4, "custom_id": "note"}}],
    }
    assert record({"type": 9, "data": modal}).text.splitlines() == [
        "[modal] Note (custom_id m)",
        "  Your note: field note (required)",
        "answer with: !submit field:value ...",
    ]
    assert record({"type": 6}).text == "(acknowledged)"
    rejected = record(None)
    rejected.errors.append({"message": "Invalid Form Body"})
    assert rejected.text.startswith("(rejected by Discord: Invalid Form Body)")
