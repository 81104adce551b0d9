"""Typed lines -> interaction options, checked against synced command definitions (table-driven)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from fake_discord.commandline import CommandLineError, parse_slash, split_pairs, usage
from fake_discord.world import FakeMember, default_world

WORLD = default_world()
GUILD = WORLD.guild


def member(name: str) -> FakeMember:
    found = GUILD.member(name)
    assert found is not None
    return found


NARRATOR, PLAYER = member("narrator"), member("player1")


def option(name: str, kind: int, required: bool = False, **extra: Any) -> dict[str, Any]:
    return {"name": name, "description": name, "type": kind, "required": required} | extra


COMMANDS: list[dict[str, Any]] = [
    {
        "id": "1",
        "name": "roll",
        "type": 1,
        "options": [
            option("dice", 4, True, min_value=1, max_value=10),
            option("difficulty", 4, True, min_value=1, max_value=5),
            option("label", 3, max_length=40),
        ],
    },
    {
        "id": "2",
        "name": "character",
        "type": 1,
        "options": [option("show", 1, options=[option("name", 3, True)])],
    },
    {
        "id": "3",
        "name": "admin",
        "type": 1,
        "default_member_permissions": "32",
        "options": [
            option(
                "burden",
                2,
                options=[option("add", 1, options=[option("target", 6, True), option("amount", 10)])],
            )
        ],
    },
    {"id": "4", "name": "setting", "type": 1, "options": [option("flag", 5, True)]},
    {
        "id": "5",
        "name": "spotlight",
        "type": 1,
        "options": [
            option("who", 6),
            option("where", 7, channel_types=[0]),
            option("role", 8),
            option("any", 9),
        ],
    },
    {
        "id": "6",
        "name": "pick",
        "type": 1,
        "options": [
            option(
                "stance", 3, True, choices=[{"name": "Bold", "value": "bold"}, {"name": "Wary", "value": "w"}]
            )
        ],
    },
    {"id": "7", "name": "import", "type": 1, "options": [option("file", 11, True)]},
    {"id": "8", "name": "Show sheet", "type": 2},
]


def values(options: list[dict[str, Any]]) -> Any:
    """Nested options as (name, value) pairs, subcommands as (name, [...])."""
    return [(o["name"], values(o["options"]) if "options" in o else o["value"]) for o in options]


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("/roll dice:5 difficulty:3", [("dice", 5), ("difficulty", 3)]),
        (
            '/roll dice:5 difficulty:3 label:"Big jump"',
            [("dice", 5), ("difficulty", 3), ("label", "Big jump")],
        ),
        ("/roll dice:5 label:Big jump difficulty:2", [("dice", 5), ("label", "Big jump"), ("difficulty", 2)]),
        (
            "/roll dice:5 difficulty:1 label:Kelsier's",
            [("dice", 5), ("difficulty", 1), ("label", "Kelsier's")],
        ),
        (
            '/roll dice:1 difficulty:1 label:"plan: \\"go\\""',
            [("dice", 1), ("difficulty", 1), ("label", 'plan: "go"')],
        ),
        ("/roll dice:1 difficulty:1 label:at 10:30", [("dice", 1), ("difficulty", 1), ("label", "at 10:30")]),
        ("/ROLL DICE:2 Difficulty:2", [("dice", 2), ("difficulty", 2)]),
        ("/character show name:Vin", [("show", [("name", "Vin")])]),
        ("/character show name:", [("show", [("name", "")])]),
        ("/setting flag:yes", [("flag", True)]),
        ("/setting flag:Off", [("flag", False)]),
        ("/pick stance:bold", [("stance", "bold")]),
        ("/pick stance:w", [("stance", "w")]),
        ("/pick stance:ol", [("stance", "bold")]),  # what Discord's list leaves, as Enter takes it
        ("/pick stance:WAR", [("stance", "w")]),
        ("/spotlight", []),
    ],
)
def test_good_lines(line: str, expected: Any) -> None:
    parsed = parse_slash(line, COMMANDS, GUILD, NARRATOR)
    assert values(parsed.options) == expected


def test_group_subcommand_user_and_number_are_nested_and_resolved() -> None:
    parsed = parse_slash("/admin burden add target:@player1 amount:2.5", COMMANDS, GUILD, NARRATOR)
    (group,) = parsed.options
    assert (group["type"], group["name"]) == (2, "burden")
    (sub,) = group["options"]
    assert (sub["type"], sub["name"]) == (1, "add")
    target, amount = sub["options"]
    assert target == {"name": "target", "type": 6, "value": str(PLAYER.user.id)}
    assert amount["value"] == 2.5
    resolved = parsed.resolved.to_json()
    assert resolved["users"][target["value"]]["username"] == "player1"
    assert "user" not in resolved["members"][target["value"]]


def test_mentions_of_members_channels_and_roles_resolve() -> None:
    line = f"/spotlight who:<@{PLAYER.user.id}> where:#table role:@Narrator any:Narrator"
    parsed = parse_slash(line, COMMANDS, GUILD, NARRATOR)
    resolved = parsed.resolved.to_json()
    assert set(resolved) == {"users", "members", "channels", "roles"}
    channel = next(iter(resolved["channels"].values()))
    assert channel["name"] == "table" and "permissions" in channel


def test_attachment_uses_the_callback(tmp_path: Path) -> None:
    path = tmp_path / "sheet.json"
    path.write_text("{}")
    served = {"id": "99", "filename": "sheet.json", "size": 2, "url": "u", "proxy_url": "u"}
    parsed = parse_slash(f"/import file:{path}", COMMANDS, GUILD, NARRATOR, attach=lambda p: served)
    assert parsed.options == [{"name": "file", "type": 11, "value": "99"}]
    assert parsed.resolved.attachments == {"99": served}


def test_focus_marks_the_last_option_and_keeps_its_raw_text() -> None:
    parsed = parse_slash("/roll dice:4 difficulty:zz", COMMANDS, GUILD, NARRATOR, focus=True)
    assert parsed.options[-1] == {"name": "difficulty", "type": 4, "value": "zz", "focused": True}


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("roll dice:5", "a command starts with /"),
        ("/nope", "unknown command /nope (commands: /admin, /character"),
        ("/roll", "/roll is missing required option(s): dice, difficulty"),
        ("/roll dice:five difficulty:1", "dice must be a whole number, got 'five'"),
        ("/roll dice:11 difficulty:1", "dice must be in 1..10 (got 11)"),
        ("/roll dice:5 difficulty:1 color:red", "unknown option 'color' (options: dice, difficulty, label)"),
        ("/roll dice:5 difficulty:1 label:go to Luthadel: now", "unknown option 'luthadel'"),
        ('/roll dice:5 difficulty:1 label:"open', "unclosed quote in option 'label'"),
        ('/roll dice:5 difficulty:1 label:"a"b', "expected a space after the quoted value of 'label'"),
        ("/roll dice:5 dice:6", "option 'dice' given twice"),
        ("/roll 5 3", "expected name:value, got '5'"),
        ("/roll dice:5 difficulty:1 label:" + "x" * 41, "label must be 0-40 characters long (got 41)"),
        ("/character", "/character needs one of: show"),
        ("/character delete name:x", "/character needs one of: show, got 'delete'"),
        ("/admin burden", "/admin burden needs one of: add"),
        ("/spotlight who:@nobody", "who: no @member '@nobody' (known: Mistborn Bot, narrator"),
        ("/spotlight where:#nowhere", "where: no #channel '#nowhere' (known: table, ooc)"),
        ("/pick stance:sideways", "stance must be one of: Bold, Wary (got 'sideways')"),
        ("/setting flag:maybe", "flag must be true or false, got 'maybe'"),
        ("/import file:/no/such/file.json", "file: no such file '/no/such/file.json'"),
    ],
)
def test_bad_lines(line: str, error: str) -> None:
    with pytest.raises(CommandLineError) as caught:
        parse_slash(line, COMMANDS, GUILD, NARRATOR, attach=lambda p: {})
    assert error in str(caught.value)


def test_a_value_that_fits_more_than_one_choice_names_them() -> None:
    guard = {"name": "Guard group (Extra)", "value": "guards"}
    commands = [
        {
            "id": "9",
            "name": "make",
            "type": 1,
            "options": [option("template", 3, True, choices=[guard, {"name": "Guard dog", "value": "dog"}])],
        }
    ]
    assert values(parse_slash("/make template:guard g", commands, GUILD, NARRATOR).options) == [
        ("template", "guards")
    ]
    with pytest.raises(CommandLineError) as caught:
        parse_slash("/make template:guard", commands, GUILD, NARRATOR)
    assert str(caught.value) == (
        "template: 'guard' fits Guard group (Extra), Guard dog: type more of the one you mean"
    )


def test_missing_permission_hides_the_command() -> None:
    with pytest.raises(CommandLineError, match="player1 cannot use admin: it needs manage_guild"):
        parse_slash("/admin burden add target:@player2", COMMANDS, GUILD, PLAYER)


def test_attachment_without_a_server_is_explained() -> None:
    with pytest.raises(CommandLineError, match="attachments need the fake Discord"):
        parse_slash("/import file:x.json", COMMANDS, GUILD, NARRATOR)


def test_split_pairs_for_modal_answers() -> None:
    assert split_pairs("note:Steel push name:Vin", {"note", "name"}) == [
        ("note", "Steel push"),
        ("name", "Vin"),
    ]


def test_usage_lines() -> None:
    lines = [line for command in COMMANDS for line in usage(command)]
    assert "/roll dice:<integer 1..10> difficulty:<integer 1..5> [label:<text>]" in lines
    assert "/admin burden add target:<@member> [amount:<number>]" in lines
    assert "/pick stance:<Bold|Wary>" in lines
    assert "!menu Show sheet @member" in lines
