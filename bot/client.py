"""The Discord client and what every command needs from it: settings, storage, dice, Conflicts.

Settings, storage and the dice generator are passed in, so the entry point owns their
lifetimes and the tests hand in a seeded ``random.Random`` and a database in ``tmp_path``
(discord.py's ``advanced_startup.py`` pattern). The cogs are passed in too, with what the
Conflict's workers need of its package (the board's buttons, the question asked again): this
module knows no command, so everything below the cogs can name the client's type without
importing them (docs/architecture.md, "Layers"). What is built here is this process's own
machinery, from those: the workers, the catch-up, the upkeep, admission, the web and health
servers.
"""

import asyncio
import gc
import logging
import random
import time
from collections.abc import Callable, Sequence
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot import event_loop, metrics, replies
from bot.admission import BUSY, Admission
from bot.clicks import Clicks
from bot.config import Settings
from bot.door import Door
from bot.errors import DM_REFUSAL, on_app_command_error
from bot.forms import Forms
from bot.health import HealthServer
from bot.render.dice import PLAIN_FACES, use_faces
from bot.render.portrait_reader import PortraitReader
from bot.rest_watch import watch
from bot.served import served_guild_id, usable_anywhere
from bot.web.server import WebServer, public_url
from bot.workers.catchup import CatchUp
from bot.workers.conflicts import ConflictPrompts, ConflictWorkers
from bot.workers.emojis import dice_faces
from bot.workers.pacing import Pacer
from bot.workers.upkeep import Upkeep
from storage import Storage

log = logging.getLogger(__name__)
IDENTIFY_INTERVAL = 5.0
"""Seconds between two IDENTIFYs of one ``max_concurrency`` bucket (Discord's rule)."""

CogFactory = Callable[["MistbornClient"], commands.Cog]


class MistbornTree(app_commands.CommandTree["MistbornClient"]):
    """The command tree, refusing work at once when the bot is past capacity (``bot.admission``)."""

    async def _call(self, interaction: discord.Interaction["MistbornClient"]) -> None:
        """discord.py's private dispatch, wrapped: no public hook runs after every command and
        autocomplete whatever its end, which the in-flight count, an autocomplete's timing and
        the interaction's release need (docs/architecture.md, "the one private discord.py API")."""
        started = time.monotonic()
        try:
            with interaction.client.admission.serving():
                await super()._call(interaction)
        finally:
            if interaction.type is discord.InteractionType.autocomplete:  # answered inside discord.py
                metrics.answered(interaction, time.monotonic() - started)
            replies.release(interaction)

    async def interaction_check(self, interaction: discord.Interaction["MistbornClient"], /) -> bool:
        client = interaction.client
        if client.admission.overloaded(client.storage.database.waiting):
            await _refuse(interaction, BUSY)
            return False
        if not _served(interaction):
            await _refuse(interaction, DM_REFUSAL)
            return False
        return True


def _served(interaction: discord.Interaction["MistbornClient"]) -> bool:
    """A command that needs a server is refused, before any option is read, where the bot serves
    none: a DM, a group DM, a server it is not in (only ``usable_anywhere`` ones work there).

    The server is asked first: in one the bot serves (nearly every interaction) the answer is
    known without ``interaction.command``, whose first read looks the command up in the tree
    again, just before the tree looks it up itself and fills it in."""
    if served_guild_id(interaction) is not None:
        return True
    command = interaction.command
    return command is None or usable_anywhere(command)


async def _refuse(interaction: discord.Interaction["MistbornClient"], text: str) -> None:
    if interaction.type is discord.InteractionType.application_command:
        await replies.send_private(interaction, text)
    elif interaction.type is discord.InteractionType.autocomplete:
        await _no_suggestions(interaction)


async def _no_suggestions(interaction: discord.Interaction["MistbornClient"]) -> None:
    """Past capacity (or where the command cannot run), an autocomplete still gets its answer:
    no suggestions, at once.

    Left unanswered, Discord shows "Loading options failed" after 3 s and the bot has spent
    nothing; an empty list is the cheapest answer there is, and the member can still type.
    """
    try:
        await interaction.response.autocomplete([])
    except discord.HTTPException:
        log.debug("Could not answer autocomplete %s while busy", interaction.id, exc_info=True)


