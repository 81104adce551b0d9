"""Settings from the environment and ``.env`` (pydantic-settings).

Every setting is documented in ``.env.example``. The token is a ``SecretStr`` so it never shows
in a log line, a repr or an error message. A setting left empty (``MISTBORN_DEV_GUILD_ID=``, as
``.env.example`` has them) takes its default, so a copy of that file works as it is.
"""

from pathlib import Path

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from storage.characters import SheetLimits
from storage.database import DEFAULT_DB_PATH

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_prefix="MISTBORN_", extra="ignore", populate_by_name=True, env_ignore_empty=True
    )

    token: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("DISCORD_TOKEN", "MISTBORN_TOKEN")
    )
    """The bot's Discord token. Without one, ``python -m bot`` opens the offline console."""
    db_path: Path = DEFAULT_DB_PATH
    log_level: str = "INFO"
    """DEBUG, INFO, WARNING, ERROR or CRITICAL (any case); anything else stops the start."""
    dev_guild_id: int | None = None
    """A server to sync commands to on every start (instant there; global sync is on request)."""
    owner_ids: frozenset[int] = frozenset()
    """Users who may run owner-only commands such as a global ``/sync``; empty means the
    application's owner as Discord reports it."""
    roll_log_days: int = Field(default=90, ge=0)
    """Days a roll stays in the log (``/history rolls``); 0 keeps every roll. The fairness
    report counts every roll ever made either way (``bot.flow.upkeep``)."""

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
    """Signs the web view's links and cookies. Unset: a secret made once and kept in the
    database, shared by every process on it."""

    @property
    def web_enabled(self) -> bool:
        """Whether ``/web`` hands out links: this process serves the view, or one elsewhere does."""
        return self.web_port is not None or bool(self.web_public_url)

    @property
    def has_token(self) -> bool:
        return self.token is not None and bool(self.token.get_secret_value().strip())
