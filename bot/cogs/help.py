"""``/help``: the commands and the dice rules, in the bot's own words."""

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.render.common import INFO

if TYPE_CHECKING:
    from bot.app import MistbornBot

DICE_RULES = (
    "• A pool is 2–10 six-sided dice: a rating plus 1 per helping Trait (−1 per hindering one), the "
    "target's Burdens, and at most ±1 each for Tools and Circumstances.\n"
    "• Over 10 dice you roll 10 and gain a free Nudge per extra die; under 2 you roll 2 and the Outcome "
    "drops 1 per missing die.\n"
    "• 6s are Nudges. The Result is the highest number (1–5) showing on two or more dice; no pair means 0.\n"
    "• You succeed when the Result reaches the Difficulty (1 unless the Narrator says otherwise). "
    "Outcome = Result − Difficulty.\n"
    "• A negative Outcome brings one Complication per point; on a failure each 6 cancels one. "
    "On a success each 6 is a small perk, and three or more let you catch a Beat (an extra action).\n"
    "• Contests: higher Result wins, then more Nudges; still tied is a stalemate."
)

COMMANDS = (
    "`/roll` dice or a stat from your sheet · `/gmroll` secret roll (Narrators) · `/read` dice rolled at "
    "the table · `/contest` two sides at once\n"
    "`/odds roll|table|contest` exact chances\n"
    "`/character create|show|list|use|rename|delete|import|export` · `/edit …` any part of a sheet\n"
    "`/sheet damage|heal|spend|recover|breather` · `/burden add|remove|step`\n"
    "`/conflict start|add|join|order|adjust|next-round|end|status` run a Conflict; in a round: "
    "`/declare` · `/act` · `/defend` · `/nudges` · `/switch` · `/pass` · `/burn`\n"
    "`/history rolls|fairness` · `/setup …` Narrator roles and the GM channel (admins)"
)


class Help(commands.Cog):
    def __init__(self, bot: "MistbornBot") -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to use the bot and how the dice work")
    async def help(self, interaction: discord.Interaction["MistbornBot"]) -> None:
        embed = discord.Embed(title="Mistborn Adventure Game bot", colour=INFO)
        embed.add_field(name="Commands", value=COMMANDS, inline=False)
        embed.add_field(name="The dice", value=DICE_RULES, inline=False)
        embed.set_footer(text="Start with /character create, then /character use, then /roll stat:Physique.")
        await interaction.response.send_message(embed=embed, ephemeral=True)
