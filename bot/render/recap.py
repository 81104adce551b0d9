"""The recap card and the journal file: :class:`~rules.recap.Recap` and the journal's entries in
words (pure; built off the event loop for a long night, ``bot.cogs.sessions``).

Discord allows 4,000 characters of text in one layout message, so a long night is split this
way: the card shows each section's first :data:`TOP` lines and "…and N more in the journal", and
the whole night in order is the journal's Markdown file (``/session journal``), which has no such
limit. Whatever the sections, the card's text is clipped to :data:`CARD_TEXT`, its small print
(:func:`small_print`: how it ended, a recap read from only the first entries of a very long
night, where the rest is) always kept.
"""

from collections.abc import Sequence
from typing import Any

import discord

from bot.render.cards import SentLayout, body_components, button_rows, container, text
from bot.render.dice import faces_in_use, with_faces
from rules.character import CharacterKind
from rules.journal import JournalEntry, Viewer, line_for, visible
from rules.recap import Recap, Tally
from storage.journal import StoryEntry

CARD_TEXT = 3800
"""Text per card, under Discord's 4,000 for all the TextDisplays of one message."""
TOP = 6
AWARDS_TOP = 25
"""Awards and spends come first and in full: each player looks for their own (§10.1)."""
TALLY_HEADINGS = {
    CharacterKind.HERO: "Heroes",
    CharacterKind.VILLAIN: "Villains",
    CharacterKind.EXTRA: "Extras",
}
"""Each kind's tallies under its own heading: a Villain's wounds are not a Hero's."""
MORE = "…and {count} more in the journal (`/session journal`)."


def _section(title: str, lines: Sequence[str], top: int = TOP) -> str:
    if not lines:
        return ""
    shown = [f"• {line}" for line in lines[:top]]
    if len(lines) > top:
        shown.append(MORE.format(count=len(lines) - top))
    return f"**{title}**\n" + "\n".join(shown)


def _tally(t: Tally) -> str:
    parts = [
        f"{t.damage} damage taken" if t.damage else "",
        f"{t.healed} healed" if t.healed else "",
        f"{t.spent} Standing spent" if t.spent else "",
        f"{t.recovered} Standing recovered" if t.recovered else "",
        f"{t.beats} Beat{'s' if t.beats != 1 else ''} caught" if t.beats else "",
    ]
    return f"{t.name}: " + ", ".join(p for p in parts if p)


def small_print(*, read: int, total: int, private: bool, quiet_hours: float | None = None) -> list[str]:
    """The card's last lines: how the session ended, where the rest is, and a cut, said."""
    lines = []
    if quiet_hours is not None:
        lines.append(f"Closed by itself after {quiet_hours:g} hours of quiet.")
    if total > read:
        lines.append(
            f"This recap is built from the first {read:,} of {total:,} entries;"
            " `/session journal` has the whole night."
        )
    if not private:
        lines.append("The Narrator's full recap: `/session recap`. The night in order: `/session journal`.")
    return [f"-# {line}" for line in lines]


def recap_sections(recap: Recap, title: str, *, private: bool, footer: Sequence[str] = ()) -> list[str]:
    """The card's text blocks, each at most :data:`CARD_TEXT` altogether, ``footer`` (its small
    print, :func:`small_print`) always last and always kept."""
    heading = f"## The night's recap: {title}" + (" (Narrator's version)" if private else "")
    blocks = [
        heading,
        _section("Advancements", recap.advancements, AWARDS_TOP),
        _section("Conflicts", recap.conflicts),
        *(
            _section(TALLY_HEADINGS[kind], [_tally(t) for t in recap.tallies if t.kind is kind])
            for kind in CharacterKind
        ),
        _section("Burdens gained", recap.burdens_gained),
        _section("Burdens eased", recap.burdens_eased),
        _section("Contests", recap.contests),
        _section("Requests", recap.requests),
        _section("Story", recap.story),
    ]
    if recap.best or recap.worst:
        faces = faces_in_use()  # the journal's text, its dice as the app's emojis on Discord
        best = f"Best: {with_faces(recap.best, faces)}" if recap.best else ""
        rolls = [best, f"Worst: {with_faces(recap.worst, faces)}" if recap.worst else ""]
        blocks.append(f"**Rolls** ({recap.rolls})\n" + "\n".join(r for r in rolls if r))
    if recap.entries == 0:
        blocks.append("Nothing was logged in this session.")
    kept: list[str] = []
    rest = "…the rest is in the journal (`/session journal`)."
    used = sum(map(len, footer)) + len(rest)
    for block in filter(None, blocks):
        if used + len(block) > CARD_TEXT:
            kept.append(rest)
            break
        kept.append(block)
        used += len(block)
    return kept + list(footer)


