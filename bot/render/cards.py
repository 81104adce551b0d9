"""Cards: the bot's answers as Discord's layout messages (docs/architecture.md, "Cards").

A card is a container whose accent bar says at a glance how it went (success, failure, neither,
or just information), holding a few text displays: small print above (who rolled), a heading,
the lead line (the verdict), then blocks of ``**Name:** value`` lines between dividers, and
small print below. An ``/odds`` card shows its chart inside, from the file sent with it.

* **Phones first**: one fact a line, no tables wider than a phone, no fields side by side (an
  embed's inline fields became a cramped grid on a phone; a card's lines never do).
* **Both themes**: every accent keeps a contrast of at least 3:1 (WCAG's figure for graphics)
  against Discord's light (#FFFFFF) and dark (#313338) backgrounds; success and failure are
  Okabe & Ito's bluish green and a red apart from it in every common colour-vision deficiency,
  and the words say it too, so nothing relies on colour alone.
* **Within Discord's limits**: at most :data:`TEXT_LIMIT` characters of text and
  :data:`COMPONENT_LIMIT` components in a message (``fake_discord/layout.py`` holds the bot to
  them). :func:`card_view` clips the text that does not fit, last blocks first, never the
  heading; the cards here use a dozen components at most, a request's buttons included.
* **No content beside a card**: a layout message has no ``content``, so a line that pings sits
  in a text display above the card (``ping``), pinging whom ``allowed_mentions`` says, as before.

Text given here is Markdown the caller built; user text in it must already be inert
(``bot.render.common.plain``).
"""

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import discord

from bot.render.common import FAILURE as FAILURE
from bot.render.common import INFO as INFO
from bot.render.common import NEUTRAL as NEUTRAL
from bot.render.common import SUCCESS as SUCCESS
from bot.render.common import fit

ACCENTS = {"success": SUCCESS, "failure": FAILURE, "neutral": NEUTRAL, "info": INFO}

TEXT_LIMIT = 4000
"""Characters of text across all of a message's text displays."""
COMPONENT_LIMIT = 40
"""Components in a message, counted with every child."""
BUTTONS_PER_ROW = 5

Layout = discord.ui.LayoutView
Row = discord.ui.ActionRow[discord.ui.LayoutView]
Card = discord.ui.Container[discord.ui.LayoutView]


def line(name: str, value: str) -> str:
    """``**Outcome:** +1 — Mild``: one fact on one line (a value's further lines follow below)."""
    return f"**{name}:** {value}"


def card(
    title: str,
    *,
    accent: discord.Colour,
    lead: str = "",
    blocks: Iterable[str] = (),
    byline: str | None = None,
    note: str | None = None,
    image: str | None = None,
    rows: Sequence[Row] = (),
) -> Card:
    """A card: ``byline`` (small print) and the ``title`` heading over the ``lead``, then each
    of ``blocks`` below a divider, the ``image`` (an attached file's name) and ``note`` (small
    print), and ``rows`` of buttons at the bottom."""
    head = [f"-# {byline}"] if byline else []
    head.append(f"### {title}")
    if lead:
        head.append(lead)
    # The class itself, not the ``Card`` alias: calling a subscripted generic costs a call of
    # typing's on every card, for nothing at run time.
    container: Card = discord.ui.Container(discord.ui.TextDisplay("\n".join(head)), accent_colour=accent)
    for block in blocks:
        if block:
            container.add_item(discord.ui.Separator())
            container.add_item(discord.ui.TextDisplay(block))
    if image is not None:
        container.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{image}")))
    if note:
        container.add_item(discord.ui.TextDisplay("\n".join(f"-# {part}" for part in note.splitlines())))
    for row in rows:
        container.add_item(row)
    return container


def button_rows(buttons: Sequence[discord.ui.Button[Layout]]) -> list[Row]:
    """Buttons in rows of five, as a card holds them."""
    return [
        discord.ui.ActionRow[Layout](*buttons[start : start + BUTTONS_PER_ROW])
        for start in range(0, len(buttons), BUTTONS_PER_ROW)
    ]


def card_view(*cards: Card, ping: str | None = None) -> Layout:
    """The message: ``ping`` (the line that notifies players, if any) above the ``cards``,
    its text clipped to :data:`TEXT_LIMIT`. Sent stopped, so discord.py keeps nothing of it: a
    card's buttons are handled by their custom ids (``bot.clicks``), whatever process or restart
    receives the click."""
    view = Layout(timeout=None)
    if ping:
        view.add_item(discord.ui.TextDisplay(ping))
    for item in cards:
        view.add_item(item)
    keep_within_limits(view)
    view.stop()
    return view


def keep_within_limits(view: Layout) -> None:
    """Clip the text displays, first to last, so all of them together keep to :data:`TEXT_LIMIT`:
    the first (the ping, or the heading and verdict) whole, a later one cut with an ellipsis."""
    left = TEXT_LIMIT
    for item in view.walk_children():
        if not isinstance(item, discord.ui.TextDisplay):
            continue
        room = max(left, 1)
        if len(item.content) > room:
            item.content = fit(item.content, room) if room > 1 else "…"
        left -= len(item.content)


def component_count(view: Layout) -> int:
    """Components Discord counts in the message: every item, each child too."""
    return sum(1 for _ in view.walk_children())


def body_components(view: Layout) -> list[dict[str, Any]]:
    """The card's components as a message body carries them (the outbox stores bodies)."""
    found: list[dict[str, Any]] = view.to_components()  # type: ignore[no-untyped-call]
    return found


def _walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for component in components:
        yield component
        yield from _walk(component.get("components") or [])
        if isinstance(component.get("accessory"), dict):
            yield component["accessory"]


def card_texts(components: list[dict[str, Any]]) -> list[str]:
    """The text displays of a message as Discord returns it, in the order they show."""
    return [str(c.get("content") or "") for c in _walk(components) if c.get("type") == 10]


def custom_ids(components: list[dict[str, Any]]) -> set[str]:
    """The custom ids of a message's buttons and selects, wherever in the layout they sit."""
    return {str(c["custom_id"]) for c in _walk(components) if c.get("custom_id") is not None}
