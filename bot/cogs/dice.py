"""Rolling: ``/roll``, ``/gmroll`` (secret), ``/read`` (table dice) and ``/contest``.

Each command parses its options, forms the pool (from a bare count or from a sheet), rolls with
the bot's injected generator, logs the roll once, and renders the reading.
"""

import re
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import guild_id_of, narrator_only
from bot.errors import BotError
from bot.render.dice import contest_embed, reading_embed
from bot.sheets import PoolRequest, character_choices, form_pool, opponent_stat_choices, stat_choices
from rules.character.stats import spend_standing, standing_available
from rules.contest import decide
from rules.outcome import DEFAULT_DIFFICULTY
from rules.pool import build_pool
from rules.roll import Reading, read, roll
from storage.rolls import RollRecord

if TYPE_CHECKING:
    from bot.app import MistbornBot

Net = Literal[-1, 0, 1]
Difficulty = app_commands.Range[int, 1, 5]
Traits = app_commands.Range[int, -10, 10]
Modifier = app_commands.Range[int, -10, 10]
DiceCount = app_commands.Range[int, 0, 20]
Label = app_commands.Range[str, 1, 40]

ROLL_DESCRIPTIONS = {
    "dice": "Roll this many dice (0–20; above 10 gives free Nudges)",
    "stat": "Or roll a stat or Power from the character's sheet",
    "character": "Whose sheet to use (default: your active character)",
    "difficulty": "1 Simple … 5 Nearly Impossible (default 1)",
    "traits": "Net Traits: +1 per helping Trait, −1 per hindering one",
    "tool": "A fitting Tool (+1) or a missing/broken one (−1)",
    "circumstances": "Two or more favourable (+1) or adverse (−1) conditions",
    "modifier": "Any other dice to add or remove",
    "label": "What the roll is for, shown as its title",
}


