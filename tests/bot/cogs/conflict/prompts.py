"""What the Conflict tests read of a prompt: the newest message pinging a player, its buttons."""

from fake_discord.payloads import JSON
from testbed.bot_env import BotEnv

FIGHT = [
    ("player1", "/character create name:Vin physique:7 charm:3 wits:4"),
    ("narrator", "/character create name:Thug template:thug"),
    ("narrator", "/character create name:Lookout template:thug"),
    ("narrator", '/conflict start kind:physical stakes:"The alley"'),
    ("player1", "/conflict join"),
    ("narrator", "/conflict add character:Thug"),
    ("narrator", "/conflict add character:Lookout"),
    ("narrator", "/conflict begin"),
    ("narrator", '/declare who:Thug action:no-roll label:"bars the door"'),
    ("narrator", '/declare who:Lookout action:no-roll label:"keeps watch"'),
    ("player1", "/declare action:attack target:Thug stat:Physique"),
]
"""Vin attacks the Thug; the Thug and the Lookout make no roll: Vin acts next."""


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
