"""The cards' shared rules (``bot/render/cards.py``): accents that read in both Discord themes,
text kept within Discord's 4,000 characters, and the widest request (20 rollers, long names,
every button) within 40 components, each held against the fake Discord's own checks."""

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import discord
import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.cogs.requests.views import request_message
from bot.render.cards import (
    ACCENTS,
    COMPONENT_LIMIT,
    FAILURE,
    SUCCESS,
    TEXT_LIMIT,
    body_components,
    button_rows,
    card,
    card_view,
    component_count,
    custom_ids,
)
from bot.render.recap import recap_card
from fake_discord.layout import IS_COMPONENTS_V2, texts, walk
from fake_discord.validate import validate_message
from rules.contest import Side
from rules.request import MAX_ROLLERS, RequestKind, RequestSpec, Roller, RollRequest
from testbed.bot_env import BotEnv
from testbed.cards import as_discord_py_writes_it, card_text
from tests.bot.cogs.requests.test_requests import request_message as shown_request
from tests.bot.cogs.requests.test_requests import roll, table

LIGHT, DARK = 0xFFFFFF, 0x313338
"""Discord's light theme's background, and its dark theme's."""


def luminance(rgb: int) -> float:
    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(rgb >> 16 & 255) + 0.7152 * channel(rgb >> 8 & 255) + 0.0722 * channel(rgb & 255)


