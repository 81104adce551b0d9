"""``/scene circumstances`` and ``/scene breather``: what the Narrator sets for the scene.

Circumstances are only ever the Narrator's (docs/rulings.md §1.6): set here for a channel, every
roll made there carries them (``/roll``, ``/declare``, a Contest, a request's panel) unless the
Narrator gives others with the roll. Anyone may see them; only a Narrator sets or clears them.

A Breather is the Narrator's call too (§5.12): ``/scene breather`` calls one for the Heroes at
the table, and each player takes it for their Hero from the button under the call
(``bot.cogs.scene.breathers``).
"""

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.checks import caller
from bot.client import Interaction, MistbornClient
from bot.cogs.scene.breathers import TakeBreather, breather_view, title_of
from bot.errors import BotError
from bot.inputs.choices import Net, WordChoice
from bot.inputs.circumstances import scene_applied, scene_circumstances
from bot.inputs.heroes import heroes_at_table
from bot.served import channel_id_of, guild_id_of
from rules.character import BreatherKind
from storage.scenes import NOTE_LENGTH, BreatherCall, SceneCircumstances

Note = app_commands.Range[str, 1, NOTE_LENGTH]
Names = app_commands.Range[str, 1, 1000]
KindChoice = app_commands.Transform[
    BreatherKind,
    WordChoice({k.value: k for k in BreatherKind}, "Breather", {k.value: k.label for k in BreatherKind}),
]
NO_SCENE = SceneCircumstances()
MAX_CALLED = 25
"""Heroes per call: a button each in one message (Discord allows 25)."""


@app_commands.guild_only()
class SceneCommands(
    commands.GroupCog,
    group_name="scene",
    group_description="The scene in this channel: its Circumstances, and Breathers (Narrators set them)",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(TakeBreather)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(TakeBreather)

    @app_commands.command(
        name="circumstances", description="See this scene's Circumstances; Narrators set or clear them"
    )
    @app_commands.describe(
        value="Narrators: +1 favourable, −1 adverse, 0 clears them",
        note="Why, in a few words (shown with every roll here)",
    )
    async def circumstances(
        self, interaction: Interaction, value: Net | None = None, note: Note | None = None
    ) -> None:
        if value is None:
            if note is not None:
                raise BotError("Give `value` with the note: +1, 0 or −1.")
            text = scene_applied(await scene_circumstances(interaction)).text()
            shown = f"Circumstances here: {text}." if text else "No Circumstances are set here."
            await replies.send(interaction, shown, ephemeral=True)
            return
        (await caller(interaction)).require_narrator("set the scene's Circumstances")
        if value not in (-1, 0, 1):  # Discord's client offers only these; a raw payload may not
            raise BotError("Circumstances are −1 (adverse), 0 (none) or +1 (favourable).")
        scene = (
            SceneCircumstances(net=value, note=" ".join((note or "").split()))
            if value
            else SceneCircumstances()
        )
        await self.bot.storage.scenes.set_circumstances(
            guild_id_of(interaction), channel_id_of(interaction), scene
        )
        text = scene_applied(scene).text()
        said = (
            f"Circumstances for this scene: {text}. Every roll here carries them."
            if text
            else "Circumstances cleared: rolls here carry none."
        )
        await replies.send(interaction, said, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(
        name="breather", description="Narrators: call a Breather; each player takes it for their Hero"
    )
    @app_commands.describe(
        kind="Short: half the lost Reputation and Willpower; Long: everything, and eases a Burden",
        resting="Short Breather while resting: Health recovers too",
        heroes="Who, by name, e.g. Vin, Kelsier (default: the Heroes at this table)",
    )
    async def breather(
        self, interaction: Interaction, kind: KindChoice, resting: bool = False, heroes: Names | None = None
    ) -> None:
        (await caller(interaction)).require_narrator("call a Breather")
        found = await heroes_at_table(interaction, heroes, MAX_CALLED + 1)
        if not found:
            raise BotError(
                "Nobody to call a Breather for: name the Heroes (`heroes:`), or have the players "
                "choose their Hero with /character use."
            )
        if len(found) > MAX_CALLED:
            raise BotError(f"A Breather is called for at most {MAX_CALLED} Heroes; name them with `heroes:`.")
        call = BreatherCall(kind=kind, resting=resting and kind is BreatherKind.SHORT, call_id=interaction.id)
        async with self.bot.storage.transaction() as tx:
            await tx.handled.claim(interaction.id)  # a replayed call never opens a taken Breather again
            await tx.scenes.call_breather(
                guild_id_of(interaction), [h.id for h in found], call, interaction.user.id
            )
        owners = list(dict.fromkeys(h.character.owner_id for h in found))
        content = (
            f"{title_of(call)}: {' '.join(f'<@{o}>' for o in owners)} — take it from your Hero's button. "
            "Resiliences come back as the Breather says, and spent Standings too."
        )
        mentions = discord.AllowedMentions(
            users=[discord.Object(o) for o in owners], everyone=False, roles=False
        )
        await replies.send(interaction, content, view=breather_view(found, call), allowed_mentions=mentions)
