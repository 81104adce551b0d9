"""Settings from the environment and ``.env`` (pydantic-settings).

Every setting is documented in ``.env.example``. The token is a ``SecretStr`` so it never shows
in a log line, a repr or an error message.
"""

from pathlib import Path

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from storage.database import DEFAULT_DB_PATH


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_file=".env", env_prefix="MISTBORN_", extra="ignore", populate_by_name=True
    )

    token: SecretStr | None = Field(
        default=None, validation_alias=AliasChoices("DISCORD_TOKEN", "MISTBORN_TOKEN")
    )
    """The bot's Discord token. Without one, ``python -m bot`` opens the offline console."""
    db_path: Path = DEFAULT_DB_PATH
    log_level: str = "INFO"
    dev_guild_id: int | None = None
    """A server to sync commands to on every start (instant there; global sync is on request)."""
    owner_ids: frozenset[int] = frozenset()
    """Users who may run owner-only commands such as a global ``/sync``; empty means the
    application's owner as Discord reports it."""
    roll_log_days: int = Field(default=90, ge=0)
    """Days a roll stays in the log (``/history rolls``); 0 keeps every roll. The fairness
    report counts every roll ever made either way (``bot.flow.upkeep``)."""

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