def contrast(a: int, b: int) -> float:
    high, low = sorted((luminance(a), luminance(b)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("name", list(ACCENTS))
def test_every_accent_reads_in_both_themes(name: str) -> None:
    """WCAG's 3:1 for a graphic against each theme's background."""
    colour = ACCENTS[name].value
    assert contrast(colour, LIGHT) >= 3 and contrast(colour, DARK) >= 3, name


def test_success_and_failure_differ_in_lightness_too() -> None:
    """Not only in hue: a reader who cannot tell red from green still sees two bars."""
    assert SUCCESS != FAILURE and abs(luminance(SUCCESS.value) - luminance(FAILURE.value)) > 0.01


def layout_body(view: discord.ui.LayoutView) -> dict[str, object]:
    return {"flags": IS_COMPONENTS_V2, "components": body_components(view), "allowed_mentions": {"parse": []}}


def test_text_past_the_limit_is_clipped_and_the_heading_kept() -> None:
    view = card_view(card("Vin: Physique", accent=SUCCESS, lead="Success", blocks=["x" * 3000, "y" * 3000]))
    shown = texts(body_components(view))
    assert shown[0] == "### Vin: Physique\nSuccess"
    assert sum(len(text) for text in shown) <= TEXT_LIMIT and shown[-1].endswith("…")
    assert validate_message(layout_body(view)) == []


async def test_every_card_is_sent_stopped_with_its_buttons_or_without() -> None:
    """discord.py keeps a view to route its clicks unless it is stopped; a click reaches its
    handler by custom id alone (``bot.clicks``), so a kept card would be clicked twice."""
    plain = card_view(card("Vin: Physique", accent=SUCCESS, lead="Success", blocks=["x"]))
    with_buttons = request_message(widest_request())
    assert plain.is_finished() and with_buttons.is_finished()
    assert custom_ids(body_components(with_buttons))


def discord_py_card(
    title: str,
    *,
    accent: discord.Colour,
    lead: str = "",
    blocks: Sequence[str] = (),
    byline: str | None = None,
    note: str | None = None,
    image: str | None = None,
    buttons: Sequence[discord.ui.Button[Any]] = (),
) -> discord.ui.Container[Any]:
    """The same card made of discord.py's own items, as the bot drew it before cards were JSON."""
    head = [f"-# {byline}"] if byline else []
    head += [f"### {title}", *([lead] if lead else [])]
    container: discord.ui.Container[Any] = discord.ui.Container(
        discord.ui.TextDisplay("\n".join(head)), accent_colour=accent
    )
    for block in blocks:
        if block:
            container.add_item(discord.ui.Separator())
            container.add_item(discord.ui.TextDisplay(block))
    if image is not None:
        container.add_item(discord.ui.MediaGallery(discord.MediaGalleryItem(f"attachment://{image}")))
    if note:
        container.add_item(discord.ui.TextDisplay("\n".join(f"-# {p}" for p in note.splitlines())))
    for start in range(0, len(buttons), 5):
        container.add_item(discord.ui.ActionRow(*buttons[start : start + 5]))
    return container


PRINTABLE = st.text(min_size=1, max_size=60)


@given(
    title=PRINTABLE,
    accent=st.sampled_from(list(ACCENTS.values())),
    lead=st.one_of(st.just(""), PRINTABLE),
    blocks=st.lists(st.one_of(st.just(""), PRINTABLE), max_size=4),
    byline=st.one_of(st.none(), PRINTABLE),
    note=st.one_of(st.none(), PRINTABLE),
    image=st.one_of(st.none(), st.just("chart.png")),
    ping=st.one_of(st.none(), PRINTABLE),
    buttons=st.integers(0, 7),
)
def test_a_card_is_the_body_discord_py_would_send_for_the_same_items(
    title: str,
    accent: discord.Colour,
    lead: str,
    blocks: list[str],
    byline: str | None,
    note: str | None,
    image: str | None,
    ping: str | None,
    buttons: int,
) -> None:
    """A card is drawn as JSON (``bot.render.cards``): it must be, to the key, what discord.py
    writes for the same items, the layout flag included."""
    drawn = [discord.ui.Button[Any](label=f"B{i}", custom_id=f"mab:b:{i}") for i in range(buttons)]
    given_ = dict(lead=lead, blocks=blocks, byline=byline, note=note, image=image)
    sent = card_view(card(title, accent=accent, rows=button_rows(drawn), **given_), ping=ping)  # type: ignore[arg-type]
    theirs = discord.ui.LayoutView()
    if ping:
        theirs.add_item(discord.ui.TextDisplay(ping))
    theirs.add_item(discord_py_card(title, accent=accent, buttons=drawn, **given_))  # type: ignore[arg-type]
    assert body_components(sent) == body_components(theirs)
    assert sent.has_components_v2() and theirs.has_components_v2()


def widest_request() -> RollRequest:
    name = "\\*" * 32  # a name of Markdown, escaped to twice its length
    rollers = tuple(
        Roller(side=Side.ACTING, character_id=i + 1, user_id=1000 + i, name=f"{name}{i}", position=i)
        for i in range(MAX_ROLLERS)
    )
    spec = RequestSpec(stat="Charm" * 8, traits="t" * 200, circumstances="c" * 200, secret=True)
    return RollRequest(
        id=1,
        guild_id=1,
        channel_id=1,
        narrator_id=1,
        kind=RequestKind.ROLL,
        spec=spec,
        closed=False,
        created_at=datetime.now(UTC),
        message_id=None,
        rollers=rollers,
    )


def test_the_widest_request_keeps_within_discords_limits() -> None:
    """20 rollers: 20 roll buttons, the Narrators' Results and Close, in rows of five."""
    view = request_message(widest_request())
    assert component_count(view) <= COMPONENT_LIMIT
    assert validate_message(layout_body(view)) == []
    labels = [c["label"] for c in walk(body_components(view)) if c.get("type") == 2]
    assert len(labels) == MAX_ROLLERS + 2 and labels[-2:] == ["Results (Narrators)", "Close"]


async def test_a_request_shown_before_cards_becomes_a_card_at_its_next_update(bot_env: BotEnv) -> None:
    """A request message posted as an embed (before cards) is edited into a card when a roll
    updates it: content and embeds reset in the same edit, as Discord requires one way only."""
    env = bot_env
    await table(env)
    await env.slash('/request roll stat:Charm heroes:"Vin, Elend"')
    message = shown_request(env)
    old_rows = [{"type": 1, "components": [c for c in walk(message["components"]) if c.get("type") == 2]}]
    message.update(  # as the bot posted it before cards
        content=f"<@{env.user_id('player1')}> the Narrator asks you to roll Charm.",
        embeds=[{"title": "The Narrator asks for a roll", "description": "Roll Charm."}],
        components=old_rows,
        flags=0,
    )
    await roll(env, "player1", "Vin")
    now = env.harness.fake.messages[int(message["id"])]
    assert now["flags"] & IS_COMPONENTS_V2 and now["content"] == "" and now["embeds"] == []
    assert "**Vin**: Outcome" in card_text(now)
    assert env.harness.violations == []


@given(
    st.lists(st.text(min_size=1, max_size=60), min_size=1, max_size=6),
    st.booleans(),
)
def test_a_recap_card_is_discord_pys_body(blocks: list[str], with_button: bool) -> None:
    button = discord.ui.Button[Any](label="Schedule", custom_id="mab:x:1") if with_button else None
    components: list[dict[str, Any]] = recap_card(blocks, button).to_components()
    assert as_discord_py_writes_it(components) == components
    assert texts(components) == blocks
