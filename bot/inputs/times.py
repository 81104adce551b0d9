"""A time a Narrator types, in their own zone: the next session's start on the schedule form.

The form takes ``YYYY-MM-DD HH:MM`` and a time zone, given as an offset from UTC (``+02:00``,
``-5``, ``UTC+5:30``) or an IANA zone (``Europe/Paris``, any case), either in its own box or
after the time; nothing given is UTC. An IANA zone follows its clocks: a summer date in
``Europe/Paris`` is UTC+2, a winter one UTC+1, and a time the clocks skip (the hour lost in
spring) is refused rather than moved. Zones come from the system's database, or from the
``tzdata`` package where the system has none (Windows, slim containers).

How far ahead: Discord's API description gives ``scheduled_start_time`` no upper bound, so the
bot sets one, :data:`AHEAD` (five years): a campaign's long break fits, a mistyped century
does not.
"""

import functools
import re
import zoneinfo
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone, tzinfo

from bot.errors import BotError
from bot.text import inert

AHEAD = timedelta(days=5 * 365 + 1)
"""The latest start accepted: five years from now."""
WHEN_MAX = 60
"""Characters of the time box: the time and a zone after it."""
FORMAT = "%Y-%m-%d %H:%M"
EXAMPLE = "`2026-12-04 19:30`, with your zone as `+02:00` or `Europe/Paris` (UTC if none)"
BAD_TIME = f"Give the time as `YYYY-MM-DD HH:MM`, e.g. {EXAMPLE}."
OFFSET = re.compile(r"(?:UTC|GMT)?\s*(?P<sign>[+-])\s*(?P<hours>\d{1,2})(?::?(?P<minutes>\d{2}))?", re.I)
UTC_NAMES = frozenset({"", "utc", "gmt", "z", "zulu"})
LATEST_OFFSET = timedelta(hours=14)
"""Offsets in use run from UTC−12 to UTC+14."""


@dataclass(frozen=True)
class Start:
    """A start time, in UTC, and the zone it was given in (for the answer to name it)."""

    at: datetime
    zone: str


@functools.cache
def _zones() -> dict[str, str]:
    """Every IANA zone by its name folded to lower case (a zone typed in any case is found)."""
    return {name.lower(): name for name in zoneinfo.available_timezones()}


def parse_zone(text: str) -> tuple[tzinfo, str]:
    """The zone ``text`` names (an offset, an IANA zone, or UTC) and how to name it back."""
    typed = " ".join(text.split())
    if typed.lower() in UTC_NAMES:
        return UTC, "UTC"
    offset = OFFSET.fullmatch(typed)
    if offset is not None:
        minutes = int(offset["minutes"] or 0)
        delta = timedelta(hours=int(offset["hours"]), minutes=minutes)
        if minutes >= 60 or delta > LATEST_OFFSET:
            raise BotError(f"{inert(typed)} is not an offset in use: they run from -12:00 to +14:00.")
        delta = -delta if offset["sign"] == "-" else delta
        sign, whole = ("-" if delta < timedelta(0) else "+"), abs(delta)
        hours, rest = divmod(int(whole.total_seconds()) // 60, 60)
        name = f"UTC{sign}{hours:02d}:{rest:02d}"
        return timezone(delta, name), name
    known = _zones().get(typed.lower())
    if known is None:
        raise BotError(
            f"{inert(typed[:40])} is not a time zone: give an offset such as `+02:00`, or a zone such "
            "as `Europe/Paris` or `America/New_York`."
        )
    return zoneinfo.ZoneInfo(known), known


def parse_start(when: str, zone: str, now: datetime) -> Start:
    """The form's time in the zone given (in its box, or after the time; UTC if neither), which
    must be in the future and at most :data:`AHEAD` away."""
    words = when.split()
    if len(words) < 2:
        raise BotError(BAD_TIME)
    trailing = " ".join(words[2:])
    if trailing and zone.strip():
        raise BotError("Give the time zone once: after the time, or in its own box.")
    try:
        naive = datetime.strptime(" ".join(words[:2]), FORMAT)
    except ValueError as error:
        raise BotError(BAD_TIME) from error
    place, name = parse_zone(trailing or zone)
    local = naive.replace(tzinfo=place)
    at = local.astimezone(UTC)
    if at.astimezone(place).replace(tzinfo=None) != naive:
        raise BotError(
            f"{naive.strftime(FORMAT)} does not happen in {name}: the clocks skip it. Give another time."
        )
    if at <= now:
        raise BotError(f"{naive.strftime(FORMAT)} {name} has passed: give a time in the future.")
    if at > now + AHEAD:
        raise BotError("That is more than five years ahead: give a nearer time.")
    return Start(at=at, zone=name)
