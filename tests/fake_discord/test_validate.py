"""Discord's limits as the fake checks them: each bad payload names the rule it breaks."""

from __future__ import annotations

import pytest

from fake_discord.validate import (
    is_valid_name,
    mention_problems,
    validate_autocomplete,
    validate_command,
    validate_command_set,
    validate_message,
    validate_modal,
)


def opt(name: str = "dice", kind: int = 4, **extra: object) -> dict[str, object]:
    return {"name": name, "description": "An option", "type": kind} | extra


def cmd(name: str = "roll", **extra: object) -> dict[str, object]:
    return {"name": name, "description": "Roll dice", "type": 1} | extra


def sub(name: str, *options: dict[str, object], kind: int = 1) -> dict[str, object]:
    return opt(name, kind, options=list(options))


@pytest.mark.parametrize(
    ("name", "ok"),
    [
        ("roll", True),
        ("burden-add", True),
        ("kelsier's_plan", True),
        ("héroe", True),
        ("日本", True),
        ("٣dice", True),
        ("Roll", False),
        ("two words", False),
        ("", False),
        ("x" * 33, False),
        ("x" * 32, True),
        ("dice!", False),
    ],
)
def test_command_names(name: str, ok: bool) -> None:
    assert is_valid_name(name) is ok


GOOD = cmd(options=[opt(required=True), opt("label", 3, min_length=1, max_length=50)])


@pytest.mark.parametrize(
    ("command", "problem"),
    [
        (cmd("Roll"), "command name 'Roll' must match"),
        (cmd(description=""), "/roll description must be 1-100 characters (got 0)"),
        (cmd(description="d" * 101), "(got 101)"),
        (cmd(options=[opt(f"o{i}") for i in range(26)]), "/roll has 26 options (max 25)"),
        (
            cmd(options=[opt("a"), opt("b", required=True)]),
            "required option /roll b comes after an optional one",
        ),
        (
            cmd(options=[opt(choices=[{"name": str(i), "value": i} for i in range(26)])]),
            "has 26 choices (max 25)",
        ),
        (
            cmd(options=[opt(choices=[{"name": "one", "value": 1}], autocomplete=True)]),
            "both choices and autocomplete",
        ),
        (cmd(options=[opt("who", 6, autocomplete=True)]), "autocomplete is only for string"),
        (cmd(options=[opt("flag", 5, choices=[{"name": "a", "value": "a"}])]), "choices are only for"),
        (cmd(options=[opt(choices=[{"name": "", "value": 1}])]), "choice name must be 1-100 characters"),
        (cmd(options=[sub("a", sub("b", sub("c")), kind=2)]), "only command > group > subcommand"),
        (cmd(options=[sub("a", opt(), kind=2)]), "group /roll a may only contain subcommands"),
        (cmd(options=[sub("show"), opt()]), "mixes subcommands with value options"),
        (cmd(options=[opt(options=[opt("inner")])]), "must not have nested options"),
        (cmd(options=[opt("a"), opt("a")]), "two options named 'a'"),
        (
            cmd(
                options=[
                    opt("pick", 3, choices=[{"name": "n" * 100, "value": f"{i:0>100}"} for i in range(25)])
                ]
            ),
            "(max 4000)",
        ),
        ({"name": "Show sheet", "type": 2, "description": "no"}, "must not have a description"),
        ({"name": "x" * 33, "type": 3}, "context menu"),
    ],
)
def test_bad_commands(command: dict[str, object], problem: str) -> None:
    problems = validate_command(command)
    assert any(problem in p for p in problems), problems


def test_good_commands_pass() -> None:
    nested = cmd("character", options=[sub("show", opt("name", 3, required=True, autocomplete=True))])
    group = cmd("admin", options=[sub("burden", sub("add", opt("amount", 10)), kind=2), sub("reset")])
    menu = {"name": "Show sheet", "type": 2}
    assert validate_command_set([GOOD, nested, group, menu]) == []


@pytest.mark.parametrize(
    ("commands", "problem"),
    [
        ([cmd(f"c{i}") for i in range(101)], "101 slash commands (max 100)"),
        ([{"name": f"Menu {i}", "type": 2} for i in range(6)], "6 user commands (max 5)"),
        ([{"name": f"Menu {i}", "type": 3} for i in range(6)], "6 message commands (max 5)"),
        ([cmd("roll"), cmd("roll")], "duplicate slash command names: roll"),
    ],
)
def test_bad_command_sets(commands: list[dict[str, object]], problem: str) -> None:
    assert problem in validate_command_set(commands)


