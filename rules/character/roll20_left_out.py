"""What a Roll20 import lists back (docs/rulings.md §6.12): every field that found no place on our
sheet, one sentence each with the reason, capped so a crafted file still answers briefly.

``rules.character.roll20_sheet`` walks the sheet; this is the list it writes into.
"""

from collections.abc import Callable

from pydantic_core import PydanticCustomError

from rules.character import limits as lim
from rules.character.roll20 import shown

LEFT_OUT_MAX = 60
"""Lines listed back at most: more than the import's reply shows (2,000 characters), and a
crafted file of 160,000 Stunts still answers with 60 lines and a count of the rest."""


class LeftOut:
    """The lines left out so far, and a count of those past :data:`LEFT_OUT_MAX`."""

    def __init__(self) -> None:
        self.left: list[str] = []
        self.unlisted = 0
        """Things left out past :data:`LEFT_OUT_MAX`: counted, not listed."""

    def leave(self, text: str) -> None:
        if len(self.left) < LEFT_OUT_MAX:
            self.left.append(text)
        else:
            self.unlisted += 1

    def leave_each(self, items: list[str], line: Callable[[str], str]) -> None:
        """Leave out every item, writing a line only for those still listed (a file may hold
        160,000 of them)."""
        room = max(0, LEFT_OUT_MAX - len(self.left))
        self.left += [line(item) for item in items[:room]]
        self.unlisted += max(0, len(items) - room)

    def listed(self) -> tuple[str, ...]:
        if not self.unlisted:
            return tuple(self.left)
        return (*self.left, f"…and {self.unlisted:,} more not listed here")

    def fits(self, text: str, what: str, limit: int, *, multiline: bool = False) -> str | None:
        """``text`` if its place takes it, else None with the reason listed back."""
        try:
            return lim.clean_text(text, what, limit, multiline=multiline)
        except PydanticCustomError as error:
            self.leave(f"{what} {shown(text)}: {error.message()}")
            return None
