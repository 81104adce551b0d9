"""The real discord.py client against the fake Discord, driven through the reusable harness."""

from __future__ import annotations

import json
from pathlib import Path

import aiohttp
import discord
import pytest
from discord.ext import commands

from fake_discord.backend import Limits
from fake_discord.commandline import CommandLineError
from fake_discord.harness import Harness, running_bot
from fake_discord.world import default_world
from tests.fake_discord.sample_bot import SampleBot


async def test_ping_is_a_public_channel_message(h: Harness) -> None:
    reply = await h.slash("/ping")
    assert (reply.response_type, reply.content, reply.ephemeral) == (4, "pong", False)
    assert h.violations == []


async def test_group_subcommand_with_choices_range_and_optional_text(h: Harness) -> None:
    reply = await h.slash("/character set attribute:Charm value:4 note:Big jump")
    assert reply.content == "charm=4 note=Big jump"
    assert reply.ephemeral
    (sub,) = reply.payload["data"]["options"]
    assert sub["type"] == 1 and sub["name"] == "set"
    assert [o["value"] for o in sub["options"]] == ["charm", 4, "Big jump"]


async def test_range_is_checked_before_sending(h: Harness) -> None:
    with pytest.raises(CommandLineError, match=r"value must be in 1\.\.6"):
        await h.slash("/character set attribute:charm value:9")


async def test_autocomplete_offers_matching_names(h: Harness) -> None:
    reply = await h.autocomplete("/character show name:el")
    assert reply.response_type == 8
    assert [c["value"] for c in reply.choices] == ["Kelsier", "Elend"]
    focused = reply.payload["data"]["options"][0]["options"][0]
    assert focused == {"name": "name", "type": 3, "value": "el", "focused": True}


async def test_user_context_menu_resolves_the_target(h: Harness) -> None:
    reply = await h.user_menu("Show sheet", "@player2", user="player1")
    assert reply.content == "sheet of player2"
    assert reply.ephemeral


async def test_message_context_menu_targets_the_newest_message(h: Harness) -> None:
    await h.slash("/ping")
    reply = await h.message_menu("quote")
    assert reply.content == "quoted: pong"
    assert reply.payload["data"]["type"] == 3


async def test_persistent_button_click_by_label_and_by_custom_id(h: Harness) -> None:
    shown = await h.slash("/character show name:Vin")
    assert shown.embeds[0]["title"] == "Vin"
    assert [b["label"] for b in shown.components[0]["components"]] == ["Roll again", "Keep"]
    by_label = await h.click("roll again", user="player1")
    by_id = await h.click("sample:roll-again", user="player2")
    assert (by_label.content, by_id.content) == ("player1 rolls again", "player2 rolls again")
    assert shown.original is not None
    assert by_label.payload["message"]["id"] == shown.original["id"]


async def test_update_message_edits_the_clicked_message(h: Harness) -> None:
    shown = await h.slash("/character show name:Vin")
    kept = await h.click("Keep")
    assert kept.response_type == 7
    assert kept.original is shown.original
    assert shown.original is not None
    assert shown.original["content"] == "kept"
    assert shown.original["components"][0]["components"][1]["disabled"] is True


async def test_string_and_user_selects(h: Harness) -> None:
    await h.slash("/metals")
    burned = await h.select("Choose metals", ["Steel", "pewter"], user="player1")
    assert burned.content == "burning steel and pewter"
    ally = await h.select("sample:ally", ["@player2"])
    assert ally.content == "ally: player2"
    assert ally.payload["data"]["resolved"]["members"]
    with pytest.raises(CommandLineError, match="'Zinc' is not an option"):
        await h.select("Choose metals", ["Zinc"])
    with pytest.raises(CommandLineError, match=r"choose 1\.\.2 value\(s\), got 3"):
        await h.select("Choose metals", ["Steel", "Iron", "Pewter"])


async def test_defer_then_followups(h: Harness) -> None:
    reply = await h.slash("/slowroll dice:3")
    assert reply.response_type == 5 and reply.deferred
    assert reply.content == "rolled 3"
    assert [(m["content"], bool(m["flags"] & 64)) for m in reply.messages] == [
        ("rolled 3", False),
        ("and a secret", True),
    ]


async def test_attachment_option_serves_the_local_file(h: Harness, tmp_path: Path) -> None:
    path = tmp_path / "vin.json"
    path.write_text(json.dumps({"name": "Vin"}))
    reply = await h.slash(f"/import file:{path}")
    assert reply.content == "imported Vin (vin.json)"
    (attachment,) = reply.payload["data"]["resolved"]["attachments"].values()
    assert attachment["url"].startswith("http://127.0.0.1:")


async def test_default_permissions_hide_narrator_commands(h: Harness) -> None:
    with pytest.raises(CommandLineError, match="player1 cannot use narrate: it needs manage_guild"):
        await h.slash("/narrate player:@player2", user="player1")
    reply = await h.slash("/narrate player:@player2")
    assert reply.content == "player2 is in the spotlight"
    overridden = await h.slash("/narrate player:@player1", user="player1", override_permissions=True)
    assert overridden.content == "player1 is in the spotlight", "no bot-side check in the sample bot"


async def test_modal_open_and_submit(h: Harness) -> None:
    opened = await h.slash("/note")
    assert opened.response_type == 9 and opened.modal is not None
    assert opened.modal["title"] == "Character note"
    submitted = await h.submit({"Note": "Steel push"})
    assert submitted.content == "noted: Steel push"


