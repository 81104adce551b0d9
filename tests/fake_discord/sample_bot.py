"""A throwaway bot that uses every app-command feature the fake Discord has to carry.

It exists only to prove the fake against real discord.py dispatch; it holds no game logic.
"""

from __future__ import annotations

import asyncio
import io
import json
from typing import Any, Literal

import discord
from discord import app_commands
from discord.ext import commands

from fake_discord.harness import Harness

CHARACTERS = ["Vin", "Kelsier", "Sazed", "Elend", "Marsh", "Spook", "Breeze", "Ham", "Dockson", "Clubs"]


class RollAgain(discord.ui.View):
    """Persistent: the fixed custom_id survives restarts, so clicks on old messages still work."""

    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Roll again", custom_id="sample:roll-again", style=discord.ButtonStyle.primary)
    async def again(self, interaction: discord.Interaction, button: discord.ui.Button[RollAgain]) -> None:
        await interaction.response.send_message(f"{interaction.user.name} rolls again")

    @discord.ui.button(label="Keep", custom_id="sample:keep")
    async def keep(self, interaction: discord.Interaction, button: discord.ui.Button[RollAgain]) -> None:
        button.disabled = True
        await interaction.response.edit_message(content="kept", view=self)


class MetalPicker(discord.ui.View):
    @discord.ui.select(
        custom_id="sample:metal",
        placeholder="Choose metals",
        max_values=2,
        options=[discord.SelectOption(label=m, value=m.lower()) for m in ("Steel", "Iron", "Pewter")],
    )
    async def pick(self, interaction: discord.Interaction, select: discord.ui.Select[MetalPicker]) -> None:
        await interaction.response.send_message(f"burning {' and '.join(select.values)}")

    @discord.ui.select(cls=discord.ui.UserSelect, custom_id="sample:ally", placeholder="Choose an ally")
    async def ally(
        self, interaction: discord.Interaction, select: discord.ui.UserSelect[MetalPicker]
    ) -> None:
        await interaction.response.send_message(f"ally: {select.values[0].display_name}", ephemeral=True)


class NoteModal(discord.ui.Modal, title="Character note"):
    note: discord.ui.TextInput[NoteModal] = discord.ui.TextInput(label="Note", custom_id="note")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"noted: {self.note.value}", ephemeral=True)


class RenameModal(discord.ui.Modal, title="Rename"):
    name: discord.ui.TextInput[RenameModal] = discord.ui.TextInput(label="Name", custom_id="name")
    epithet: discord.ui.TextInput[RenameModal] = discord.ui.TextInput(
        label="Epithet", custom_id="epithet", default="the Survivor"
    )
    aliases: discord.ui.TextInput[RenameModal] = discord.ui.TextInput(
        label="Aliases", custom_id="aliases", style=discord.TextStyle.paragraph, required=False
    )

    async def on_submit(self, interaction: discord.Interaction) -> None:
        aliases = " / ".join(self.aliases.value.splitlines())
        await interaction.response.edit_message(
            content=f"renamed to {self.name.value}, {self.epithet.value}"
            + (f" ({aliases})" if aliases else "")
        )


class RenameView(discord.ui.View):
    """A button whose modal, once submitted, updates the message the button is on."""

    @discord.ui.button(label="Rename", custom_id="sample:rename")
    async def rename(self, interaction: discord.Interaction, button: discord.ui.Button[RenameView]) -> None:
        await interaction.response.send_modal(RenameModal())


class SampleBot(commands.Bot):
    def __init__(self, *, sync_in_setup: bool = False, intents: discord.Intents | None = None) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents or discord.Intents.default(),
            allowed_mentions=discord.AllowedMentions.none(),
        )
        self.sync_in_setup = sync_in_setup
        self.tree.add_command(character)
        standalone: tuple[app_commands.Command[Any, ..., None], ...] = (
            ping,
            announce,
            metals,
            slowroll,
            whisper,
            import_json,
            narrate,
            note,
            rename,
            badnote,
            big,
            lateping,
            toomany,
            export,
            card,
        )
        for command in standalone:
            self.tree.add_command(command)
        self.tree.add_command(app_commands.ContextMenu(name="Show sheet", callback=show_sheet))
        self.tree.add_command(app_commands.ContextMenu(name="Quote", callback=quote))

    async def setup_hook(self) -> None:
        self.add_view(RollAgain())
        if self.sync_in_setup:
            await self.tree.sync()


character = app_commands.Group(name="character", description="Character sheets")


@character.command(name="show", description="Show a character sheet")
@app_commands.describe(name="Whose sheet")
async def show(interaction: discord.Interaction, name: str) -> None:
    embed = discord.Embed(title=name, description="A Mistborn of Luthadel")
    embed.add_field(name="Physique", value="3").set_footer(text="sheet v1")
    await interaction.response.send_message(embed=embed, view=RollAgain())


@show.autocomplete("name")
async def show_name(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=n, value=n) for n in CHARACTERS if current.lower() in n.lower()][:25]


@character.command(name="set", description="Set an attribute")
async def set_attribute(
    interaction: discord.Interaction,
    attribute: Literal["physique", "charm", "wits"],
    value: app_commands.Range[int, 1, 6],
    note: str | None = None,
) -> None:
    await interaction.response.send_message(f"{attribute}={value} note={note}", ephemeral=True)


