"""The web view's "Sessions" pages: the server's sessions, and each one's journal, as plain HTML
built on the server (no script, every word escaped).

Who reads what is the journal's own rule (``rules.journal``): a Narrator's session reads every
entry in full; a player's reads what the table saw, and their own secret rolls, exactly as
``/session journal`` gives them. Where a player reads is ``bot.reach``'s (docs/rulings.md §7.6):
the list holds the sessions of channels they may view, and a session's page the entries of its
private threads only where they took part; the routes pick those rows (``bot.web.app``). The
pages are built in a worker thread (a long night's journal is a few thousand lines).
"""

import html
import re
from collections.abc import Sequence

from rules.journal import JournalEntry, Viewer, visible
from storage.journal import TableSession

BOLD = re.compile(r"\*\*(.+?)\*\*")
PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/app.css">
<title>{title}</title></head>
<body><main>
<p><a href="/g/{guild}/">Live view</a> · <a href="/g/{guild}/sessions">Sessions</a></p>
<h1>{title}</h1>
{body}
</main></body></html>
"""


def _line(text: str) -> str:
    """A journal line as HTML: escaped, with its Markdown bold kept as bold."""
    return BOLD.sub(r"<b>\1</b>", html.escape(text, quote=True))


def when(session: TableSession) -> str:
    start = session.started_at.strftime("%Y-%m-%d %H:%M UTC")
    if session.ended_at is None:
        return f"{start}, still open"
    return f"{start} to {session.ended_at.strftime('%H:%M UTC')}"


UNKNOWN = (
    "<p>This view could not ask Discord which channels you may read, so it shows no session:"
    " try again in a minute, or ask for a night's journal with /session journal in Discord.</p>"
)


def sessions_page(guild_id: int, sessions: Sequence[TableSession], *, unknown: bool = False) -> str:
    """The list of ``sessions``; ``unknown``: the member's channels could not be asked, so it is
    empty for that reason (``bot.web.reach``), and says so."""
    if unknown:
        body = UNKNOWN
    elif not sessions:
        body = "<p>No session has been played here yet (a Narrator starts one with /session start).</p>"
    else:
        items = "\n".join(
            f'<li><a href="/g/{guild_id}/sessions/{s.id}">#{s.id} {html.escape(s.title)}</a> — {when(s)}</li>'
            for s in sessions
        )
        body = f"<ul>\n{items}\n</ul>"
    return PAGE.format(title="Sessions", guild=guild_id, body=body)


def journal_page(
    guild_id: int, session: TableSession, entries: Sequence[JournalEntry], viewer: Viewer
) -> str:
    version = "the Narrator's version" if viewer.narrator else "as the table saw it"
    shown = visible(entries, viewer)
    items = "\n".join(
        f"<li><time>{entry.at.strftime('%H:%M')}</time> {_line(line)}</li>" for entry, line in shown
    )
    body = f"<p>{when(session)} — {version}.</p>\n" + (
        f"<ol>\n{items}\n</ol>" if shown else "<p>Nothing was logged in this session.</p>"
    )
    return PAGE.format(title=html.escape(session.title), guild=guild_id, body=body)