GC_THRESHOLDS = (5_000, 10, 10)
"""Python's default collects its youngest objects every 700 allocations; an interaction makes
thousands, nearly all freed at once by reference counting (``replies.release`` cuts the cycles
discord.py would leave), so a collection every 5,000 still comes rarely under load (a few a
second at 500 interactions/s), and what it sweeps is small: about 2.5 ms each. At 20,000, with
the cycles cut, each swept the garbage of a few hundred buttons and views at once, 7-10 ms in
which the loop answered nothing (``bench/load_bench.py``)."""

INTENTS = discord.Intents(guilds=True)
"""Servers, channels and roles only. Everything the bot acts on comes as an interaction, so it
asks for no message events: with them, Discord would send it every message posted in every
channel of every server it is in, to parse and drop."""


class MistbornClient(commands.Bot):
    """A discord.py bot holding the services; ``cogs`` build its commands at start-up."""

    def __init__(
        self,
        *,
        settings: Settings,
        storage: Storage,
        cogs: Sequence[CogFactory] = (),
        prompts: ConflictPrompts,
        rng: random.Random | None = None,
        sync_global: bool = False,
        freeze_gc: bool = False,
        **options: object,
    ) -> None:
        # The bot never joins voice: without this, every start logs two warnings asking the
        # operator for voice's packages (PyNaCl, davey), which it does not need.
        discord.VoiceClient.warn_nacl = discord.VoiceClient.warn_dave = False
        shard_plan = settings.shards
        pacer = Pacer(shard_plan.share)  # this process's part of the bot's budget
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=INTENTS,
            allowed_mentions=discord.AllowedMentions.none(),
            help_command=None,
            tree_cls=MistbornTree,
            # Guild install and server channels unless a command says more (docs/architecture.md,
            # "Dice anywhere"): only /roll, /read and /odds may be installed by a member.
            allowed_contexts=app_commands.AppCommandContext(guild=True),
            allowed_installs=app_commands.AppInstallationType(guild=True),
            http_trace=watch(pacer, self._token_refused),
            **options,  # type: ignore[arg-type]
        )
        self.settings = settings
        self.storage = storage
        self.rng = rng if rng is not None else random.SystemRandom()
        self.pacer = pacer
        self.token_refused = False
        """Discord answered a call made with the bot's token 401 (``bot.rest_watch``): stopping."""
        self._stopping: asyncio.Task[None] | None = None
        self.admission = Admission(settings.max_waiting_writes)
        door = Door(self.admission, lambda: storage.database.waiting)
        self.clicks = Clicks(door)
        self.forms = Forms(door)
        self.conflicts = ConflictWorkers(
            self, storage, self.pacer, buttons=prompts.buttons, public_url=settings.web_public_url
        )
        self.shard_plan = shard_plan
        self.catch_up = CatchUp(self, self.conflicts, prompts.asked_again, self.pacer, self.shard_plan.owns)
        self.upkeep = Upkeep(
            storage, settings.roll_log_days, settings.session_quiet_hours, wake=self.conflicts.outbox.wake
        )
        self.portrait_reader = PortraitReader(per_minute=settings.portraits_per_minute)
        self.sync_global = sync_global
        self.freeze_gc = freeze_gc
        self._cog_factories = tuple(cogs)
        serves_web = settings.web_port is not None and self.shard_plan.leads  # one process per port
        self.web_server = WebServer(storage, settings, self.http) if serves_web else None
        self.health_server = (
            None
            if settings.metrics_port is None
            else HealthServer(
                self,
                storage,
                host=settings.metrics_host,
                port=settings.metrics_port,
                lag=lambda: self.admission.lag,
                in_flight=lambda: self.admission.in_flight,
            )
        )
        self.tree.error(on_app_command_error)

    async def load_cogs(self) -> None:
        """Add every cog, which registers its commands on the tree (no Discord call)."""
        for make in self._cog_factories:
            await self.add_cog(make(self))

    async def setup_hook(self) -> None:
        await self.load_cogs()
        use_faces(await dice_faces(self) if self.settings.dice_emojis else PLAIN_FACES)
        self.admission.start()
        if self.web_server is not None:
            await self.web_server.start()
        if self.health_server is not None:
            await self.health_server.start()
        await self.sync_commands()
        if self.freeze_gc:
            # Everything loaded so far lives for the whole run; keeping it out of the
            # collector's sight shortens full collections from ~100 ms to a few ms under load,
            # and collecting the young generation less often (GC_THRESHOLDS) saves CPU.
            gc.freeze()
            gc.set_threshold(*GC_THRESHOLDS)

    async def sync_commands(self) -> None:
        """Sync deliberately: to the development server when one is set, globally only on request;
        in a cluster, only from the process holding shard 0 (one tree, synced once)."""
        if not self.shard_plan.leads:
            return
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d commands to development server %s", len(synced), guild.id)
        if self.sync_global:
            synced = await self.tree.sync()
            log.info("Synced %d commands globally", len(synced))

    @property
    def web_url(self) -> str | None:
        """Where ``/web`` links point (None: the web view is off, ``bot.web.server``)."""
        return public_url(self.settings, self.web_server)

    async def on_ready(self) -> None:
        """Once connected (again): catch up every channel, and keep the tables pruned; both in the
        background, so the first interactions are answered at once."""
        log.info(
            "Ready: %s, %d servers, on %s's event loop",
            self.shard_plan.describe(),
            len(self.guilds),
            event_loop.running_name(),
        )
        self.catch_up.start()
        if self.shard_plan.leads:  # the shared tables are pruned by one process
            self.upkeep.start()

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Wait for this shard's identify bucket through the shared database (``storage.identify``)
        instead of discord.py's 5 s sleep before every reconnect: a free bucket goes at once.

        A lone unsharded process's first IDENTIFY goes at once, as discord.py's does; in a
        cluster every IDENTIFY takes its bucket's turn, since the processes start together.
        """
        if initial and not self.shard_plan.sharded:
            return
        bucket = (shard_id or 0) % self.settings.identify_concurrency
        while (wait := await self.storage.identify.claim(bucket, time.time(), IDENTIFY_INTERVAL)) > 0:
            await asyncio.sleep(wait)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        """Every command, button and form is counted and guarded here, as it arrives: none may
        miss Discord's deadline.

        Commands and autocomplete reach their handlers through the tree, buttons and menus
        through :attr:`clicks`, submitted forms through :attr:`forms`; no interaction starts a
        listener task (discord.py makes a task per listener per event).
        """
        if event_name == "interaction":
            interaction: discord.Interaction[MistbornClient] = args[0]
            metrics.received(interaction)
            replies.guard(interaction)
            self.clicks.dispatch(interaction)
            self.forms.dispatch(interaction)
            return
        super().dispatch(event_name, *args, **kwargs)

    def add_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        """Register the cogs' buttons and menus with :attr:`clicks`, which routes a click by its
        custom id alone, instead of with discord.py, which rebuilds the clicked message's whole
        view first (``bot.clicks``)."""
        self.clicks.add(*items)

    def remove_dynamic_items(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        self.clicks.remove(*items)

    async def is_owner(self, user: discord.abc.User) -> bool:
        if self.settings.owner_ids:
            return user.id in self.settings.owner_ids
        return await super().is_owner(user)

    def _token_refused(self) -> None:
        """Discord refused the bot's token after login (reset in the Developer Portal, say):
        nothing can work, and every further call is one more refusal toward a ban. Stop;
        :meth:`start` then raises ``LoginFailure``, as discord.py does for a token refused at login."""
        if self.user is None or self.token_refused:
            return  # logging in: discord.py raises LoginFailure itself
        self.token_refused = True
        log.critical("Discord refused the bot's token (401): stopping. Check DISCORD_TOKEN.")
        self._stopping = asyncio.get_running_loop().create_task(self.close(), name="token-refused")

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        await super().start(token, reconnect=reconnect)
        if self.token_refused:
            raise discord.LoginFailure("Discord refused the bot's token (401) while it ran.")

    async def close(self) -> None:
        self.catch_up.close()
        self.upkeep.close()
        self.admission.close()
        self.conflicts.close()
        await self.portrait_reader.close()
        if self.web_server is not None:
            await self.web_server.stop()
        if self.health_server is not None:
            await self.health_server.stop()
        use_faces(PLAIN_FACES)
        await super().close()


Interaction = discord.Interaction[MistbornClient]
"""What every command callback receives: its ``client`` is this bot."""
