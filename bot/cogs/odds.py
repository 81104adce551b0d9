"""``/odds``: exact chances for a pool, the full table, and Contests, each with a chart.

The figures are the embed's text; the chart (``bot/render/charts.py``) is the same figures as a
picture, attached to the reply and shown as the embed's image.
"""

import asyncio
from collections.abc import Callable
from functools import partial
from io import BytesIO

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import Interaction, MistbornClient
from bot.render.charts import contest_chart, roll_chart, table_chart
from bot.render.dice import contest_odds_embed, odds_embed, odds_table_embed
from rules.odds import contest_odds, odds, odds_table
from rules.pool import build_pool

Dice = app_commands.Range[int, 0, 20]
Difficulty = app_commands.Range[int, 1, 5]
CHART = "odds.png"


async def answer_with_chart(
    interaction: Interaction, embed: discord.Embed, draw: Callable[[], bytes]
) -> None:
    """Send ``embed`` with the chart ``draw`` makes as its image.

    The chart is drawn in a worker thread: a first drawing takes 10–25 ms, too long to hold the
    event loop every other interaction waits on. Each input is drawn once (the charts are cached).
    """
    png = await asyncio.to_thread(draw)
    embed.set_image(url=f"attachment://{CHART}")
    await interaction.response.send_message(embed=embed, file=discord.File(BytesIO(png), filename=CHART))


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
        chances = odds(build_pool(dice), difficulty, extra=extra)
        await answer_with_chart(interaction, odds_embed(chances), partial(roll_chart, chances))

    @app_commands.command(
        name="table", description="Chance of success for 2–10 dice against every Difficulty"
    )
    async def table(self, interaction: Interaction) -> None:
        table = odds_table()
        await answer_with_chart(interaction, odds_table_embed(table), partial(table_chart, table))

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
        draw = partial(contest_chart, chances, acting=acting, opposing=opposing, difficulty=difficulty)
        await answer_with_chart(interaction, embed, draw)