async def test_a_modal_from_a_button_carries_its_message_and_may_update_it(h: Harness) -> None:
    shown = await h.slash("/rename")
    assert shown.message is not None
    opened = await h.click("Rename", user="player1")
    assert opened.modal is not None and opened.modal["title"] == "Rename"
    submitted = await h.submit({"Name": "Vin"}, user="player1")
    assert submitted.payload["message"]["id"] == shown.message["id"]
    assert submitted.response_type == 7
    assert h.fake.messages[int(shown.message["id"])]["content"] == "renamed to Vin, the Survivor", (
        "a field left as it opened is sent with its pre-filled value"
    )
    assert h.violations == []


async def test_a_modal_from_a_command_cannot_update_a_message(h: Harness) -> None:
    await h.slash("/badnote")
    submitted = await h.submit({"Name": "Vin"})
    assert "message" not in submitted.payload and submitted.response is None
    assert any("no message to update" in v.problem and v.rejected for v in h.violations)


async def test_oversize_embed_is_rejected_like_discord(h: Harness) -> None:
    reply = await h.slash("/big")
    assert reply.response is None
    assert reply.errors[0]["code"] == 50035
    assert any("description has 5000 characters" in v.problem and v.rejected for v in h.violations)


async def test_second_initial_response_gets_40060(h: Harness) -> None:
    reply = await h.slash("/ping")
    url = f"{h.fake.api_base}/interactions/{reply.id}/{reply.token}/callback"
    async with aiohttp.ClientSession() as session, session.post(url, json={"type": 4, "data": {}}) as resp:
        assert resp.status == 400
        assert resp.headers["Content-Type"] == "application/json"
        assert (await resp.json())["code"] == 40060


async def test_too_many_autocomplete_choices_are_refused(h: Harness) -> None:
    reply = await h.autocomplete("/toomany pick:o")
    assert reply.response is None
    assert any("30 autocomplete choices (max 25)" in v.problem for v in h.violations)


async def test_bad_command_sync_is_refused(h: Harness) -> None:
    url = f"{h.fake.api_base}/applications/{h.world.application_id}/commands"
    bad = [{"name": "Bad Name", "description": "", "type": 1}]
    async with aiohttp.ClientSession() as session, session.put(url, json=bad) as resp:
        body = await resp.json()
    assert (resp.status, body["code"]) == (400, 50035)
    assert {"ping", "character"} <= {c["name"] for c in h.commands}


async def test_injected_rate_limit_is_retried(h: Harness) -> None:
    h.fake.inject_fault("POST", r"/interactions/\d+/[^/]+/callback", 429, retry_after=0.01)
    reply = await h.slash("/ping")
    assert reply.content == "pong"
    assert sum(r.startswith("POST /interactions/") for r in h.fake.requests) == 2


async def test_late_first_response_gets_10062() -> None:
    async with running_bot(lambda: SampleBot(sync_in_setup=True), limits=Limits(ack_deadline=0.1)) as h:
        reply = await h.slash("/lateping")
        assert reply.response is None
        assert reply.errors[0]["code"] == 10062


async def test_harness_syncs_a_bot_that_does_not() -> None:
    async with running_bot(SampleBot) as h:
        assert {"ping", "character", "Show sheet"} <= {c["name"] for c in h.commands}
        assert (await h.slash("/ping")).content == "pong"


async def test_pinging_content_breaks_the_house_rule_but_is_delivered() -> None:
    def make() -> commands.Bot:
        bot = commands.Bot(command_prefix="!", intents=discord.Intents.default())

        @bot.tree.command(description="Greets loudly")
        async def hello(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(f"hi {interaction.user.mention}")

        return bot

    async with running_bot(make) as h:
        reply = await h.slash("/hello")
        assert reply.content.startswith("hi <@")
        assert [v.rejected for v in h.violations] == [False]
        assert "allowed_mentions" in h.violations[0].problem


class GuildSyncBot(SampleBot):
    """Syncs its commands to one development guild, as the real bot is expected to."""

    def __init__(self, guild_id: int) -> None:
        super().__init__()
        self.dev_guild = discord.Object(guild_id)

    async def setup_hook(self) -> None:
        self.tree.copy_global_to(guild=self.dev_guild)
        await self.tree.sync(guild=self.dev_guild)


async def test_bot_syncing_to_the_fake_guild_is_left_alone() -> None:
    world = default_world()
    async with running_bot(lambda: GuildSyncBot(world.guild.id), world=world) as h:
        assert h.fake.commands.scopes.keys() == {world.guild.id}
        reply = await h.slash("/ping")
        assert reply.content == "pong"
        assert reply.payload["data"]["guild_id"] == str(world.guild.id)


async def test_bot_syncing_to_an_unknown_guild_fails_as_on_discord() -> None:
    with pytest.raises(RuntimeError, match="stopped before it was ready") as caught:
        async with running_bot(lambda: GuildSyncBot(1234)):
            pass
    assert isinstance(caught.value.__cause__, discord.Forbidden)
    assert caught.value.__cause__.code == 50001


async def test_a_bot_that_fails_to_start_is_reported() -> None:
    class Broken(SampleBot):
        async def setup_hook(self) -> None:
            raise ValueError("no database")

    with pytest.raises(RuntimeError, match="stopped before it was ready"):
        async with running_bot(Broken):
            pass
