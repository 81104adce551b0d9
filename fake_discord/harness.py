"""Run a real discord.py bot against the fake Discord and talk to it like a person would.

    async with running_bot(make_bot) as h:
        reply = await h.slash("/roll dice:5 difficulty:3", user="player1")
        assert "successes" in reply.content and not reply.ephemeral
        again = await h.click("Roll again")

Tests and the offline console share this, so both exercise discord.py's real login, gateway,
dispatch and REST paths. Every wait is bounded; nothing here touches the network beyond 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import discord
from discord.ext import commands

from fake_discord import payloads
from fake_discord.backend import Limits
from fake_discord.commandline import CommandLineError, check_permission, find_command, parse_slash
from fake_discord.component_search import find_component, select_values, visible_to
from fake_discord.modal_filling import filled
from fake_discord.patch import pointed_at
from fake_discord.payloads import Actor
from fake_discord.places import PLACES, SERVER, seat
from fake_discord.records import InteractionRecord, Violation, settle
from fake_discord.server import FakeDiscord
from fake_discord.world import FakeChannel, FakeMember, World, default_world

JSON = dict[str, Any]
AnyBot = commands.Bot
BotFactory = Callable[[], AnyBot | Awaitable[AnyBot]]
OFFLINE_TOKEN = "offline.fake-discord.token"
GUILD_READY_TIMEOUT = 0.005


class Harness:
    """A connected bot plus the acting member; every action returns the live InteractionRecord."""

    place: str = SERVER
    """Where the acting member is (``places.PLACES``): the bot's server unless :meth:`go`."""

    def __init__(self, fake: FakeDiscord, bot: commands.Bot, user: str = "narrator") -> None:
        self.fake = fake
        self.bot = bot
        self.settle_timeout = 15.0
        self.task: asyncio.Task[None] | None = None
        self.user = self.member(user)
        self.channel: FakeChannel = self.world.guild.channels[0]

    @property
    def world(self) -> World:
        return self.fake.world

    @property
    def commands(self) -> list[JSON]:
        """Commands the bot synced, as Discord would offer them where the member is."""
        return self.fake.commands.visible_at(self.place, self.world.guild.id)

    @property
    def commands_in_server(self) -> list[JSON]:
        """Commands the bot synced, as Discord offers them in the bot's server."""
        return self.fake.commands.visible_in(self.world.guild.id)

    def go(self, place: str) -> None:
        """Act from now on in ``place`` (``world.PLACES``): the bot's server, a server the bot
        is not in, a DM with the bot, or a group DM."""
        if place not in PLACES:
            raise CommandLineError(f"no place {place!r} (places: {', '.join(PLACES)})")
        self.place = place

    @property
    def violations(self) -> list[Violation]:
        return self.fake.violations

    def member(self, name: str | FakeMember) -> FakeMember:
        if isinstance(name, FakeMember):
            return name
        found = self.world.guild.member(name)
        if found is None:
            known = ", ".join(m.user.name for m in self.world.guild.members if not m.user.bot)
            raise CommandLineError(f"no member {name!r} (members: {known})")
        return found

    def as_user(self, name: str | FakeMember) -> FakeMember:
        """Make `name` the default actor for later calls."""
        self.user = self.member(name)
        return self.user

    def actor(self, user: str | FakeMember | None = None) -> Actor:
        """The member (default: the acting one) where the acting member is."""
        return self.actor_in(self.place, user)

    def actor_in(self, place: str, user: str | FakeMember | None = None) -> Actor:
        """The member (default: the acting one) in ``place`` (``places.PLACES``)."""
        member = self.member(user) if user is not None else self.user
        if place == SERVER:
            return Actor(self.world.guild, self.channel, member)
        return Actor(*seat(self.world, member, place, self.fake.dm_channels), place)

    def attach(self, path: Path) -> JSON:
        """Serve a local file from the fake, as Discord's CDN serves an uploaded attachment."""
        return self.fake.add_file(path.name, path.read_bytes(), None)

    async def send(self, payload: JSON) -> InteractionRecord:
        """Deliver any INTERACTION_CREATE payload and wait (bounded) until the bot is done with it."""
        record = await self.fake.send_interaction(payload)
        await settle(record, ack_timeout=self.fake.limits.ack_deadline + 0.5, total=self.settle_timeout)
        return record

    async def slash(
        self,
        line: str,
        *,
        user: str | FakeMember | None = None,
        override_permissions: bool = False,
        place: str | None = None,
    ) -> InteractionRecord:
        """Run a typed slash command; `override_permissions` ignores default_member_permissions;
        `place` (``world.PLACES``) for this command only."""
        actor = self.actor_in(place, user) if place is not None else self.actor(user)
        offered = self.fake.commands.visible_at(actor.place, self.world.guild.id)
        try:
            parsed = parse_slash(
                line,
                offered,
                actor.guild,
                actor.member,
                attach=self.attach,
                override_permissions=override_permissions or actor.place != SERVER,
            )
        except CommandLineError:
            name = line.strip().removeprefix("/").split(" ")[0]
            if actor.place != SERVER and any(c["name"] == name for c in self.commands_in_server):
                raise CommandLineError(
                    f"Discord does not offer /{name} in {PLACES[actor.place]}: it needs the bot's "
                    "server (!where server)"
                ) from None
            raise
        return await self.send(
            payloads.slash_command(self.world, actor, parsed.command, parsed.options, parsed.resolved)
        )

    async def autocomplete(self, line: str, *, user: str | FakeMember | None = None) -> InteractionRecord:
        """Autocomplete the last option typed in `line` (e.g. `/character show name:Vi`); see `.choices`."""
        actor = self.actor(user)
        parsed = parse_slash(line, self.commands, actor.guild, actor.member, attach=self.attach, focus=True)
        return await self.send(
            payloads.autocomplete(self.world, actor, parsed.command, parsed.options, parsed.resolved)
        )

    async def user_menu(
        self,
        name: str,
        target: str | FakeMember,
        *,
        user: str | FakeMember | None = None,
        override_permissions: bool = False,
    ) -> InteractionRecord:
        actor = self.actor(user)
        command = find_command(self.commands, name, kind=2)
        if not override_permissions:
            check_permission(command, actor.guild, actor.member)
        return await self.send(payloads.user_menu(self.world, actor, command, self.member(target)))

    async def message_menu(
        self,
        name: str,
        message: JSON | None = None,
        *,
        user: str | FakeMember | None = None,
        override_permissions: bool = False,
    ) -> InteractionRecord:
        actor = self.actor(user)
        command = find_command(self.commands, name, kind=3)
        if not override_permissions:
            check_permission(command, actor.guild, actor.member)
        target = message or self.last_message(actor.member)
        if target is None:
            raise CommandLineError("there is no message to use the menu on")
        return await self.send(payloads.message_menu(self.world, actor, command, target))

    async def click(
        self, target: str, *, message: JSON | None = None, user: str | FakeMember | None = None
    ) -> InteractionRecord:
        """Press the newest visible button whose custom_id or label is `target`."""
        actor = self.actor(user)
        found, component = self.find_component(target, actor.member, message, kinds={2})
        return await self.send(payloads.component_click(self.world, actor, found, component))

    async def select(
        self,
        target: str,
        values: list[str],
        *,
        message: JSON | None = None,
        user: str | FakeMember | None = None,
    ) -> InteractionRecord:
        """Choose `values` (option labels or values; member/role/channel names for those selects)."""
        actor = self.actor(user)
        found, component = self.find_component(target, actor.member, message, kinds={3, 5, 6, 7, 8})
        chosen, resolved = select_values(component, values, actor)
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(chosen) <= high:
            raise CommandLineError(f"choose {low}..{high} value(s), got {len(chosen)}")
        return await self.send(
            payloads.component_click(self.world, actor, found, component, chosen, resolved)
        )

    async def submit(
        self,
        values: Mapping[str, str | list[str] | bool],
        *,
        modal: JSON | None = None,
        user: str | FakeMember | None = None,
        files: dict[str, list[JSON]] | None = None,
    ) -> InteractionRecord:
        """Answer the latest modal the bot opened; keys are custom_ids or labels; ``files``:
        attachments (``attach``) sent in its file uploads, by custom_id (``uploads``).

        A text input takes text; a select or radio group an option's label or value, a checkbox
        group a list of them (or one comma-separated string), a checkbox yes/no or a bool
        (``modal_parts``). A field not given is sent as it opened, pre-filled, chosen by default
        or empty, as Discord sends it; a required one left empty is refused as Discord's client
        refuses it. A modal opened from a button or select carries that message, as it is now.
        """
        opener = next(
            (r for r in reversed(self.fake.interactions.values()) if r.modal and (modal in (None, r.modal))),
            None,
        )
        modal = modal or (opener.modal if opener else None)
        if modal is None:
            raise CommandLineError("the bot has not opened a modal")
        clicked = opener.payload.get("message") if opener is not None else None
        message = self.fake.messages.get(int(clicked["id"]), clicked) if clicked else None
        answers = filled(modal, values, files or {})
        return await self.send(
            payloads.modal_submit(self.world, self.actor(user), modal, answers, message=message, files=files)
        )

    def last_message(self, viewer: FakeMember | None = None) -> JSON | None:
        return next(
            (m for m in reversed(self.fake.messages.values()) if visible_to(m, viewer or self.user)), None
        )

    def find_component(
        self, target: str, viewer: FakeMember, message: JSON | None = None, kinds: set[int] | None = None
    ) -> tuple[JSON, JSON]:
        """The newest visible component whose custom_id, label or placeholder is `target`.

        Labels compare as the console shows them and a person retypes them: without case,
        accents or a leading marker (the console's ``+``/``!`` of a button's style, an emoji).
        A bare number N is the Nth of the newest message's components, as the console lists them.
        """
        messages = [message] if message is not None else list(reversed(self.fake.messages.values()))
        return find_component(messages, target, viewer, kinds)

    async def restart(self, make_bot: BotFactory, *, ready_timeout: float = 10.0) -> AnyBot:
        """Stop the bot and connect a fresh one to the same fake, as after a process restart.

        Messages, their buttons and the fake's records stay; nothing of the old bot's memory does.
        """
        await self.bot.close()
        if self.task is not None:
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(self.task, 5)
        made = make_bot()
        bot = await made if inspect.isawaitable(made) else made
        _ready_sooner(bot)
        self.task = await _start(bot, ready_timeout)
        self.bot = bot
        return bot

    async def sync(self) -> None:
        """Sync the bot's tree to the fake: global commands globally, guild ones to the guild."""
        tree, guild = self.bot.tree, discord.Object(self.world.guild.id)
        if tree.get_commands(guild=guild):
            await tree.sync(guild=guild)
        if tree.get_commands() or not tree.get_commands(guild=guild):
            await tree.sync()


