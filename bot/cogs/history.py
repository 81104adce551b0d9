"""``/history``: recent rolls and a fairness report of the bot's dice.

The roll log keeps ``MISTBORN_ROLL_LOG_DAYS`` of rolls (``bot.workers.upkeep`` prunes the rest), so
``/history rolls`` says how long it keeps them; the fairness report reads totals that count
every roll ever made (``storage.rolls``), so it says so too.

Both read the roll log through the secrecy rule (docs/rulings.md §7.1): a ``/gmroll`` is listed
and counted only for Narrators and its roller (``Caller.roll_viewer``, in the query itself), so
neither the list nor the totals tell a player anything about a secret roll. A reply that shows
or counts a secret roll is private; the footer says what was counted.

The list also reads only rolls made where the asker can read (``bot.reach``, docs/rulings.md
§7.6), and it is private when it lists one made anywhere else than this channel's table (another
channel, a private thread), whose readers the table may not share. The fairness report lists no
roll and says nothing of where one was made.
"""

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.checks import caller, cooldown
from bot.client import Interaction, MistbornClient
from bot.reach import reach_of, reads, table_reach
from bot.render.common import INFO, TITLE_LIMIT, add_field, clip, fit, percent, plain
from bot.served import guild_id_of, table_channel_of
from rules.fairness import fairness
from rules.words import count_of


def kept(days: int) -> str:
    """What the roll log keeps, for the footer of ``/history rolls``."""
    if days <= 0:
        return "Every roll is kept."
    return f"Rolls are kept for {count_of(days, 'day')}; /history fairness counts every roll."


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
        who_asks = await caller(interaction)
        reach = await reach_of(interaction, self.bot.storage, who_asks)
        records = await self.bot.storage.rolls.recent(
            guild_id, member.id if member else None, count, viewer=who_asks.roll_viewer, reach=reach
        )
        here = table_reach(table_channel_of(interaction))
        lines = []
        for r in records:
            verdict = "✓" if r.success else "✗"
            faces = " ".join(map(str, r.faces))
            secret = " (secret)" if r.secret else ""
            where = "" if reads(here, r) else f" in <#{r.private_thread_id or r.channel_id}>"
            lines.append(
                f"<t:{int(r.at.timestamp())}:R> <@{r.user_id}>{where} **{plain(r.label)}**{secret} `{faces}` "
                f"{verdict} Result {r.result} vs {r.difficulty}, Outcome {r.outcome:+d}"
            )
        who = f" by {plain(member.display_name)}" if member else ""
        embed = discord.Embed(title=fit(f"Latest rolls{who}", TITLE_LIMIT), colour=INFO)
        embed.description = clip("\n".join(lines) or "No rolls yet.", 4096)
        why = [
            *(["secret rolls"] if any(r.secret for r in records) else []),
            *(["rolls made elsewhere"] if not all(reads(here, r) for r in records) else []),
        ]
        private = bool(why)
        footer = kept(self.bot.settings.roll_log_days)
        embed.set_footer(
            text=f"Shown only to you: it lists {' and '.join(why)}. {footer}" if private else footer
        )
        await replies.send(
            interaction, embed=embed, allowed_mentions=discord.AllowedMentions.none(), ephemeral=private
        )

    @cooldown()
    @app_commands.command(name="fairness", description="Face counts and success rate of the bot's dice")
    @app_commands.describe(member="Only this member's rolls")
    async def fairness_report(self, interaction: Interaction, member: discord.Member | None = None) -> None:
        guild_id = guild_id_of(interaction)
        viewer = (await caller(interaction)).roll_viewer
        stats = await self.bot.storage.rolls.stats(guild_id, member.id if member else None, viewer=viewer)
        check = fairness(stats.face_counts)
        who = plain(member.display_name) if member else "this server"
        embed = discord.Embed(title=fit(f"Dice fairness for {who}", TITLE_LIMIT), colour=INFO)
        counts = "\n".join(
            f"`{face}` {count} ({percent(count / check.dice) if check.dice else '—'})"
            for face, count in enumerate(stats.face_counts, start=1)
        )
        add_field(embed, "Faces", counts)
        rate = stats.success_rate
        add_field(
            embed,
            "Rolls",
            f"{count_of(stats.rolls, 'roll')}, {count_of(check.dice, 'die')}\n"
            f"Success rate {'—' if rate is None else percent(rate)}",
        )
        verdict = "looks fair" if check.p_value >= 0.001 else "looks uneven; worth a closer look"
        add_field(
            embed,
            "Chi-square test",
            f"χ² = {check.chi_square:.2f}, p = {check.p_value:.3f}: {verdict}.",
            inline=False,
        )
        counted = (
            f"Counts every roll you may see, however old, {stats.secret} of them secret: shown only to you."
            if stats.secret
            else "Counts every roll you may see, however old; a secret roll counts only for its roller "
            "and the Narrators."
        )
        embed.set_footer(
            text="Each face should come up about 1 time in 6. Dice typed in with /read are not counted. "
            + counted
        )
        await replies.send(interaction, embed=embed, ephemeral=bool(stats.secret))
