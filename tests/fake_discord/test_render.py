"""Messages, embeds, components and whole interaction records as the console prints them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from fake_discord.records import InteractionRecord
from fake_discord.render import local_time, render_message, show_times, unescaped
from fake_discord.terminal import styled

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
            {
                "type": 17,
                "accent_color": 0x3BA55C,
                "components": [
                    {"type": 10, "content": "-# Narrator\n### Round 2\n**Vin** acts"},
                    {"type": 14},
                    {"type": 14, "divider": False},
                    {"type": 12, "items": [{"media": {"url": "attachment://odds.png"}}]},
                    {"type": 1, "components": [{"type": 2, "label": "Next", "custom_id": "n"}]},
                ],
            },
            {
                "type": 9,
                "components": [{"type": 10, "content": "Vin"}],
                "accessory": {"type": 2, "label": "Act"},
            },
            {
                "type": 9,
                "components": [{"type": 10, "content": "Kel"}],
                "accessory": {"type": 11, "media": {"url": "https://cdn.example/a/kel.png"}},
            },
        ],
        "attachments": [{"filename": "odds.png", "size": 9}],
    }
    assert render_message(layout).splitlines() == [
        "▌ (green)",
        "▌ -- Narrator",
        "▌ == Round 2 ==",
        "▌ **Vin** acts",
        "▌ " + "-" * 20,
        "▌",
        "▌ [image: odds.png]",
        "▌ [Next]",
        "Vin",
        "[Act]",
        "Kel",
        "[image: kel.png]",
    ]
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


def embed_lines(embed: dict[str, Any]) -> list[str]:
    return render_message({"embeds": [embed]}).splitlines()[1:-1]


def test_a_blank_field_name_carries_the_list_on_and_a_colon_is_not_doubled() -> None:
    embed = {
        "fields": [
            {"name": "Commands", "value": "/roll\n/read"},
            {"name": "\u200b", "value": "/conflict\n/act"},
            {"name": "/conflict start kind: stakes:", "value": "Narrator: start a Conflict"},
        ]
    }
    assert embed_lines(embed) == [
        "| Commands: /roll",
        "|   /read",
        "|   /conflict",
        "|   /act",
        "| /conflict start kind: stakes:",
        "|   Narrator: start a Conflict",
    ]


def test_a_footer_of_two_rows_and_a_timestamp_stay_inside_the_border() -> None:
    stamp = datetime(2024, 1, 1, 12, 30, tzinfo=UTC)
    embed = {"footer": {"text": "▶ whose move\n\u2003the Narrator's"}, "timestamp": stamp.isoformat()}
    assert embed_lines(embed) == [
        "| -- ▶ whose move",
        "|    \u2003the Narrator's",
        f"|    {local_time(stamp, 'f')}",
    ]
    assert local_time(stamp, "f").endswith(stamp.astimezone().strftime("%B 2024 %H:%M"))


NOW = datetime(2024, 1, 1, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [
        (-5, "a few seconds ago"),
        (-60, "a minute ago"),
        (-600, "10 minutes ago"),
        (3600, "in an hour"),
        (-5 * 3600, "5 hours ago"),
        (-3 * 86400, "3 days ago"),
        (40 * 86400, "in a month"),
        (-3 * 365 * 86400, "3 years ago"),
    ],
)
def test_relative_times_read_as_in_discord(seconds: int, shown: str) -> None:
    at = int((NOW + timedelta(seconds=seconds)).timestamp())
    assert show_times(f"rolled <t:{at}:R>.", NOW) == f"rolled {shown}."


def test_every_timestamp_style_becomes_a_time() -> None:
    at = int(NOW.timestamp())
    local = NOW.astimezone()
    for style, expected in [
        ("t", local.strftime("%H:%M")),
        ("d", local.strftime("%Y-%m-%d")),
        ("", local.strftime("%d %B %Y %H:%M").lstrip("0")),
    ]:
        markup = f"<t:{at}:{style}>" if style else f"<t:{at}>"
        assert show_times(markup, NOW) == expected.lstrip("0")
    assert show_times("<t:99999999999999:R> <t:x:R>", NOW) == "<t:99999999999999:R> <t:x:R>"


@pytest.mark.parametrize(
    ("sent", "shown"),
    [
        ("Burn it first (\\`/power burn\\`).", "Burn it first (`/power burn`)."),
        ("\\*not bold\\* and a\\_b", "*not bold* and a_b"),
        ("a \\\\ b", "a \\ b"),
        ("no escape: 3\\d and Vin", "no escape: 3\\d and Vin"),
    ],
)
def test_an_escaped_character_shows_as_itself(sent: str, shown: str) -> None:
    """The bot escapes user text (and our own backticks with it); Discord shows the character, so
    the console must too, and the terminal must not style it."""
    assert unescaped(sent) == shown
    assert styled(sent).plain == shown
    assert not styled("\\*Vin\\*").spans
    assert styled("*Vin*").spans
