"""``/history``: recent rolls and a fairness report of the bot's dice.

The roll log keeps ``MISTBORN_ROLL_LOG_DAYS`` of rolls (``bot.flow.upkeep`` prunes the rest), so
``/history rolls`` says how long it keeps them; the fairness report reads totals that count
every roll ever made (``storage.rolls``), so it says so too.
"""

import discord
from discord import app_commands
from discord.ext import commands

from bot.access import guild_id_of
from bot.client import Interaction, MistbornClient
from bot.render.common import INFO, add_field, clip, percent, plain
from rules.fairness import fairness


def kept(days: int) -> str:
    """What the roll log keeps, for the footer of ``/history rolls``."""
    if days <= 0:
        return "Every roll is kept."
    return f"Rolls are kept for {days} day{'s' if days != 1 else ''}; /history fairness counts every roll."


@app_commands.guild_only()
class History(
    commands.GroupCog,
    group_name="history",
    group_description="The latest rolls, and a fairness check of the bot's dice",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="rolls", description="The latest rolls in this server, or by one member")
    @app_commands.describe(member="Only this member's rolls", count="How many (1–25, default 10)")
    async def rolls(
        self,
        interaction: Interaction,
        member: discord.Member | None = None,
        count: app_commands.Range[int, 1, 25] = 10,
    ) -> None:
        guild_id = guild_id_of(interaction)
        records = await self.bot.storage.rolls.recent(guild_id, member.id if member else None, count)
        lines = []
        for r in records:
            verdict = "✓" if r.success else "✗"
            faces = " ".join(map(str, r.faces))
            lines.append(
                f"<t:{int(r.at.timestamp())}:R> <@{r.user_id}> **{plain(r.label)}** `{faces}` "
                f"{verdict} Result {r.result} vs {r.difficulty}, Outcome {r.outcome:+d}"
            )
        who = f" by {member.display_name}" if member else ""
        embed = discord.Embed(title=clip(f"Latest rolls{who}", 256), colour=INFO)
        embed.description = clip("\n".join(lines) or "No rolls yet.", 4096)
        embed.set_footer(text=kept(self.bot.settings.roll_log_days))
        await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    @app_commands.command(name="fairness", description="Face counts and success rate of the bot's dice")
    @app_commands.describe(member="Only this member's rolls")
    async def fairness_report(self, interaction: Interaction, member: discord.Member | None = None) -> None:
        guild_id = guild_id_of(interaction)
        stats = await self.bot.storage.rolls.stats(guild_id, member.id if member else None)
        check = fairness(stats.face_counts)
        who = member.display_name if member else "this server"
        embed = discord.Embed(title=clip(f"Dice fairness for {who}", 256), colour=INFO)
        counts = "\n".join(
            f"`{face}` {count} ({percent(count / check.dice) if check.dice else '—'})"
            for face, count in enumerate(stats.face_counts, start=1)
        )
        add_field(embed, "Faces", counts)
        rate = stats.success_rate
        add_field(
            embed,
            "Rolls",
            f"{stats.rolls} rolls, {check.dice} dice\nSuccess rate {'—' if rate is None else percent(rate)}",
        )
        verdict = "looks fair" if check.p_value >= 0.001 else "looks uneven; worth a closer look"
        add_field(
            embed,
            "Chi-square test",
            f"χ² = {check.chi_square:.2f}, p = {check.p_value:.3f}: {verdict}.",
            inline=False,
        )
        embed.set_footer(
            text="Each face should come up about 1 time in 6. Every roll the bot made counts, however "
            "old; dice typed in with /read do not."
        )
        await interaction.response.send_message(embed=embed)
