"""What the host itself did while a benchmark ran: the CPU time its hypervisor gave to others.

On a shared machine a run's tail can owe more to the host than to the code measured; the load
bench (``bench.load_bench``) prints this share beside each rate's p99 so a reader can tell.
"""

from pathlib import Path


class StealClock:
    """The machine's CPU ticks, all and stolen, from ``/proc/stat`` (the first line, all CPUs)."""

    def __init__(self, path: Path = Path("/proc/stat")) -> None:
        self.path = path

    def ticks(self) -> tuple[int, int]:
        try:
            fields = [int(f) for f in self.path.read_text().split("\n", 1)[0].split()[1:]]
        except (OSError, ValueError):
            return 0, 0
        return sum(fields[:8]), fields[7] if len(fields) > 7 else 0  # through steal; guests are in user

    def share_since(self, before: tuple[int, int]) -> float:
        """The stolen share of the ticks since ``before`` (nan when unknown)."""
        total, stolen = self.ticks()
        spent = total - before[0]
        return (stolen - before[1]) / spent if spent > 0 else float("nan")
