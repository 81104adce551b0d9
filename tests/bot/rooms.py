"""A server with rooms some members cannot read (docs/rulings.md §7.6), and a night played in
them: what the channel tests (``tests/bot/test_reach.py``), the web view's Sessions pages
(``tests/web/test_web_reach.py``) and the secrecy matrix share.

``rooms_world``: the fake's table world where ``#ooc`` has a member overwrite denying player2
View Channel, and ``#table`` has a private thread ``#whisper`` (player1's). ``play_the_rooms``
plays, through the real dispatch: a session in ``#ooc`` with player1's roll as Vin; a session
in ``#table`` with player2's and Vin's open rolls there, in ``#whisper`` player1's roll and a
Burden on Vin, and in ``#side`` another Burden on Vin; each session ended by the Narrator.
"""

from dataclasses import dataclass

from fake_discord.payloads import EPHEMERAL
from fake_discord.permissions import VIEW_CHANNEL
from fake_discord.records import InteractionRecord
from fake_discord.world import FakeChannel, FakeOverwrite, World
from testbed.bot_env import BotEnv, refused, table_world
from tests.bot.cogs.sessions.test_sessions import card_text

PUBLIC_THREAD, PRIVATE_THREAD = 11, 12
OOC_ROLL = "Q39-OOC-ROLL"
OOC_TITLE = "Q39 out of character"
TABLE_ROLL = "Q39-TABLE-ROLL"
VIN_OPEN = "Q39-VIN-OPEN"
WHISPER_ROLL = "Q39-WHISPER-ROLL"
WHISPER_WOUND = "Q39 whisper wound"
SIDE_WOUND = "Q39 side wound"
TABLE_TITLE = "Q39 at the table"


def rooms_world() -> World:
    """``table_world`` with the rooms of :func:`add_rooms`."""
    return add_rooms(table_world())


def add_rooms(world: World) -> World:
    """``world`` with ``#ooc`` hidden from player2, a private thread ``#whisper`` of ``#table``
    (player1's) and a public one, ``#side``."""
    guild = world.guild
    table, ooc = guild.channel("table"), guild.channel("ooc")
    player1, player2 = guild.member("player1"), guild.member("player2")
    assert table is not None and ooc is not None and player1 is not None and player2 is not None
    ooc.overwrites.append(FakeOverwrite(id=player2.user.id, type=1, deny=VIEW_CHANNEL))
    for name, kind in (("whisper", PRIVATE_THREAD), ("side", PUBLIC_THREAD)):
        guild.channels.append(
            FakeChannel(world.ids.next(), name, type=kind, parent_id=table.id, owner_id=player1.user.id)
        )
    return world


@dataclass(frozen=True)
class Rooms:
    """What the night left: both sessions, the places, and the ``#table`` session's recap cards
    as its end posted them (the table's, in the channel) and gave them (the Narrator's, privately)."""

    table_card: str
    full_card: str
    ooc_session: int
    table_session: int
    table: int
    ooc: int
    whisper: int


def room(env: BotEnv, name: str) -> FakeChannel:
    found = env.world.guild.channel(name)
    assert found is not None
    return found


async def typed(env: BotEnv, where: str, user: str, line: str) -> InteractionRecord:
    env.harness.channel = room(env, where)
    reply = await env.slash(line, user=user)
    assert not refused(reply), (line, reply.text)
    return reply


async def session_id(env: BotEnv, where: str) -> int:
    [latest] = await env.storage.journal.sessions(env.guild_id, room(env, where).id, limit=1)
    return latest.id


async def play_the_rooms(env: BotEnv) -> Rooms:
    """The night of the module's docstring; the harness is left typing in ``#table``."""
    await typed(env, "table", "player1", "/character create name:Vin physique:3 wits:4")
    await typed(env, "ooc", "narrator", f'/session start title:"{OOC_TITLE}"')
    await typed(env, "ooc", "player1", f"/roll stat:Wits label:{OOC_ROLL}")
    await typed(env, "ooc", "narrator", "/session end")
    await typed(env, "table", "narrator", f'/session start title:"{TABLE_TITLE}"')
    await typed(env, "table", "player2", f"/roll dice:2 label:{TABLE_ROLL}")
    await typed(env, "table", "player1", f"/roll stat:Physique label:{VIN_OPEN}")
    await typed(env, "whisper", "player1", f"/roll stat:Wits label:{WHISPER_ROLL}")
    await typed(env, "whisper", "player1", f'/burden add burden:"{WHISPER_WOUND}" severity:serious')
    await typed(env, "side", "player1", f'/burden add burden:"{SIDE_WOUND}" severity:serious')
    ended = await typed(env, "table", "narrator", "/session end")
    table_card, full_card = card_text(ended.messages[0]), card_text(ended.messages[-1])
    assert not ended.messages[0]["flags"] & EPHEMERAL and ended.messages[-1]["flags"] & EPHEMERAL
    return Rooms(
        table_card=table_card,
        full_card=full_card,
        ooc_session=await session_id(env, "ooc"),
        table_session=await session_id(env, "table"),
        table=room(env, "table").id,
        ooc=room(env, "ooc").id,
        whisper=room(env, "whisper").id,
    )