def recap_body(blocks: Sequence[str]) -> dict[str, Any]:
    """The table's recap card as a create-message body, as the outbox stores it (no mentions)."""
    return {
        "flags": discord.MessageFlags(components_v2=True).value,
        "components": body_components(recap_card(blocks)),
        "allowed_mentions": discord.AllowedMentions.none().to_dict(),
    }


def recap_card(blocks: Sequence[str], button: discord.ui.Item[Any] | None = None) -> SentLayout:
    """One layout message: a container of text displays (and the Narrator's button, if any),
    drawn as its JSON as every card is (``bot.render.cards``)."""
    parts = [text(block) for block in blocks]
    parts += button_rows([button]) if button is not None else []
    return SentLayout([container(discord.Colour.dark_gold(), parts)])


JOURNAL_FILE_MAX = 8 * 1024 * 1024
"""The journal file's most bytes: Discord refuses an upload over 10 MiB in a server without
boosts, and the message around it needs some room."""


def journal_markdown(
    title: str, when: str, entries: Sequence[JournalEntry], viewer: Viewer, max_bytes: int = JOURNAL_FILE_MAX
) -> str:
    """The session's log in order as a Markdown document, in ``viewer``'s version; a night too
    long for one upload stops at ``max_bytes`` and says where the rest is (the web view's page)."""
    version = "the Narrator's version" if viewer.narrator else "as the table saw it"
    lines = [f"# {title}", "", f"{when} — {version}.", ""]
    used = sum(len(line.encode()) + 1 for line in lines) + 200  # room for the closing line
    shown = list(visible(entries, viewer))
    for number, (entry, line) in enumerate(shown):
        text = f"- `{entry.at.strftime('%H:%M')}` {line}"
        used += len(text.encode()) + 1
        if used > max_bytes:
            lines += ["", f"…and {len(shown) - number} more entries, too many for one file: read the whole"]
            lines.append("night on the web view (`/web`, then Sessions).")
            break
        lines.append(text)
    if len(lines) == 4:
        lines.append("Nothing was logged in this session.")
    return "\n".join(lines) + "\n"


def story_markdown(name: str, story: Sequence[StoryEntry], viewer: Viewer) -> str:
    """A character's story across sessions as a Markdown document (``/sheet history``): each
    line with its date and time, under the session it belongs to (a heading each time the
    session changes; "Outside any session" for what happened while none was open there)."""
    version = "the Narrator's version" if viewer.narrator else "as the table saw it"
    lines = [f"# {name}'s story", "", f"Across every session kept — {version}.", ""]
    heading: str | None = None
    for told in story:
        line = line_for(told.entry, viewer)
        if line is None:
            continue
        session = (
            f"## Session #{told.session_id}: {told.session_title}"
            if told.session_id is not None
            else "## Outside any session"
        )
        if session != heading:
            lines += ([""] if heading is not None else []) + [session, ""]
            heading = session
        lines.append(f"- `{told.entry.at.strftime('%Y-%m-%d %H:%M')}` {line}")
    if heading is None:
        lines.append("Nothing of this character was logged yet.")
    return "\n".join(lines) + "\n"
