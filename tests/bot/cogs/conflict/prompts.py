"""What the Conflict tests read of a prompt: the newest message pinging a player, its buttons."""

from fake_discord.payloads import JSON
from testbed.bot_env import BotEnv


def labels(message: JSON) -> list[str]:
    """The labels of a message's buttons (a menu's placeholder), with action rows, in order."""
    return [
        c.get("label") or c.get("placeholder", "")
        for row in message.get("components", [])
        for c in row["components"]
    ]


def latest_ping(env: BotEnv, user: str) -> JSON:
    """The newest message that pings ``user`` (the turn's or the attacker's prompt)."""
    mention = f"<@{env.user_id(user)}>"
    pings = [m for m in env.harness.fake.messages.values() if mention in str(m.get("content", ""))]
    assert pings, f"nobody pinged {user}"
    return pings[-1]
