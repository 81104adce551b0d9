"""The table the bad-input probes play at: three seeded sheets in a running Conflict, put back
by :func:`repair` before each probe, and option values the bot accepts (:func:`sensible`) so a
hostile value in another option reaches deep code. The probe itself is ``test_bad_input.Probe``.
"""

from __future__ import annotations

from typing import Any

from bot.cogs.conflict.transaction import start_conflict
from fake_discord.payloads import Resolved
from fake_discord.world import FakeGuild, FakeMember
from rules.character import Character, CharacterKind, export_character, make_character
from rules.conflict import Join
from storage import NotFoundError
from storage.conflict_moves import current_conflict
from storage.settings import GuildSettings
from testbed.bot_env import BotEnv
from tests.bot.test_bad_input import (
    ATTACHMENT,
    BOOLEAN,
    CHANNEL,
    INTEGER,
    JSON,
    ROLE,
    STRING,
    USER,
    Probe,
)

HEROES = [("Vin", "player1", CharacterKind.HERO), ("Elend", "player2", CharacterKind.HERO)]
TABLE = [*HEROES, ("Straff", "narrator", CharacterKind.VILLAIN)]


def seed_sheet(env: BotEnv, name: str, owner: str, kind: CharacterKind) -> Character:
    return make_character(
        name=name,
        kind=kind,
        owner_id=env.user_id(owner),
        powers=[
            {"type": "allomancy", "name": "Steel", "rating": 3, "stunts": ["Coinshot"]},
            {"type": "allomancy", "name": "Pewter", "rating": 2},
        ],
        burdens=[{"name": "Cracked rib", "severity": "serious"}],
        props=[{"name": "Glass knives", "weapon": 1}],
        traits={"extras": ["Stubborn"]},
    )


async def seed_table(env: BotEnv) -> dict[str, int]:
    """player1's Hero Vin, player2's Hero Elend, the Narrator's Villain Straff: each the
    active character of its owner, each with Powers, a Stunt, a Burden, a Prop and a Trait.

    First the start's catch-up must have ended: finding the Conflict :func:`repair` puts in
    storage behind the bot's back, it would prompt for it in the middle of a probe."""
    await env.bot.catch_up.done.wait()
    ids: dict[str, int] = {}
    for name, owner, kind in TABLE:
        stored = await env.storage.characters.create(env.guild_id, seed_sheet(env, name, owner, kind))
        ids[name] = stored.id
        await env.storage.active.set(env.guild_id, env.user_id(owner), stored.id)
    return ids


async def repair(probe: Probe) -> None:
    """Put the table back for the next probe: the three sheets, a Conflict in #table with them
    in it, no server setup. What earlier probes did (deleted, renamed, ended) is undone."""
    env = probe.env
    guild, storage = env.guild_id, env.storage
    await probe.settle()
    if await storage.settings.get(guild) != GuildSettings():
        await storage.settings.set(guild, GuildSettings())
    for name, owner, kind in TABLE:
        try:
            stored = await storage.characters.get_by_name(guild, name)
        except NotFoundError:
            try:  # renamed: give the name back; deleted: make the sheet again
                stored = await storage.characters.get(guild, probe.ids[name])
                stored = await storage.characters.rename(guild, stored, name)
            except NotFoundError:
                stored = await storage.characters.create(guild, seed_sheet(env, name, owner, kind))
        probe.ids[name] = stored.id
        if await storage.active.get(guild, env.user_id(owner)) is None:
            await storage.active.set(guild, env.user_id(owner), stored.id)
    channel = env.world.guild.channels[0].id
    if await current_conflict(storage, guild, channel) is None:
        joins = [Join(character_id=probe.ids[name]) for name, _, _ in TABLE]
        await start_conflict(storage, guild, channel, "physical", "The alley", joins, begin=True)


NAMES = ["Vin", "Elend", "Straff", "vin", "  STRAFF ", "Kelsier"]
STATS = ["Physique", "Wits", "Steel", "Resources"]
FACES = ["3 3 6 1", "6 6 6 2", "1 2"]
SENSIBLE: dict[str, list[str]] = {
    **{key: NAMES for key in ("name", "character", "actor", "opponent", "who", "target")},
    **{key: STATS for key in ("stat", "actor_stat", "opponent_stat")},
    **{key: FACES for key in ("faces", "attacker_faces")},
    "names": ["Vin, Elend, Straff", "Straff,Vin,Elend"],
    "power": ["Steel", "Steel (Allomancy)", "Pewter"],
    "stunt": ["Coinshot"],
    "burden": ["Cracked rib"],
    "burdens": ["Cracked rib"],
    "prop": ["Glass knives"],
    "weapon": ["Glass knives"],
    "text": ["Stubborn"],
    "metal": ["Pewter", "Steel"],
}
"""Values that pass the bot's checks, so a hostile value in another option reaches deep code."""


def member_option(probe: Probe, resolved: Resolved, who: str | FakeMember, name: str = "owner") -> JSON:
    guild = probe.env.world.guild
    return {"type": USER, "name": name, "value": resolved.add_member(guild, probe.actor(who).member)}


def sensible(probe: Probe, option: JSON, resolved: Resolved, guild: FakeGuild | None = None) -> JSON:
    """A value of the option's type that the bot accepts (as far as it can be known up front)."""
    guild = guild or probe.env.world.guild
    kind, name = option["type"], option["name"]
    value: Any
    if option.get("choices"):
        value = option["choices"][0]["value"]
    elif kind == STRING:
        value = (SENSIBLE.get(name) or ["Vin"])[0]
    elif kind == INTEGER:
        value = max(option.get("min_value", 2), 2) if option.get("max_value", 2) >= 2 else 0
    elif kind == BOOLEAN:
        value = False
    elif kind == USER:
        value = resolved.add_member(guild, probe.actor("player1", guild).member)
    elif kind == ROLE:
        value = resolved.add_role(guild.roles[-1])
    elif kind == CHANNEL:
        value = resolved.add_channel(guild, guild.channels[-1], 0)
    elif kind == ATTACHMENT:
        sheet = export_character(make_character(name="Zane", kind=CharacterKind.HERO, owner_id=42))
        found = probe.harness.fake.add_file("sheet.json", sheet.encode(), "application/json")
        value = resolved.add_attachment(found)
    else:  # pragma: no cover - a new option type needs a value here
        raise AssertionError(f"no value for option type {kind}")
    return {"type": kind, "name": name, "value": value}
