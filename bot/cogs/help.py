"""``/help``: the commands (read from the command tree itself) and the dice rules, in short."""

from discord import app_commands
from discord.ext import commands

from bot import replies
from bot.client import Interaction, MistbornClient
from bot.errors import BotError
from bot.render.common import clip, plain
from bot.render.help import command_embed, help_embed, slash_commands

DICE_RULES = (
    "• A pool is 2–10 six-sided dice: a rating, ±1 per helping or hindering Trait, the target's Burdens, "
    "and at most ±1 each for Tools and Circumstances.\n"
    "• Over 10 dice you roll 10 and gain a free Nudge per extra die; under 2 you roll 2 and the Outcome "
    "drops 1 per missing die.\n"
    "• 6s are Nudges. The Result is the highest number (1–5) on two or more dice; no pair means 0.\n"
    "• You succeed when the Result reaches the Difficulty (default 1). Outcome = Result − Difficulty, "
    "but a failed roll's Result counts as 0: its Outcome is −Difficulty (4s against 5: −5).\n"
    "• A negative Outcome brings a Complication per point; on a failure each 6 cancels one. On a "
    "success each 6 is a perk; three or more rolled 6s (not free Nudges) catch a Beat, an extra action.\n"
    "• Contests: the actor must succeed first; then the higher Result wins, then more Nudges; still "
    "tied is a stalemate.\n"
    "• In a Conflict your pool comes from your Action Dice: with fewer than 2 you cannot act, only "
    "`/pass`."
)


class Help(commands.Cog):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="How to use the bot and how the dice work")
    @app_commands.describe(command="One command to explain in full, with its options")
    async def help(
        self, interaction: Interaction, command: app_commands.Range[str, 1, 32] | None = None
    ) -> None:
        registered = self.bot.tree.get_commands()
        if command is None:
            await replies.send(interaction, embed=help_embed(registered, DICE_RULES), ephemeral=True)
            return
        wanted = command.strip().lstrip("/").split(" ")[0].lower()
        for found in slash_commands(registered):
            if found.name == wanted:
                await replies.send(interaction, embed=command_embed(found), ephemeral=True)
                return
        raise BotError(f"There is no command /{plain(clip(wanted, 32))}. `/help` lists them all.")

    @help.autocomplete("command")
    async def _command_names(self, interaction: Interaction, current: str) -> list[app_commands.Choice[str]]:
        key = current.strip().lstrip("/").lower()
        names = [c.name for c in slash_commands(self.bot.tree.get_commands()) if key in c.name]
        return [app_commands.Choice(name=f"/{n}", value=n) for n in names[:25]]
