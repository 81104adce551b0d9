"""The page's sheets: each sheet's JSON, built once per saved state of it and kept.

Why kept (issue 39): a Narrator's page of a server of 2,000 sheets (1.7 MB) was built anew
for every fetch in a worker thread, which held the GIL throughout: measured, the sheets'
dicts took 260 ms, ``json`` 70 ms more (orjson: 12 ms), and reading the 2,000 sheets 20-30 ms
on the loop (700 ms the first time, parsing them); with a few pages fetching at every change,
a roll in another server waited up to 0.7 s. orjson alone leaves the 260 ms. Slices on the
loop would put the same work in front of everyone, a step at a time. A child process (not
built) would take it off this process, but must be sent every sheet and still build each
one for every fetch, on a machine whose two cores the bot already shares. Yet most of a page
is the same from one fetch to the next (a move changes one or two sheets), so this keeps
each sheet's encoded JSON under the state it was built from, checks that state from the
sheets' columns alone (``storage.characters.stamps``: no document read or parsed), and
builds only the sheets that changed since; the page is the kept pieces joined. The sheets
that did change are read and built on the loop a few at a time (:data:`CHUNK`), each step
short, so a first look at a large server (after a start) never holds the loop long either;
pages built at the same time wait for one another's reads rather than each reading the same
sheets. Figures: docs/benchmarks.md, *The web view's page of 2,000 sheets*.

What each part is called is said once, for the card and this page (``bot.render.sheet_words``).
A sheet is listed when the caller both controls it and may read it (``bot.access``): every
sheet for a Narrator, a player's own Heroes; so a hidden sheet's Destiny and Tragedy never
reach a player.
"""

import asyncio
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from weakref import WeakValueDictionary

import orjson

from bot.access import Caller, Sheetlike
from bot.render.metals import metal_lines
from bot.render.sheet import subplot_title
from bot.render.sheet_words import (
    MEMBERS,
    burden_weight,
    members_standing,
    named_traits,
    prop_bonuses,
    standing_spent,
)
from rules.character import (
    Attribute,
    Resilience,
    Standing,
    resilience_current,
    resilience_max,
    standing_available,
)
from rules.character.advancement import ledger_line
from rules.character.story import Subplot
from storage import Storage, StoredCharacter

JSON = dict[str, Any]
CHUNK = 25
"""Sheets read and built in one step of the loop when they are not kept (~10 ms)."""
BUDGET = 64 * 2**20
"""Bytes of built sheets kept in all (a server of 2,000 full sheets takes 1.7 MB); the least
recently shown go first."""


def members_data(left: int, size: int) -> JSON:
    """An Extras group's members still standing, worded as the sheet card words them."""
    return {"label": MEMBERS, "left": left, "size": size, "text": members_standing(left, size)}


def sheet_data(stored: StoredCharacter) -> JSON:
    """A whole sheet; only ever built for a caller who may read it (:func:`listed`)."""
    c = stored.character
    return {
        "id": stored.id,
        "name": c.name,
        "kind": c.kind.value,
        "kind_label": c.kind.label,
        "owner": str(c.owner_id),
        "revealed": stored.revealed,
        "concept": c.concept,
        "attributes": [{"name": a.label, "rating": c.attributes.get(a)} for a in Attribute],
        "standings": [
            {
                "name": s.label,
                "rating": c.standings.get(s),
                "left": standing_available(c, s),
                "spent": standing_spent(c, s),
            }
            for s in Standing
        ],
        "resiliences": []
        if c.is_extra
        else [
            {"name": r.label, "current": resilience_current(c, r), "max": resilience_max(c, r)}
            for r in Resilience
        ],
        "members": members_data(c.members_left, c.size) if c.is_extra else None,
        "burdens": [
            {"name": b.name, "severity": b.severity.label, "weight": burden_weight(b)} for b in c.burdens
        ],
        "powers": [{"name": p.full_label, "rating": p.rating, "stunts": list(p.stunts)} for p in c.powers],
        "traits": [{"label": label, "text": text} for label, text in named_traits(c.traits)],
        "props": [{"name": p.name, "bonuses": prop_bonuses(p.weapon, p.armour)} for p in c.props],
        "metals": metal_lines(c, str),
        "destiny": c.destiny,
        "destiny_title": subplot_title(c, Subplot.DESTINY),
        "tragedy": c.tragedy,
        "tragedy_title": subplot_title(c, Subplot.TRAGEDY),
        "advancements": "" if c.advancements.empty else ledger_line(c.advancements),
        "secrets_known": list(c.story.secrets_known),
        "notes": c.notes,
    }


def listed(caller: Caller, sheet: Sheetlike, revealed: bool) -> bool:
    """The page lists sheets the caller controls and may read: all for a Narrator, a player's
    own Heroes (both judged by ``bot.access``, docs/rulings.md §6.9, §7.1)."""
    return caller.controls(sheet) and caller.can_read(sheet, revealed)


@dataclass(frozen=True)
class Built:
    """One sheet's JSON and the state it was built from."""

    state: tuple[int, bool, str | None]
    """The sheet's version, whether it was revealed, and its portrait's path."""
    body: bytes


class SheetPages:
    """Each sheet's built JSON, by server and sheet, within :data:`BUDGET` bytes in all."""

    def __init__(self, budget: int = BUDGET) -> None:
        self.budget = budget
        self.size = 0
        self._held: OrderedDict[tuple[int, int], Built] = OrderedDict()
        self._filling: WeakValueDictionary[int, asyncio.Lock] = WeakValueDictionary()

    async def sheets(self, storage: Storage, caller: Caller, portraits: Mapping[int, str]) -> bytes:
        """The JSON array of every sheet the caller's page lists, in name order, as it is saved
        now: the kept ones as they are, the others read and built a :data:`CHUNK` at a time."""
        guild = caller.guild_id
        owner = None if caller.reads_secret_sheets else caller.user_id
        stamps = [s for s in await storage.characters.stamps(guild, owner) if listed(caller, s, s.revealed)]
        bodies: dict[int, bytes] = {}
        lock = self._filling.setdefault(guild, asyncio.Lock())
        async with lock:  # pages built at once wait for one another's reads, not repeat them
            missing = []
            for stamp in stamps:
                found = self._held.get((guild, stamp.id))
                if found is not None and found.state == (
                    stamp.version,
                    stamp.revealed,
                    portraits.get(stamp.id),
                ):
                    self._held.move_to_end((guild, stamp.id))
                    bodies[stamp.id] = found.body
                else:
                    missing.append(stamp.id)
            for start in range(0, len(missing), CHUNK):
                await asyncio.sleep(0)  # a read on the loop's own connection may not yield by itself
                read = await storage.characters.get_many(guild, missing[start : start + CHUNK])
                for stored in read.values():
                    if listed(caller, stored.character, stored.revealed):  # as it is now, if it changed
                        bodies[stored.id] = self._build(guild, stored, portraits.get(stored.id))
        return b"[" + b",".join(bodies[s.id] for s in stamps if s.id in bodies) + b"]"

    def _build(self, guild_id: int, stored: StoredCharacter, portrait: str | None) -> bytes:
        body = orjson.dumps(sheet_data(stored) | {"portrait": portrait})
        key = (guild_id, stored.id)
        old = self._held.pop(key, None)
        self.size += len(body) - (len(old.body) if old is not None else 0)
        self._held[key] = Built((stored.version, stored.revealed, portrait), body)
        while self.size > self.budget and self._held:
            _, dropped = self._held.popitem(last=False)
            self.size -= len(dropped.body)
        return body