def embed(**fields: object) -> dict[str, object]:
    return {"title": "t"} | fields


def row(*buttons: dict[str, object]) -> dict[str, object]:
    return {"type": 1, "components": list(buttons)}


def button(custom_id: str, label: str = "go") -> dict[str, object]:
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


@pytest.mark.parametrize(
    ("payload", "problem"),
    [
        ({"content": "x" * 2001}, "content has 2001 characters (max 2000)"),
        ({"embeds": [embed()] * 11}, "11 embeds (max 10)"),
        ({"embeds": [embed(title="t" * 257)]}, "embed 0 title has 257 characters (max 256)"),
        ({"embeds": [embed(description="d" * 4097)]}, "embed 0 description has 4097 characters (max 4096)"),
        ({"embeds": [embed(fields=[{"name": "n", "value": "v"}] * 26)]}, "embed 0 has 26 fields (max 25)"),
        ({"embeds": [embed(fields=[{"name": "n" * 257, "value": "v"}])]}, "field 0 name must be 1-256"),
        ({"embeds": [embed(fields=[{"name": "n", "value": "v" * 1025}])]}, "field 0 value must be 1-1024"),
        ({"embeds": [embed(fields=[{"name": "n", "value": ""}])]}, "field 0 value must be 1-1024"),
        ({"embeds": [embed(footer={"text": "f" * 2049})]}, "footer text has 2049 characters (max 2048)"),
        ({"embeds": [embed(author={"name": "a" * 257})]}, "author name has 257 characters (max 256)"),
        ({"embeds": [embed(description="d" * 4000)] * 2}, "embeds have 8002 characters in total (max 6000)"),
        ({"components": [row(button(f"b{i}")) for i in range(6)]}, "6 action rows (max 5)"),
        ({"components": [row(*[button(f"b{i}") for i in range(6)])]}, "action row 0 has 6 buttons (max 5)"),
        ({"components": [row(button("same"), button("same"))]}, "duplicate custom_ids: same"),
        ({"components": [row({"type": 2, "style": 1, "label": "x"})]}, "has no custom_id"),
        ({"components": [button("loose")]}, "not an action row"),
        ({"content": ""}, "cannot send an empty message"),
        ({"content": "c", "allowed_mentions": {"users": ["1", "2", "1"]}}, "allowed_mentions.users repeats"),
        ({"content": "c", "allowed_mentions": {"roles": ["7", "7"]}}, "allowed_mentions.roles repeats"),
        ({"content": "c", "allowed_mentions": {"users": [str(i) for i in range(101)]}}, "101 ids (max 100)"),
    ],
)
def test_bad_messages(payload: dict[str, object], problem: str) -> None:
    problems = validate_message(payload)
    assert any(problem in p for p in problems), problems


def test_good_message_and_edits() -> None:
    full = {
        "content": "c" * 2000,
        "embeds": [embed(description="d" * 4096, fields=[{"name": "n", "value": "v"}] * 25)],
        "components": [row(*[button(f"r{r}b{b}") for b in range(5)]) for r in range(5)],
    }
    assert validate_message(full) == []
    assert validate_message({"content": ""}, creating=False) == []
    assert validate_message({"content": "c", "allowed_mentions": {"users": ["1", "2"], "parse": []}}) == []
    card = {"type": 17, "components": [{"type": 10, "content": "A card"}]}
    assert validate_message({"components": [card], "flags": 1 << 15}) == []


@pytest.mark.parametrize(
    ("payload", "problems"),
    [
        ({"content": "hi", "allowed_mentions": {"parse": []}}, []),
        ({"embeds": [embed()]}, []),
        ({"content": "hi"}, ["message content sent without allowed_mentions"]),
        (
            {"content": "hi", "allowed_mentions": {"parse": ["users"]}},
            ["allowed_mentions may ping (parse=['users'])"],
        ),
        (
            {"content": "hi", "allowed_mentions": {"replied_user": True}},
            ["allowed_mentions may ping (replied_user=True)"],
        ),
        (
            {"content": "hi", "allowed_mentions": {"parse": [], "roles": ["1"]}},
            ["allowed_mentions may ping (roles=['1'])"],
        ),
        # Naming exactly which user to notify is deliberate, not something user text can hijack.
        ({"content": "<@1> defend!", "allowed_mentions": {"parse": [], "users": ["1"]}}, []),
    ],
)
def test_mention_house_rule(payload: dict[str, object], problems: list[str]) -> None:
    assert mention_problems(payload) == problems


