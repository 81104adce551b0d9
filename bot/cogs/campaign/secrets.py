"""``/secret``: the Narrator's Secrets (docs/rulings.md §10.3).

A Narrator keeps the server's list (a story Secret, or a rules one naming a metal it unlocks)
and reveals one to a Hero or to the table; an edit or a delete changes the sheets of the Heroes
told it in the same transaction (a new title renamed there, a deleted Secret forgotten). A
reveal posts a card in the channel naming the Secret's title and whom it was told, with a
**Read it** button: the words go privately to whoever may read them (a Narrator, the player of
a Hero told it, anyone once told to the table), and to nobody else. Told to a Hero, the title
joins the sheet's Secrets known, saved with the reveal and its journal entry in one
transaction; the Narrator is offered an award. ``/secret reveal`` and the Reveal button of the
Narrator's ``/secret list`` (``secret_panel``) go through one flow (``secret_reveal``).
"""

import re
from collections.abc import Callable
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.checks import caller
from bot.client import Interaction, MistbornClient
from bot.cogs.campaign.secret_panel import PANEL_ITEMS, pick_menu
from bot.cogs.campaign.secret_reveal import READ_ID, reveal_secret, secret_text
from bot.errors import BotError
from bot.inputs.characters import AnyCharacter
from bot.inputs.choices import EnumChoice
from bot.render.common import plain
from bot.served import guild_id_of
from rules.campaign.secrets import SecretKind, make_secret
from rules.character.story import Story, forget, learn
from storage import Repositories
from storage.errors import AlreadyExistsError, NotFoundError
from storage.secrets import StoredSecret
from storage.sql import utc_now

Title = app_commands.Range[str, 1, 60]
Words = app_commands.Range[str, 1, 1000]
KindName = app_commands.Transform[SecretKind, EnumChoice(SecretKind, "kind of Secret")]
READ = r"mab:secret:(?P<secret>\d+)"
NOT_TOLD = "That Secret was not told to you: only the Narrator and those told it read its words."


async def find_secret(interaction: Interaction, title: str) -> StoredSecret:
    found = await interaction.client.storage.secrets.named(guild_id_of(interaction), title)
    if found is None:
        raise BotError(f"There is no Secret called {plain(title)} here; `/secret list` shows them.")
    return found


