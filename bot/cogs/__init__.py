"""The bot's command groups, one cog (or package of cogs) per job; ``bot.app`` lists them."""
