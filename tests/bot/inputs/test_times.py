"""A time a Narrator types in their own zone (``bot.inputs.times``): table-driven and hypothesis."""

import zoneinfo
from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.errors import BotError
from bot.inputs.times import AHEAD, parse_start, parse_zone

NOW = datetime(2026, 11, 27, 12, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("typed", "named", "offset"),
    [
        ("", "UTC", 0),
        ("utc", "UTC", 0),
        ("Z", "UTC", 0),
        ("+02:00", "UTC+02:00", 120),
        ("+2", "UTC+02:00", 120),
        ("UTC-5", "UTC-05:00", -300),
        ("gmt+05:30", "UTC+05:30", 330),
        ("+0545", "UTC+05:45", 345),
        ("-12:00", "UTC-12:00", -720),
        ("+14", "UTC+14:00", 840),
        ("asia/kolkata", "Asia/Kolkata", 330),
    ],
)
def test_a_zone_is_an_offset_an_iana_name_or_utc(typed: str, named: str, offset: int) -> None:
    zone, name = parse_zone(typed)
    assert name == named
    assert zone.utcoffset(datetime(2031, 1, 15)) == timedelta(minutes=offset)


@pytest.mark.parametrize(
    ("typed", "said"),
    [
        ("+15", "not an offset"),
        ("+01:75", "not an offset"),
        ("Narnia", "not a time zone"),
        ("../etc/passwd", "not a time zone"),
    ],
)
def test_what_is_no_zone_is_refused(typed: str, said: str) -> None:
    with pytest.raises(BotError, match=said):
        parse_zone(typed)


MINUTES = st.integers(-12 * 60, 14 * 60).filter(lambda m: m % 15 == 0)
AHEAD_MINUTES = st.integers(24 * 60, int(AHEAD.total_seconds() // 60) - 24 * 60)


@given(offset=MINUTES, later=AHEAD_MINUTES)
def test_an_offset_moves_the_start_by_exactly_itself(offset: int, later: int) -> None:
    local = (NOW + timedelta(minutes=later)).replace(tzinfo=None)
    sign = "-" if offset < 0 else "+"
    typed = f"{sign}{abs(offset) // 60:02d}:{abs(offset) % 60:02d}"
    start = parse_start(local.strftime("%Y-%m-%d %H:%M"), typed, NOW)
    assert start.at == local.replace(tzinfo=UTC) - timedelta(minutes=offset)


@given(name=st.sampled_from(sorted(zoneinfo.available_timezones())), later=AHEAD_MINUTES)
def test_an_iana_zone_gives_back_the_local_time_typed_or_refuses_a_skipped_one(name: str, later: int) -> None:
    local = (NOW + timedelta(minutes=later)).replace(tzinfo=None, second=0, microsecond=0)
    try:
        start = parse_start(local.strftime("%Y-%m-%d %H:%M"), name, NOW)
    except BotError as error:
        assert "the clocks skip it" in str(error)
        return
    assert start.at.astimezone(zoneinfo.ZoneInfo(name)).replace(tzinfo=None) == local
    assert NOW < start.at <= NOW + AHEAD


def test_the_edges_of_the_window() -> None:
    with pytest.raises(BotError, match="has passed"):
        parse_start("2026-11-27 12:00", "", NOW)
    assert parse_start("2026-11-27 12:01", "", NOW).at == NOW + timedelta(minutes=1)
    assert parse_start("2031-11-27 12:00", "", NOW).at == datetime(2031, 11, 27, 12, 0, tzinfo=UTC)
    with pytest.raises(BotError, match="more than five years"):
        parse_start("2031-11-29 12:00", "", NOW)
