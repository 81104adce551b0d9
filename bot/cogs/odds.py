"""``/odds``: exact chances for a pool, the full table, and Contests, each with a chart.

The figures are the card's text; the chart (``bot/render/charts.py``) is the same figures as a
picture, attached to the reply and shown inside the card (a media gallery naming the file).
Nothing here reads a server, so ``/odds`` works anywhere, installed by a member for themselves
too (docs/architecture.md, "Dice anywhere").
"""

import asyncio
from collections.abc import Hashable
from io import BytesIO
from typing import TypeVar

import discord
from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.checks import cooldown
from bot.client import Interaction, MistbornClient
from bot.inputs.options import DiceCount, Difficulty
from bot.render.cards import Card, card_view
from bot.render.charts import contest_chart, roll_chart, table_chart
from bot.render.dice import CHART, contest_odds_card, odds_card, odds_table_card
from bot.render.drawings import Chart
from rules.odds import contest_odds, odds, odds_table
from rules.pool import build_pool

Figures = TypeVar("Figures", bound=Hashable)


async def answer_with_chart(interaction: Interaction, drawn: Card, chart: Chart[Figures]) -> None:
    """Send the card ``drawn`` with ``chart`` as the file its gallery shows.

    A first drawing (10–40 ms) happens in a worker thread, so as not to hold the event loop that
    every other interaction waits on; a chart drawn before is sent straight from the loop.
    """
    png = chart.drawn
    if png is None:
        png = await asyncio.to_thread(chart.png)
    await replies.send(interaction, view=card_view(drawn), file=discord.File(BytesIO(png), filename=CHART))


@app_commands.allowed_installs(guilds=True, users=True)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=True)
class Odds(
    commands.GroupCog,
    group_name="odds",
    group_description="Exact odds, with a chart: a roll, the full table, or a Contest",
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
        dice: DiceCount,
        difficulty: Difficulty = 1,
        extra: bool = False,
    ) -> None:
        chances = odds(build_pool(dice), difficulty, extra=extra)
        await answer_with_chart(interaction, odds_card(chances), roll_chart(chances))

    @app_commands.command(
        name="table", description="Chance of success for 2–10 dice against every Difficulty"
    )
    @cooldown()
    async def table(self, interaction: Interaction) -> None:
        table = odds_table()
        await answer_with_chart(interaction, odds_table_card(table), table_chart(table))

    @cooldown()
    @app_commands.command(name="contest", description="Chance to win, lose or stalemate a Contest")
    @app_commands.describe(
        acting="The acting side's pool",
        opposing="The resisting side's pool",
        difficulty="The acting side's Difficulty",
    )
    async def contest(
        self,
        interaction: Interaction,
        acting: DiceCount,
        opposing: DiceCount,
        difficulty: Difficulty = 1,
    ) -> None:
        chances = contest_odds(build_pool(acting), build_pool(opposing), difficulty=difficulty)
        drawn = contest_odds_card(chances, acting=acting, opposing=opposing, difficulty=difficulty)
        chart = contest_chart(chances, acting=acting, opposing=opposing, difficulty=difficulty)
        await answer_with_chart(interaction, drawn, chart)