def test_autocomplete_limits() -> None:
    ok = {"choices": [{"name": "Vin", "value": "vin"}]}
    assert validate_autocomplete(ok) == []
    assert validate_autocomplete({"choices": [{"name": "n", "value": 1}] * 26}) == [
        "26 autocomplete choices (max 25)"
    ]
    assert validate_autocomplete({}) == ["autocomplete response has no choices list"]


def select(count: int = 3, **extra: object) -> dict[str, object]:
    choices = [{"label": f"Option {i}", "value": str(i)} for i in range(count)]
    return {"type": 3, "custom_id": "pick", "options": choices} | extra


@pytest.mark.parametrize(
    ("component", "problem"),
    [
        (select(26), "has 26 options (1-25 allowed)"),
        (select(0), "has 0 options (1-25 allowed)"),
        (select(placeholder="p" * 151), "placeholder must be 0-150 characters (got 151)"),
        (select(max_values=4), "max_values 4 is more than its 3 options"),
        (select(min_values=2, max_values=1), "must satisfy 0 <= min <= max <= 25"),
        (select(options=[{"label": "x" * 101, "value": "1"}]), "option label must be 1-100 characters"),
        (select(options=[{"label": "a", "value": "v" * 101}]), "option value must be 1-100 characters"),
        (select(options=[{"label": "a", "value": "1", "description": "d" * 101}]), "option description"),
        (select(options=[{"label": "a", "value": "1"}, {"label": "b", "value": "1"}]), "duplicate option"),
        (
            select(
                options=[
                    {"label": "a", "value": "1", "default": True},
                    {"label": "b", "value": "2", "default": True},
                ]
            ),
            "2 default options but allows 1 values",
        ),
    ],
)
def test_bad_selects(component: dict[str, object], problem: str) -> None:
    problems = validate_message({"components": [row(component)]})
    assert any(problem in p for p in problems), problems


def test_a_full_select_passes_and_cannot_share_its_row() -> None:
    assert validate_message({"components": [row(select(25, placeholder="p" * 150))]}) == []
    assert "action row 0 mixes a select menu with other components" in validate_message(
        {"components": [row(select(), button("b"))]}
    )


def text_input(custom_id: str = "drive", **extra: object) -> dict[str, object]:
    return {"type": 4, "custom_id": custom_id, "style": 1, "label": "Drive"} | extra


def modal(*inputs: dict[str, object], **extra: object) -> dict[str, object]:
    rows = [{"type": 1, "components": [i]} for i in inputs]
    return {"title": "Traits", "custom_id": "m", "components": rows} | extra


@pytest.mark.parametrize(
    ("payload", "problem"),
    [
        (modal(text_input(), title="t" * 46), "modal title must be 1-45 characters (got 46)"),
        (modal(*[text_input(f"t{i}") for i in range(6)]), "modal has 6 components (1-5 allowed)"),
        (modal(), "modal has 0 components (1-5 allowed)"),
        (modal(text_input(label="l" * 46)), "label must be 1-45 characters (got 46)"),
        (modal(text_input(style=3)), "style must be 1 (short) or 2 (paragraph)"),
        (modal(text_input(placeholder="p" * 101)), "placeholder must be 0-100 characters"),
        (modal(text_input(max_length=4001)), "must be 0-4000 and 1-4000"),
        (modal(text_input(max_length=3, value="four")), "value is longer than its max_length 3"),
        (modal(text_input(), text_input()), "duplicate custom_ids: drive"),
        ({"title": "t", "custom_id": "m", "components": [{"type": 1, "components": []}]}, "exactly one"),
        ({"title": "t", "custom_id": "m", "components": [{"type": 2}]}, "not an action row or a label"),
    ],
)
def test_bad_modals(payload: dict[str, object], problem: str) -> None:
    problems = validate_modal(payload)
    assert any(problem in p for p in problems), problems


def test_a_full_modal_passes_in_rows_or_labels() -> None:
    inputs = [text_input(f"t{i}", max_length=60, value="x" * 60) for i in range(5)]
    assert validate_modal(modal(*inputs)) == []
    labelled = {
        "type": 18,
        "label": "Props",
        "description": "One per line",
        "component": text_input(label=None),
    }
    assert validate_modal({"title": "Story", "custom_id": "m", "components": [labelled]}) == []
