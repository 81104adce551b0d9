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
from bot.render.components import JSON, SentOnly

ACCENTS = {"success": SUCCESS, "failure": FAILURE, "neutral": NEUTRAL, "info": INFO}

TEXT_LIMIT = 4000
"""Characters of text across all of a message's text displays."""
COMPONENT_LIMIT = 40
"""Components in a message, counted with every child."""
BUTTONS_PER_ROW = 5
ACTION_ROW, SECTION, TEXT, THUMBNAIL, GALLERY, SEPARATOR, CONTAINER = 1, 9, 10, 11, 12, 14, 17

Layout = discord.ui.LayoutView
Card = JSON
"""A card: a container component, as the message body carries it."""
Row = JSON
"""An action row of buttons, as a card holds it."""


def line(name: str, value: str) -> str:
    """``**Outcome:** +1 — Mild``: one fact on one line (a value's further lines follow below)."""
    return f"**{name}:** {value}"


def text(content: str) -> JSON:
    return {"type": TEXT, "content": content}


def separator(*, visible: bool = True) -> JSON:
    """A gap between parts of a card: a divider line, or (``visible=False``) space alone."""
    return {"type": SEPARATOR, "divider": visible, "spacing": 1}


def with_thumbnail(content: str, url: str, description: str | None = None) -> JSON:
    """Text with a small picture beside it (a portrait), as a section with a thumbnail."""
    thumbnail = {"type": THUMBNAIL, "spoiler": False, "media": {"url": url}, "description": description}
    return {"type": SECTION, "components": [text(content)], "accessory": thumbnail}


def container(accent: discord.Colour, parts: list[JSON]) -> JSON:
    """A card's box: its ``parts`` inside, its accent bar ``accent``."""
    return {"type": CONTAINER, "accent_color": accent.value, "spoiler": False, "components": parts}


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
    print), and ``rows`` of buttons at the bottom.

    Drawn as the JSON the message body carries, as discord.py would write the same items
    (tests/bot/render/test_cards.py holds them equal): building discord.py's items only to have
    each serialised back was most of a roll's card (``bench.dispatch_bench``)."""
    head = [f"-# {byline}"] if byline else []
    head.append(f"### {title}")
    if lead:
        head.append(lead)
    parts = [text("\n".join(head))]
    for block in blocks:
        if block:
            parts += [separator(), text(block)]
    if image is not None:
        parts.append(
            {"type": GALLERY, "items": [{"media": {"url": f"attachment://{image}"}, "spoiler": False}]}
        )
    if note:
        parts.append(text("\n".join(f"-# {part}" for part in note.splitlines())))
    parts.extend(rows)
    return container(accent, parts)


def button_rows(buttons: Sequence[discord.ui.Item[Any]]) -> list[Row]:
    """Buttons in rows of five, as a card holds them."""
    drawn = [button.to_component_dict() for button in buttons]
    return [
        {"type": ACTION_ROW, "components": drawn[start : start + BUTTONS_PER_ROW]}
        for start in range(0, len(drawn), BUTTONS_PER_ROW)
    ]


class SentLayout(SentOnly, discord.ui.LayoutView):
    """A layout message drawn as JSON (``SentOnly``); discord.py otherwise reads the layout flag
    off the items, and this view has none."""

    def has_components_v2(self) -> bool:
        return True


def card_view(*cards: Card, ping: str | None = None) -> SentLayout:
    """The message: ``ping`` (the line that notifies players, if any) above the ``cards``,
    its text clipped to :data:`TEXT_LIMIT`."""
    components = [text(ping), *cards] if ping else list(cards)
    keep_within_limits(components)
    return SentLayout(components)


def keep_within_limits(components: list[JSON]) -> None:
    """Clip the text displays, first to last, so all of them together keep to :data:`TEXT_LIMIT`:
    the first (the ping, or the heading and verdict) whole, a later one cut with an ellipsis."""
    left = TEXT_LIMIT
    for component in _walk(components):
        if component["type"] != TEXT:
            continue
        content: str = component["content"]
        room = max(left, 1)
        if len(content) > room:
            content = component["content"] = fit(content, room) if room > 1 else "…"
        left -= len(content)


def component_count(view: Layout) -> int:
    """Components Discord counts in the message: every item, each child too."""
    return sum(1 for _ in _walk(body_components(view)))


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
