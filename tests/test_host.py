"""The reading of the host a benchmark ran on: how much of the machine's time its hypervisor stole
during a rate (``testbed.host.StealClock``), from ``/proc/stat``'s first line."""

import math
from pathlib import Path

from testbed.host import StealClock


def stat_line(user: int, system: int, idle: int, steal: int) -> str:
    # cpu user nice system idle iowait irq softirq steal guest guest_nice
    return f"cpu  {user} 0 {system} {idle} 0 0 0 {steal} 0 0\ncpu0 1 2 3 4 5 6 7 8 9 10\n"


def test_the_stolen_share_is_of_the_ticks_spent_between_two_readings(tmp_path: Path) -> None:
    stat = tmp_path / "stat"
    stat.write_text(stat_line(100, 50, 1000, 10))
    clock = StealClock(stat)
    before = clock.ticks()
    assert before == (1160, 10)
    stat.write_text(stat_line(160, 70, 1100, 30))  # 200 ticks more, 20 of them stolen
    assert clock.share_since(before) == 0.1


def test_an_unreadable_or_unmoved_host_says_it_does_not_know(tmp_path: Path) -> None:
    stat = tmp_path / "stat"
    stat.write_text(stat_line(1, 1, 1, 0))
    clock = StealClock(stat)
    assert math.isnan(clock.share_since(clock.ticks()))  # no tick since
    assert StealClock(tmp_path / "missing").ticks() == (0, 0)