def _ready_sooner(bot: commands.Bot) -> None:
    """Fire on_ready 5 ms after the last GUILD_CREATE (discord.py's default waits 2 s).

    discord.py cannot know that no more servers are coming, so it waits ``guild_ready_timeout``
    after the last one. The fake sends every GUILD_CREATE right behind READY, so they are
    already in the socket; a longer wait would only be paid again by every test's bot.
    """
    bot._connection.guild_ready_timeout = min(bot._connection.guild_ready_timeout, GUILD_READY_TIMEOUT)


async def _start(bot: commands.Bot, timeout: float) -> asyncio.Task[None]:
    task = asyncio.create_task(bot.start(OFFLINE_TOKEN), name="offline-bot")
    ready = asyncio.create_task(bot.wait_until_ready())
    done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
    if ready in done:
        return task
    ready.cancel()
    await bot.close()
    if task in done and not task.cancelled() and task.exception() is not None:
        raise RuntimeError("the bot stopped before it was ready") from task.exception()
    task.cancel()
    raise TimeoutError(f"the bot was not ready within {timeout} s")


@asynccontextmanager
async def running_bot(
    make_bot: BotFactory,
    *,
    world: World | None = None,
    limits: Limits | None = None,
    user: str = "narrator",
    ready_timeout: float = 10.0,
    sync_grace: float = 0.2,
) -> AsyncIterator[Harness]:
    """Start the fake, connect a bot from `make_bot` to it, and make sure commands are synced.

    A bot that syncs itself (in setup_hook or on_ready) is left alone; if after `sync_grace`
    seconds no command is visible in the fake guild, the harness syncs the bot's tree itself
    (global commands globally, guild ones to the fake guild) so the command line has definitions.
    """
    fake = FakeDiscord(world or default_world(user=user), limits=limits)
    await fake.start()
    try:
        with pointed_at(fake.api_base, fake.gateway_url):
            made = make_bot()
            bot = await made if inspect.isawaitable(made) else made
            _ready_sooner(bot)
            harness = Harness(fake, bot, user)
            harness.task = await _start(bot, ready_timeout)
            try:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(fake.commands.synced.wait(), sync_grace)
                if not harness.commands:
                    await harness.sync()
                yield harness
            finally:
                await harness.bot.close()
                if harness.task is not None:
                    with contextlib.suppress(Exception, asyncio.CancelledError):
                        await asyncio.wait_for(harness.task, 5)
    finally:
        await fake.stop()
