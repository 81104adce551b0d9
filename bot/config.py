"""Settings from the environment and ``.env`` (pydantic-settings).

Every setting is documented in ``.env.example``. The token is a ``SecretStr`` so it never shows
in a log line, a repr or an error message. A setting left empty (``MISTBORN_DEV_GUILD_ID=``, as
``.env.example`` has them) takes its default, so a copy of that file works as it is.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Self

from pydantic import AliasChoices, Field, SecretStr, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from storage.character_rows import SheetLimits
from storage.database import DEFAULT_DB_PATH

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
MIN_WEB_SECRET_BYTES = 32


@dataclass(frozen=True)
class ShardPlan:
    """Which shards this process holds, and so which servers' background work is its own.

    A server's shard is ``(guild_id >> 22) % count`` (Discord's rule); events without a server go
    to shard 0. Interactions reach only the process holding their shard, but the background
    work (catching up, the outbox, boards, pruning) reads the shared database, so each process
    must leave other shards' servers alone: :meth:`owns` is that test, in one place.
    """

    count: int = 1
    held: frozenset[int] = frozenset({0})
    sharded: bool = False

    def shard_of(self, guild_id: int) -> int:
        return (guild_id >> 22) % self.count

    def owns(self, guild_id: int) -> bool:
        return self.shard_of(guild_id) in self.held

    @property
    def share(self) -> float:
        """The part of the bot's REST budget that is this process's: its shards of all shards
        (``bot.workers.pacing``). The processes of a cluster hold every shard once between
        them, so their shares add up to the whole however the shards are cut."""
        return len(self.held) / self.count

    @property
    def leads(self) -> bool:
        """The process holding shard 0 syncs the command tree and prunes the shared tables."""
        return 0 in self.held

    def describe(self) -> str:
        if not self.sharded:
            return "every server (unsharded)"
        return f"shards {', '.join(map(str, sorted(self.held)))} of {self.count}"


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_prefix="MISTBORN_", extra="ignore", populate_by_name=True, env_ignore_empty=True
    )

    token: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("DISCORD_TOKEN", "MISTBORN_TOKEN")
    )
    """The bot's Discord token. Without one, ``python -m bot`` opens the offline console."""
    db_path: Path = DEFAULT_DB_PATH
    database_url: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("DATABASE_URL", "MISTBORN_DATABASE_URL")
    )
    """A PostgreSQL server (``postgresql://user:password@host:5432/db``) shared by every process
    of a cluster; unset: the SQLite file at ``db_path``, as for one process. Secret: its
    password never shows in a repr or a log line (:attr:`database_dsn` reads it)."""

    @property
    def database_dsn(self) -> str | None:
        """``DATABASE_URL`` as text, for opening the database only."""
        return self.database_url.get_secret_value() if self.database_url is not None else None

    shard_count: int | None = Field(default=None, ge=1)
    """Shards the whole bot runs on (Discord requires sharding from 2,500 servers); unset: one
    process and discord.py's ordinary client, as before."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process holds, as a JSON list (``[0, 1]``); unset with ``shard_count``:
    all of them. ``python -m bot cluster`` sets it for each process it starts."""
    identify_concurrency: int = Field(default=1, ge=1)
    """Discord's ``max_concurrency`` for this bot (``GET /gateway/bot``; 1 below 150,000
    servers): shards ``id % N`` share one identify turn per 5 s, through the database."""
    log_level: str = "INFO"
    """DEBUG, INFO, WARNING, ERROR or CRITICAL (any case); anything else stops the start."""
    dev_guild_id: int | None = None
    """A server to sync commands to on every start (instant there; global sync is on request)."""
    owner_ids: frozenset[int] = frozenset()
    """Users who may run owner-only commands such as a global ``/sync``; empty means the
    application's owner as Discord reports it."""
    roll_log_days: int = Field(default=90, ge=0)
    session_quiet_hours: float = Field(default=12.0, gt=0)
    """Hours without anything happening in a channel after which its open session closes by
    itself (``bot.workers.upkeep``); sessions and their journal are kept as long as the roll log."""
    """Days a roll stays in the log (``/history rolls``); 0 keeps every roll. The fairness
    report counts every roll ever made either way (``bot.workers.upkeep``)."""

    dice_emojis: bool = True
    """Write dice on Discord as the app's own emojis, uploaded once by the bot at start if
    missing (``bot.workers.emojis``); off: as text ("**3** 6✦"). The offline console always
    writes text."""

    console_log: Path | None = None
    """Where the offline console writes the log (warnings such as discord.py's "Can't keep
    up"); only errors also reach the screen. Unset: ``console.log`` beside the database."""

    @property
    def console_log_path(self) -> Path:
        return self.console_log or self.db_path.parent / "console.log"

    max_waiting_writes: int = Field(default=200, ge=1)
    """Writes waiting for the database past which new commands are answered "busy, try again"
    at once (``bot.admission``) instead of queueing past Discord's 3-second deadline."""

    costly_per_minute: int = Field(default=12, ge=0)
    """Times a minute one member may use each costly command (``/odds table``, ``/odds contest``,
    ``/character list``, ``/character import``, ``/history fairness``, ``/conflict status``);
    0: no limit. Past it the member is told privately to try again in N seconds."""
    portraits_per_minute: int = Field(default=6, ge=0)
    """Pictures one member may have read a minute (``/character portrait``, its form, a portrait
    in ``/character import``; ``bot.render.portrait_reader``); 0: no limit."""

    max_sheets_per_server: int = Field(default=2000, ge=1)
    """Character sheets one server may keep. A table plays with tens; 2,000 leaves room for a
    large community while keeping a roster that lists, searches and autocompletes at once."""
    max_heroes_per_member: int = Field(default=50, ge=1)
    """Heroes one member may keep in a server (Narrators' Villains and Extras count only against
    the server's limit). Far above any real player's, low enough that no one fills the server."""

    @property
    def sheet_limits(self) -> SheetLimits:
        return SheetLimits(per_server=self.max_sheets_per_server, per_member=self.max_heroes_per_member)

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"{value!r} is not a log level; use one of {', '.join(LOG_LEVELS)}")
        return level

    web_host: str = "127.0.0.1"
    """Where this process serves the Narrator's web view (``bot.web``), when ``web_port`` is set."""
    web_port: int | None = Field(default=None, ge=0, le=65535)
    """Serve the web view from the bot's own process on this port (0: any free port). Unset: off
    with a real token; the offline console turns it on at 127.0.0.1 on a free port."""
    web_public_url: str | None = None
    """The address ``/web`` links point at (``https://mistborn.example``), when it differs from
    ``http://web_host:web_port`` (a proxy, or a view run on its own by ``python -m bot web``)."""
    web_secret: SecretStr | None = None
    """Signs the web view's links and cookies: 32 bytes or more. Unset: a secret made once and
    kept in the database, shared by every process on it."""

    @field_validator("web_secret")
    @classmethod
    def _long_secret(cls, value: SecretStr | None) -> SecretStr | None:
        if value is not None and len(value.get_secret_value().encode("utf-8")) < MIN_WEB_SECRET_BYTES:
            raise ValueError(
                f"must be {MIN_WEB_SECRET_BYTES} bytes or more (python -c 'import secrets; "
                "print(secrets.token_urlsafe(32))' makes one), or left empty"
            )
        return value

    @property
    def web_enabled(self) -> bool:
        """Whether ``/web`` hands out links: this process serves the view, or one elsewhere does."""
        return self.web_port is not None or bool(self.web_public_url)

    # -- Operations: health and metrics (bot.health) --------------------------------------------
    metrics_port: int | None = Field(default=None, ge=0, le=65535)
    """Serve ``/health`` (for a supervisor) and ``/metrics`` (Prometheus's format) on this port
    (0: any free port). Unset: off."""
    metrics_host: str = "127.0.0.1"
    """Where ``/health`` and ``/metrics`` listen when ``metrics_port`` is set: this machine only,
    unless an address such as 0.0.0.0 opens them to the network."""

    @model_validator(mode="after")
    def _shards_fit(self) -> Self:
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("MISTBORN_SHARD_IDS needs MISTBORN_SHARD_COUNT")
        if self.shard_count is not None and any(not 0 <= i < self.shard_count for i in self.shard_ids or ()):
            raise ValueError(
                f"MISTBORN_SHARD_IDS: every shard id must be between 0 and {self.shard_count - 1}"
                f" (MISTBORN_SHARD_COUNT is {self.shard_count})"
            )
        return self

    @property
    def shards(self) -> ShardPlan:
        count = self.shard_count or 1
        held = self.shard_ids if self.shard_ids is not None else tuple(range(count))
        return ShardPlan(count=count, held=frozenset(held), sharded=self.shard_count is not None)

    @property
    def has_token(self) -> bool:
        return self.token is not None and bool(self.token.get_secret_value().strip())