def sample_card(text: str) -> discord.ui.LayoutView:
    """A layout message: a green container with a text display and a button row inside."""
    view = discord.ui.LayoutView(timeout=None)
    container = discord.ui.Container[discord.ui.LayoutView](
        discord.ui.TextDisplay(text), accent_colour=discord.Colour(0x3BA55C)
    )
    container.add_item(discord.ui.ActionRow(discord.ui.Button(label="Again", custom_id="card:again")))
    view.add_item(container)
    return view


@app_commands.command(description="Answer with a card (beside: text the bot wrongly sends with it)")
async def card(
    interaction: discord.Interaction, text: str = "A card", beside: str | None = None, late: bool = False
) -> None:
    view = sample_card(text)
    if late:
        await interaction.response.defer(thinking=True)
    if beside is None:
        await (interaction.followup.send(view=view) if late else interaction.response.send_message(view=view))
    elif late:  # what discord.py's types forbid, and Discord refuses
        await interaction.followup.send(beside, view=view)  # type: ignore[call-overload]
    else:
        await interaction.response.send_message(beside, view=view)  # type: ignore[call-overload]


@app_commands.command(description="Check the bot is alive")
async def ping(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("pong")


@app_commands.command(description="Post to the channel")
async def announce(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.send_message("posted", ephemeral=True)
    assert isinstance(interaction.channel, discord.TextChannel)
    message = await interaction.channel.send(text)
    await message.edit(content=f"{text}!")


@app_commands.command(description="Pick metals to burn")
async def metals(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("Which metals?", view=MetalPicker())


@app_commands.command(description="Roll after thinking")
async def slowroll(interaction: discord.Interaction, dice: app_commands.Range[int, 1, 10]) -> None:
    await interaction.response.defer(thinking=True)
    await asyncio.sleep(0.05)
    await interaction.followup.send(f"rolled {dice}")
    await interaction.followup.send("and a secret", ephemeral=True)


@app_commands.command(description="Say something only you see")
async def whisper(interaction: discord.Interaction, text: str) -> None:
    await interaction.response.send_message(text, ephemeral=True)


@app_commands.command(name="import", description="Import a character from JSON")
async def import_json(interaction: discord.Interaction, file: discord.Attachment) -> None:
    data = json.loads(await file.read())
    await interaction.response.send_message(f"imported {data['name']} ({file.filename})", ephemeral=True)


@app_commands.command(description="Narrator only: pick a player")
@app_commands.default_permissions(manage_guild=True)
async def narrate(interaction: discord.Interaction, player: discord.Member) -> None:
    await interaction.response.send_message(f"{player.display_name} is in the spotlight")


@app_commands.command(description="Write a note")
async def note(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(NoteModal())


@app_commands.command(description="A message whose button opens a modal")
async def rename(interaction: discord.Interaction) -> None:
    await interaction.response.send_message("unnamed", view=RenameView())


@app_commands.command(description="Answers a command's modal by updating a message it has not got")
async def badnote(interaction: discord.Interaction) -> None:
    await interaction.response.send_modal(RenameModal())


@app_commands.command(description="Sends an embed Discord refuses")
async def big(interaction: discord.Interaction) -> None:
    await interaction.response.send_message(embed=discord.Embed(description="x" * 5000))


@app_commands.command(description="Answers too late")
async def lateping(interaction: discord.Interaction) -> None:
    await asyncio.sleep(0.3)
    await interaction.response.send_message("late pong")


@app_commands.command(description="Autocompletes too much")
async def toomany(interaction: discord.Interaction, pick: str) -> None:
    await interaction.response.send_message(pick)


@toomany.autocomplete("pick")
async def toomany_pick(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=f"option {i}", value=str(i)) for i in range(30)]


class Confirm(discord.ui.View):
    """Labels that start with a mark, as the console shows a style (``+``) or an emoji."""

    @discord.ui.button(label="✅ Confirm", style=discord.ButtonStyle.success)
    async def confirm(self, interaction: discord.Interaction, button: discord.ui.Button[Confirm]) -> None:
        await interaction.response.send_message("confirmed")

    @discord.ui.button(label="Änder", style=discord.ButtonStyle.danger)
    async def change(self, interaction: discord.Interaction, button: discord.ui.Button[Confirm]) -> None:
        await interaction.response.send_message("changed")


@app_commands.command(description="Export a sheet as a file")
async def export(interaction: discord.Interaction, name: str) -> None:
    data = json.dumps({"name": name}).encode()
    files = [discord.File(io.BytesIO(data), f"{name}.json"), discord.File(io.BytesIO(b"notes"), "notes.txt")]
    await interaction.response.send_message(f"sheet of {name}", files=files, view=Confirm())


async def show_sheet(interaction: discord.Interaction, member: discord.Member) -> None:
    await interaction.response.send_message(f"sheet of {member.display_name}", ephemeral=True)


async def quote(interaction: discord.Interaction, message: discord.Message) -> None:
    await interaction.response.send_message(f"quoted: {message.content}")


def channel_of(h: Harness) -> discord.TextChannel:
    """The harness's channel as discord.py's cache holds it."""
    channel = h.bot.get_channel(h.channel.id)
    assert isinstance(channel, discord.TextChannel)
    return channel