async def secret_titles(interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Suggestions for Narrators only: a player is never shown a title they were not told."""
    if interaction.guild_id is None or not (await caller(interaction)).narrator:
        return []
    found = await interaction.client.storage.secrets.search(interaction.guild_id, current)
    return [app_commands.Choice(name=s.title, value=s.title) for s in found]


async def may_read(interaction: Interaction, stored: StoredSecret) -> bool:
    if (await caller(interaction)).narrator:
        return True
    storage = interaction.client.storage
    mine = [c.id for c in await storage.characters.list_by_guild(stored.guild_id, interaction.user.id)]
    readable = await storage.secrets.readable(stored.guild_id, mine)
    return any(s.id == stored.id for s in readable)


async def retell(tx: Repositories, stored: StoredSecret, change: Callable[[Story], Story]) -> None:
    """Each sheet of a Hero told ``stored``, its Secrets known changed by ``change``, on ``tx``."""
    for reveal in await tx.secrets.reveals(stored.guild_id, stored.id):
        if reveal.character_id is None:
            continue
        try:
            hero = await tx.characters.get(stored.guild_id, reveal.character_id)
        except NotFoundError:
            continue  # deleted since: nothing to follow
        after = hero.character.model_copy(update={"story": change(hero.character.story)})
        if after != hero.character:
            await tx.characters.update(stored.guild_id, hero, after)


@app_commands.guild_only()
class SecretCommands(
    commands.GroupCog,
    group_name="secret",
    group_description="Narrators: the server's Secrets, and revealing one to a Hero or the table",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(ReadSecret, *PANEL_ITEMS)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(ReadSecret, *PANEL_ITEMS)

    @app_commands.command(name="add", description="Narrator: keep a new Secret (a story one or a rules one)")
    @app_commands.describe(
        title="Its title (shown on the sheets of Heroes told it)",
        text="Its words (read only by those told it)",
        kind="story: it bends the story; rules: it opens an option",
        metal="A rules Secret: the metal it lets a Mistborn or Keeper learn",
    )
    async def add(
        self,
        interaction: Interaction,
        title: Title,
        text: Words,
        kind: KindName = SecretKind.STORY,
        metal: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        (await caller(interaction)).require_narrator("keep Secrets")
        secret = make_secret(title, text, kind, metal)
        try:
            stored = await self.bot.storage.secrets.add(
                guild_id_of(interaction), secret, interaction.user.id, utc_now()
            )
        except AlreadyExistsError as error:
            raise BotError(str(error)) from error
        await replies.send(
            interaction, "Kept, for Narrators only until revealed:\n" + secret_text(stored), ephemeral=True
        )

    @app_commands.command(name="edit", description="Narrator: change a Secret's title, words, kind or metal")
    @app_commands.describe(
        title="The Secret",
        new_title="Its new title (renamed on the sheets of Heroes told it)",
        text="Its new words",
        kind="story or rules",
        metal="A rules Secret: the metal it unlocks",
    )
    @app_commands.autocomplete(title=secret_titles)
    async def edit(
        self,
        interaction: Interaction,
        title: Title,
        new_title: Title | None = None,
        text: Words | None = None,
        kind: KindName | None = None,
        metal: app_commands.Range[str, 1, 40] | None = None,
    ) -> None:
        (await caller(interaction)).require_narrator("edit Secrets")
        stored = await find_secret(interaction, title)
        old = stored.secret
        if new_title is None and text is None and kind is None and metal is None:
            raise BotError("Say what to change: `new_title`, `text`, `kind` or `metal`.")
        secret = make_secret(
            new_title or old.title,
            text or old.text,
            SecretKind(kind) if kind else old.kind,
            metal or old.unlock_metal,
            old.unlock_type,
        )
        try:
            async with self.bot.storage.transaction() as tx:
                await tx.handled.claim(interaction.id)
                saved = await tx.secrets.replace(stored, secret)
                if secret.title != old.title:
                    await retell(tx, stored, lambda story: learn(forget(story, old.title), secret.title))
        except AlreadyExistsError as error:
            raise BotError(str(error)) from error
        await replies.send(interaction, "Changed:\n" + secret_text(saved), ephemeral=True)

    @app_commands.command(
        name="delete", description="Narrator: delete a Secret (forgotten on the sheets told it)"
    )
    @app_commands.describe(title="The Secret")
    @app_commands.autocomplete(title=secret_titles)
    async def delete(self, interaction: Interaction, title: Title) -> None:
        (await caller(interaction)).require_narrator("delete Secrets")
        stored = await find_secret(interaction, title)
        async with self.bot.storage.transaction() as tx:
            await tx.handled.claim(interaction.id)
            await retell(tx, stored, lambda story: forget(story, stored.title))
            await tx.secrets.delete(stored.guild_id, stored.id)
        await replies.send(
            interaction,
            f"**{plain(stored.title)}** deleted, and taken off the Secrets known of the Heroes told it.",
            ephemeral=True,
        )

    @app_commands.command(name="list", description="The Secrets you may read (a Narrator: every one)")
    async def list(self, interaction: Interaction) -> None:
        who = await caller(interaction)
        storage, guild_id = self.bot.storage, guild_id_of(interaction)
        if who.narrator:
            found = await storage.secrets.all(guild_id)
        else:
            mine = [c.id for c in await storage.characters.list_by_guild(guild_id, interaction.user.id)]
            found = await storage.secrets.readable(guild_id, mine)
        if not found:
            raise BotError(
                "No Secret here that you may read."
                if not who.narrator
                else "No Secret kept yet: `/secret add`."
            )
        lines = [f"• **{plain(s.title)}** ({s.secret.kind.label})" for s in found[:40]]
        if not who.narrator:
            await replies.send(interaction, "\n".join(lines), ephemeral=True)
            return
        told = await storage.secrets.told(guild_id)
        view = pick_menu(found, told)
        if view is not None:
            lines.append(
                "-# Reveal one from the menu (the first 25 not told to the table), or with `/secret reveal`."
            )
        await replies.send(interaction, "\n".join(lines), ephemeral=True, view=view)

    @app_commands.command(name="reveal", description="Narrator: reveal a Secret to one Hero, or to the table")
    @app_commands.describe(title="The Secret", hero="The Hero told it (default: the whole table)")
    @app_commands.autocomplete(title=secret_titles)
    async def reveal(self, interaction: Interaction, title: Title, hero: AnyCharacter | None = None) -> None:
        (await caller(interaction)).require_narrator("reveal a Secret")
        await reveal_secret(interaction, await find_secret(interaction, title), hero)


async def read(interaction: Interaction, secret_id: int) -> None:
    storage = interaction.client.storage
    stored = await storage.secrets.get(guild_id_of(interaction), secret_id)
    if not await may_read(interaction, stored):
        raise BotError(NOT_TOLD)
    await replies.send(interaction, secret_text(stored), ephemeral=True)


class ReadSecret(discord.ui.DynamicItem[discord.ui.Button[Any]], template=READ):
    """The reveal card's button: the words, privately, to whoever may read them."""

    def __init__(self, secret: int) -> None:
        super().__init__(discord.ui.Button(custom_id=READ_ID.format(secret=secret)))
        self.secret = secret

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> "ReadSecret":
        return cls(int(match["secret"]))

    async def callback(self, interaction: Interaction) -> None:  # type: ignore[override]
        await read(interaction, self.secret)