class Dice(commands.Cog):
    def __init__(self, bot: "MistbornBot") -> None:
        self.bot = bot

    async def _roll(
        self,
        interaction: discord.Interaction["MistbornBot"],
        request: PoolRequest,
        difficulty: int,
        label: str | None,
    ) -> tuple[Reading, discord.Embed]:
        guild_id = guild_id_of(interaction)
        formed = await form_pool(interaction, request)
        spent = (
            spend_standing(formed.stored.character, formed.spends)
            if formed.stored and formed.spends
            else None
        )
        reading = roll(formed.pool, self.bot.rng, difficulty=difficulty, extra=formed.extra)
        record = RollRecord(
            guild_id=guild_id,
            user_id=interaction.user.id,
            at=datetime.now(UTC),
            label=(label or formed.title)[:40],
            dice=reading.pool.dice,
            free_nudges=reading.pool.free_nudges,
            underflow=reading.pool.underflow,
            difficulty=reading.difficulty,
            faces=reading.faces,
            result=reading.result,
            outcome=reading.outcome,
            success=reading.success,
        )
        if spent is not None and formed.stored is not None:
            async with self.bot.storage.transaction() as tx:  # the spend and the log stand together
                await tx.characters.update(guild_id, formed.stored, spent)
                await tx.rolls.append(record)
        else:
            await self.bot.storage.rolls.append(record)
        embed = reading_embed(reading, title=label or formed.title, roller=interaction.user.display_name)
        if spent is not None and formed.spends is not None:
            left = standing_available(spent, formed.spends)
            embed.set_footer(text=f"{formed.spends.label} spent: {left} left until it recovers.")
        return reading, embed

    @app_commands.command(name="roll", description="Roll a dice pool and read the Result, Outcome and Nudges")
    @app_commands.describe(**ROLL_DESCRIPTIONS)
    @app_commands.autocomplete(stat=stat_choices, character=character_choices)
    @app_commands.guild_only()
    async def roll_command(
        self,
        interaction: discord.Interaction["MistbornBot"],
        dice: DiceCount | None = None,
        stat: app_commands.Range[str, 1, 40] | None = None,
        character: app_commands.Range[str, 1, 64] | None = None,
        difficulty: Difficulty = DEFAULT_DIFFICULTY,
        traits: Traits = 0,
        tool: Net = 0,
        circumstances: Net = 0,
        modifier: Modifier = 0,
        label: Label | None = None,
    ) -> None:
        request = PoolRequest(dice, stat, character, traits, tool, circumstances, modifier)
        _, embed = await self._roll(interaction, request, difficulty, label)
        await interaction.response.send_message(embed=embed)

    @app_commands.command(
        name="gmroll", description="Narrators: a secret roll, shown only to you and the GM channel"
    )
    @app_commands.describe(**ROLL_DESCRIPTIONS)
    @app_commands.autocomplete(stat=stat_choices, character=character_choices)
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_guild=True)
    @narrator_only("make secret rolls")
    async def gmroll(
        self,
        interaction: discord.Interaction["MistbornBot"],
        dice: DiceCount | None = None,
        stat: app_commands.Range[str, 1, 40] | None = None,
        character: app_commands.Range[str, 1, 64] | None = None,
        difficulty: Difficulty = DEFAULT_DIFFICULTY,
        traits: Traits = 0,
        tool: Net = 0,
        circumstances: Net = 0,
        modifier: Modifier = 0,
        label: Label | None = None,
    ) -> None:
        request = PoolRequest(dice, stat, character, traits, tool, circumstances, modifier)
        _, embed = await self._roll(interaction, request, difficulty, label)
        embed.set_footer(text="Secret roll")
        await interaction.response.send_message(embed=embed, ephemeral=True)
        settings = await self.bot.storage.settings.get(guild_id_of(interaction))
        channel = self.bot.get_channel(settings.gm_channel_id) if settings.gm_channel_id else None
        if isinstance(channel, discord.abc.Messageable) and channel.id != interaction.channel_id:
            try:
                await channel.send(embed=embed)
            except discord.HTTPException:
                await interaction.followup.send(
                    "I could not post a copy in the GM channel; check my permissions there.", ephemeral=True
                )

    @app_commands.command(name="read", description="Read dice rolled at the table: type the faces you see")
    @app_commands.describe(
        faces="The faces, e.g. 3 3 6 1 5",
        difficulty="1 Simple … 5 Nearly Impossible (default 1)",
        pool="The pool's full size if it was above 10 or below 2 (for free Nudges or the penalty)",
        extra="The roller is an Extra (no Nudges)",
        label="What the roll was for",
    )
    @app_commands.guild_only()
    async def read_command(
        self,
        interaction: discord.Interaction["MistbornBot"],
        faces: app_commands.Range[str, 1, 60],
        difficulty: Difficulty = DEFAULT_DIFFICULTY,
        pool: DiceCount | None = None,
        extra: bool = False,
        label: Label | None = None,
    ) -> None:
        values = parse_faces(faces)
        formed = build_pool(pool) if pool is not None else None
        reading = read(values, pool=formed, difficulty=difficulty, extra=extra)
        embed = reading_embed(reading, title=label or "Table dice", roller=interaction.user.display_name)
        await interaction.response.send_message(embed=embed)

    @app_commands.command(name="contest", description="Roll a Contest between two pools or two characters")
    @app_commands.describe(
        actor="The acting character (default: your active one, unless you give dice)",
        actor_stat="The acting side's stat or Power",
        actor_dice="Or the acting side's dice",
        opponent="The resisting character",
        opponent_stat="The resisting side's stat or Power",
        opponent_dice="Or the resisting side's dice",
        difficulty="The acting side must also reach this (default 1)",
    )
    @app_commands.autocomplete(
        actor=character_choices,
        opponent=character_choices,
        actor_stat=stat_choices,
        opponent_stat=opponent_stat_choices,
    )
    @app_commands.guild_only()
    async def contest(
        self,
        interaction: discord.Interaction["MistbornBot"],
        actor: app_commands.Range[str, 1, 64] | None = None,
        actor_stat: app_commands.Range[str, 1, 40] | None = None,
        actor_dice: DiceCount | None = None,
        opponent: app_commands.Range[str, 1, 64] | None = None,
        opponent_stat: app_commands.Range[str, 1, 40] | None = None,
        opponent_dice: DiceCount | None = None,
        difficulty: Difficulty = DEFAULT_DIFFICULTY,
    ) -> None:
        acting = await form_pool(interaction, PoolRequest(actor_dice, actor_stat, actor))
        if opponent_dice is None and opponent_stat is None:
            raise BotError("Give the opponent's dice, or their stat (with `opponent` for whose sheet).")
        if opponent_stat is not None and opponent is None:
            raise BotError("Name the opponent whose sheet has that stat.")
        opposing = await form_pool(
            interaction, PoolRequest(opponent_dice, opponent_stat, opponent), acting=False
        )
        rng = self.bot.rng
        result = decide(
            [roll(acting.pool, rng, difficulty=difficulty, extra=acting.extra)],
            [roll(opposing.pool, rng, extra=opposing.extra)],
        )
        embed = contest_embed(result, acting=acting.who, opposing=opposing.who)
        await interaction.response.send_message(embed=embed)


FACE_SEPARATORS = re.compile(r"[\s,;/]+")


def parse_faces(text: str) -> list[int]:
    """Faces typed as ``3 3 6 1``, ``3,3,6,1`` or ``3361``; anything else is a clear error."""
    text = text.strip()
    words = [w for w in FACE_SEPARATORS.split(text) if w]
    if len(words) == 1 and words[0].isdigit() and len(words[0]) > 1:
        words = list(words[0])
    faces = []
    for word in words:
        if not (word.isascii() and word.isdigit()):
            raise BotError(f"Type the faces as numbers 1 to 6, e.g. `3 3 6 1`; `{word[:10]}` is not one.")
        faces.append(int(word))
    return faces
