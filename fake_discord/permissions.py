"""Discord's permission bits, and what the fake's sample worlds give @everyone and the bot.

Apart from the world's model so a route's check, a test's overwrite and a sample world all name
the same bit (``fake_discord.places`` and the routes refuse with them)."""

from __future__ import annotations

ADD_REACTIONS = 1 << 6
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MANAGE_WEBHOOKS = 1 << 29
MANAGE_EVENTS = 1 << 33
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
SEND_MESSAGES_IN_THREADS = 1 << 38
EVERYONE_PERMISSIONS = (
    ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
"""@everyone's permissions, as Discord gives a new server's (threads included)."""
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
ALL_PERMISSIONS = (1 << 53) - 1
BOT_PERMISSIONS = MANAGE_MESSAGES | EMBED_LINKS | MANAGE_WEBHOOKS
"""What the bot's role holds in the default worlds (tests take one away to provoke a refusal)."""
