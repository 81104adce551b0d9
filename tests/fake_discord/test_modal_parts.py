"""Modal parts in Labels (fake_discord/modal_parts.py) as Discord does them: a form with a
select, a radio group, a checkbox group and a checkbox opens, is filled by label, and its
submission reaches discord.py's own ``Modal`` parsing; a malformed part is refused with 400."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.ext import commands

from fake_discord.commandline import CommandLineError
from fake_discord.console_commands import typed_answers as _answers
from fake_discord.harness import Harness, running_bot
from fake_discord.render import render_modal
from fake_discord.validate import validate_modal

METALS = ("Steel", "Iron", "Pewter")


def options(cls: Any, *labels: str, default: str = "") -> list[Any]:
    return [cls(label=label, value=label.lower(), default=label == default) for label in labels]


class Sheet(discord.ui.Modal, title="A new sheet"):
    """Every part a Label can hold but a file upload, read back by discord.py itself."""

    def __init__(self) -> None:
        super().__init__(custom_id="sample:sheet")
        self.name = discord.ui.TextInput[Sheet](custom_id="name")
        self.kind = discord.ui.Select[Sheet](
            custom_id="kind", options=options(discord.SelectOption, "Hero", "Villain"), required=True
        )
        self.powers = discord.ui.RadioGroup[Sheet](
            custom_id="powers", options=options(discord.RadioGroupOption, "Mistborn", "Misting", "None")
        )
        self.metals = discord.ui.CheckboxGroup[Sheet](
            custom_id="metals",
            options=options(discord.CheckboxGroupOption, *METALS, default="Iron"),
            min_values=0,
            max_values=2,
            required=False,
        )
        self.public = discord.ui.Checkbox[Sheet](custom_id="public")
        for text, part in (
            ("Name", self.name),
            ("Kind", self.kind),
            ("Powers", self.powers),
            ("Metals", self.metals),
            ("Show it to the table", self.public),
        ):
            self.add_item(discord.ui.Label(text=text, component=part))

    async def on_submit(self, interaction: discord.Interaction) -> None:
        said = [self.name.value, self.kind.values, self.powers.value, self.metals.values, self.public.value]
        await interaction.response.send_message("|".join(str(part) for part in said))


class Broken(discord.ui.Modal, title="Broken"):
    def __init__(self, part: discord.ui.Item[Broken], *, labelled: bool = True) -> None:
        super().__init__(custom_id="sample:broken")
        self.add_item(discord.ui.Label(text="Part", component=part) if labelled else part)


def broken(which: str) -> Broken:
    radio = discord.ui.RadioGroup[Broken]
    group = discord.ui.CheckboxGroup[Broken]
    made: dict[str, Broken] = {
        "one radio option": Broken(radio(custom_id="r", options=options(discord.RadioGroupOption, "A"))),
        "eleven radio options": Broken(
            radio(custom_id="r", options=options(discord.RadioGroupOption, *"ABCDEFGHIJK"))
        ),
        "two radio defaults": Broken(
            radio(
                custom_id="r",
                options=[discord.RadioGroupOption(label=x, value=x, default=True) for x in ("A", "B")],
            )
        ),
        "more checkboxes than options": Broken(
            group(custom_id="g", options=options(discord.CheckboxGroupOption, "A", "B"), max_values=3)
        ),
        "a disabled select": Broken(
            discord.ui.Select[Broken](
                custom_id="s", disabled=True, options=options(discord.SelectOption, "A")
            )
        ),
        "a checkbox outside a label": Broken(discord.ui.Checkbox[Broken](custom_id="c"), labelled=False),
    }
    return made[which]


BROKEN = {
    "one radio option": "radio group has 1 options (2-10 allowed)",
    "eleven radio options": "radio group has 11 options (2-10 allowed)",
    "two radio defaults": "radio group has 2 default options (at most 1)",
    "more checkboxes than options": "checkbox group max_values 3 is more than its 2 options",
    "a disabled select": "a select in a modal cannot be disabled",
    "a checkbox outside a label": "a component of type 23 must be inside a Label",
}


class FormBot(commands.Bot):
    def __init__(self) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
        )

        @app_commands.command(description="Open a form of every part")
        async def sheet(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(Sheet())

        @app_commands.command(description="Open a malformed form")
        @app_commands.choices(which=[app_commands.Choice(name=k, value=k) for k in BROKEN])
        async def bad(interaction: discord.Interaction, which: str) -> None:
            await interaction.response.send_modal(broken(which))

        self.tree.add_command(sheet)
        self.tree.add_command(bad)

    async def setup_hook(self) -> None:
        await self.tree.sync()


@pytest.fixture
async def h() -> AsyncIterator[Harness]:
    async with running_bot(FormBot) as harness:
        yield harness


async def test_a_form_of_every_part_is_filled_by_label_and_parsed_by_discord_py(h: Harness) -> None:
    opened = await h.slash("/sheet")
    assert opened.modal is not None and h.violations == []
    kinds = [c["component"]["type"] for c in opened.modal["components"]]
    assert kinds == [4, 3, 21, 22, 23]
    sent = await h.submit(
        {"Name": "Vin", "Kind": "Hero", "Powers": "Misting", "Metals": ["Steel", "Pewter"], "public": True}
    )
    assert sent.content == "Vin|['hero']|misting|['steel', 'pewter']|True", sent.text
    parts = {c["component"]["custom_id"]: c["component"] for c in sent.payload["data"]["components"]}
    assert parts["powers"] == {"type": 21, "custom_id": "powers", "value": "misting"} | _id(parts["powers"])
    assert parts["metals"]["values"] == ["steel", "pewter"] and parts["public"]["value"] is True
    assert h.violations == []


def _id(part: dict[str, Any]) -> dict[str, Any]:
    return {"id": part["id"]} if "id" in part else {}


async def test_parts_not_given_go_as_they_opened(h: Harness) -> None:
    await h.slash("/sheet")
    sent = await h.submit({"Name": "Vin", "Kind": "Villain", "Powers": "None"})
    assert sent.content == "Vin|['villain']|none|['iron']|False", "Iron was ticked by default"


@pytest.mark.parametrize(
    ("values", "refusal"),
    [
        ({"Name": "Vin", "Kind": "Hero"}, "modal field required: Powers"),
        ({"Name": "Vin", "Powers": "None"}, "modal field required: Kind"),
        ({"Name": "Vin", "Kind": "Hero", "Powers": "Feruchemist"}, "'Feruchemist' is not an option"),
        (
            {"Name": "Vin", "Kind": "Hero", "Powers": "None", "Metals": "Steel,Iron,Pewter"},
            "pick 0..2, got 3",
        ),
        ({"Name": "Vin", "Kind": "Hero", "Powers": "None", "public": "maybe"}, "a checkbox is yes or no"),
    ],
)
async def test_what_discords_client_would_not_send_is_refused(
    h: Harness, values: dict[str, str], refusal: str
) -> None:
    await h.slash("/sheet")
    with pytest.raises(CommandLineError, match=refusal):
        await h.submit(values)


@pytest.mark.parametrize("which", list(BROKEN))
async def test_a_malformed_part_is_refused_with_400(h: Harness, which: str) -> None:
    reply = await h.slash(f"/bad which:{which}")
    assert reply.response is None and reply.errors and reply.errors[0]["code"] == 50035
    assert any(BROKEN[which] in v.problem and v.rejected for v in h.violations), h.violations


async def test_the_console_shows_the_parts_and_fills_them_from_a_line(h: Harness) -> None:
    opened = await h.slash("/sheet")
    assert opened.modal is not None
    shown = render_modal(opened.modal)
    assert "Powers: field powers (pick one, required)" in shown and "    * Iron" in shown
    typed = _answers(opened.modal, "name:Vin kind:Hero powers:Mistborn metals:Steel,Iron public:yes")
    sent = await h.submit(typed)
    assert sent.content == "Vin|['hero']|mistborn|['steel', 'iron']|True"


def test_label_text_and_description_keep_discords_limits() -> None:
    text_input = {"type": 4, "custom_id": "t", "style": 1}
    label = {"type": 18, "label": "L" * 46, "description": "", "component": text_input}
    problems = validate_modal({"title": "t", "custom_id": "m", "components": [label]})
    assert any("label must be 1-45" in p for p in problems) and any(
        "description must be 1-100" in p for p in problems
    )
