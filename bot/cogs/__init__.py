"""The bot's command groups, one cog per job. ``MistbornBot.setup_hook`` adds them in order."""

from discord.ext import commands

from bot.cogs.admin import Admin
from bot.cogs.characters import BurdenCommands, CharacterCommands, EditCommands, SheetCommands
from bot.cogs.conflict import ConflictCog
from bot.cogs.dice import Dice
from bot.cogs.help import Help
from bot.cogs.history import History
from bot.cogs.odds import Odds
from bot.cogs.server_setup import ServerSetup

COGS: tuple[type[commands.Cog], ...] = (
    Dice,
    Odds,
    CharacterCommands,
    EditCommands,
    SheetCommands,
    BurdenCommands,
    ConflictCog,
    History,
    ServerSetup,
    Help,
    Admin,
)
