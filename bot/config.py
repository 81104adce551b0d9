"""Settings from the environment and ``.env`` (pydantic-settings).

Every setting is documented in ``.env.example``. The token is a ``SecretStr`` so it never shows
in a log line, a repr or an error message.
"""

from pathlib import Path

from pydantic import AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from storage.database import DEFAULT_DB_PATH

LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")


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
    """DEBUG, INFO, WARNING, ERROR or CRITICAL (any case); anything else stops the start."""
    dev_guild_id: int | None = None
    """A server to sync commands to on every start (instant there; global sync is on request)."""
    owner_ids: frozenset[int] = frozenset()
    """Users who may run owner-only commands such as a global ``/sync``; empty means the
    application's owner as Discord reports it."""
    roll_log_days: int = Field(default=90, ge=0)
    """Days a roll stays in the log (``/history rolls``); 0 keeps every roll. The fairness
    report counts every roll ever made either way (``bot.flow.upkeep``)."""

    max_waiting_writes: int = Field(default=200, ge=1)
    """Writes waiting for the database past which new commands are answered "busy, try again"
    at once (``bot.admission``) instead of queueing past Discord's 3-second deadline."""

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"{value!r} is not a log level; use one of {', '.join(LOG_LEVELS)}")
        return level

    @property
    def has_token(self) -> bool:
        return self.token is not None and bool(self.token.get_secret_value().strip())
