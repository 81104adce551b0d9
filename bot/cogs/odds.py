"""``/odds``: exact chances for a pool, the full table, and Contests."""

from discord import app_commands
from discord.ext import commands

from bot.client import Interaction, MistbornClient
from bot.render.dice import contest_odds_embed, odds_embed, odds_table_embed
from rules.odds import contest_odds, odds, odds_table
from rules.pool import build_pool

Dice = app_commands.Range[int, 0, 20]
Difficulty = app_commands.Range[int, 1, 5]


class Odds(
    commands.GroupCog,
    group_name="odds",
    group_description="Exact odds of a roll, the full table, or a Contest",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        super().__init__()

    @app_commands.command(name="roll", description="Chance that a pool meets a Difficulty, with its Outcomes")
    @app_commands.describe(
        dice="Pool size (0–20)", difficulty="1 Simple … 5 Nearly Impossible", extra="Rolled by an Extra"
    )
    async def roll_odds(
        self,
        interaction: Interaction,
        dice: Dice,
        difficulty: Difficulty = 1,
        extra: bool = False,
    ) -> None:
        await interaction.response.send_message(
            embed=odds_embed(odds(build_pool(dice), difficulty, extra=extra))
        )

    @app_commands.command(
        name="table", description="Chance of success for 2–10 dice against every Difficulty"
    )
    async def table(self, interaction: Interaction) -> None:
        await interaction.response.send_message(embed=odds_table_embed(odds_table()))

    @app_commands.command(name="contest", description="Chance to win, lose or stalemate a Contest")
    @app_commands.describe(
        acting="The acting side's pool",
        opposing="The resisting side's pool",
        difficulty="The acting side's Difficulty",
    )
    async def contest(
        self,
        interaction: Interaction,
        acting: Dice,
        opposing: Dice,
        difficulty: Difficulty = 1,
    ) -> None:
        chances = contest_odds(build_pool(acting), build_pool(opposing), difficulty=difficulty)
        embed = contest_odds_embed(chances, acting=acting, opposing=opposing, difficulty=difficulty)
        await interaction.response.send_message(embed=embed)
