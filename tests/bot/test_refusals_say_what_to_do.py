"""Every refusal says what to do instead, not only what is wrong (issue 29, "Words").

Each line below is refused; its private answer must name the way forward: a command to run, an
option to change, or who can do it. The refusals come from the bot's checks, the rules and the
database alike, all through the one error handler.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from discord import app_commands

from bot.errors import user_message
from testbed.bot_env import BotEnv

SETUP = [
    ("player1", "/character create name:Vin physique:3 wits:5"),
    ("player1", "/edit trait-add text:Quick name:Vin"),
    ("player1", "/burden add burden:Limp severity:Serious name:Vin"),
    ("narrator", "/character create name:Thug template:thug"),
]

REFUSED = [
    ("player1", "/edit trait-add text:quick name:Vin", "already has that Trait; add a different one."),
    ("narrator", "/edit size size:3 name:Vin", "Make them an Extra first with `/edit kind`."),
    (
        "player1",
        "/edit prop-remove prop:Knife name:Vin",
        "Vin has no Props yet; add one with `/edit prop-add`.",
    ),
    ("player1", "/sheet breather kind:Short burden:Limp name:Vin", "take `kind:long`, or leave `burden` out"),
    ("player1", "/character show name:Nobody", "`/character list` shows the sheets here."),
    ("player1", "/burden add burden:limp severity:Grave name:Vin", "worsen it with /burden step"),
    ("player1", "/burden step burden:Limp direction:down name:Vin", "Only a Narrator can ease or remove"),
    (
        "narrator",
        "/burden step burden:Limp direction:up name:Thug",
        "Thug has no Burdens to worsen or ease: give one with /burden add first.",
    ),
    ("narrator", "/burden remove burden:Limp name:Thug", "Thug has no Burdens, so there is none to remove."),
    ("narrator", "/sheet breather kind:Long burden:Cut name:Thug", "to ease: leave the burden option out."),
    ("narrator", "/character reveal name:Vin", "Reveal a Villain or an Extra."),
    ("narrator", "/character create name:Robot owner:@Mistborn Bot", "pick a member who plays"),
    ("narrator", "/conflict status", "a Narrator starts one with /conflict start"),
]


async def test_each_refusal_says_what_to_do_instead(bot_env: BotEnv, tmp_path: Path) -> None:
    await bot_env.play(SETUP)
    for user, line, advice in REFUSED:
        reply = await bot_env.slash(line, user=user)
        assert reply.ephemeral and advice in reply.content, (line, reply.content)
    menu = await bot_env.harness.user_menu("View sheet", "player2", user="player1")
    assert "they choose one with `/character use`" in menu.content, menu.content
    stranger = tmp_path / "notes.json"
    stranger.write_text("this is not json")
    imported = await bot_env.slash(f"/character import file:{stranger}", user="player1")
    assert "Upload the file /character export made." in imported.content, imported.content
    setup = await bot_env.harness.slash(
        "/setup gm-channel channel:#table", user="player1", override_permissions=True
    )
    assert "Ask a server admin." in setup.content, setup.content


async def test_a_burn_without_the_metal_says_how_to_get_it(bot_env: BotEnv) -> None:
    await bot_env.play(
        [
            ("player1", "/character create name:Vin physique:3 wits:5"),
            ("narrator", "/conflict start kind:physical stakes:Alley"),
            ("narrator", "/conflict add character:Vin"),
        ]
    )
    reply = await bot_env.slash("/burn metal:Steel", user="player1")
    assert "Add the Power with /edit power-add first." in reply.content, reply.content
    again = await bot_env.slash("/conflict surprise who:Vin surprised:false")
    assert "Vin is not surprised; set surprised to true to surprise them." in again.content, again.content


@pytest.mark.parametrize(
    ("error", "advice"),
    [
        (app_commands.NoPrivateMessage(), "run it in a channel of your server"),
        (app_commands.MissingPermissions(["manage_guild"]), "ask a server admin"),
        (app_commands.CheckFailure(), "ask a Narrator or a server admin"),
    ],
)
def test_discord_py_s_own_refusals_say_what_to_do(error: app_commands.AppCommandError, advice: str) -> None:
    """Refusals discord.py raises before our code runs (a server command in a DM, a check)."""
    assert advice in (user_message(error) or "")
