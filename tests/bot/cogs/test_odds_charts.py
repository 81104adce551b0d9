"""``/odds`` answers with its chart through the real discord.py path: the PNG travels in the
interaction callback's multipart body, the fake stores it as the message's attachment, and the
card shows it inside (a media gallery naming the file). The exact figures stay in the card's text."""

import re
from io import BytesIO
from typing import Any

import pytest
from PIL import Image, ImageDraw

from bot.render.charts import WIDTH, contest_chart, forget_drawings, roll_chart, table_chart
from fake_discord.records import InteractionRecord
from rules.odds import contest_odds, odds, odds_table
from testbed.bot_env import BotEnv
from testbed.cards import card_field, card_images, card_text


def chart_of(bot_env: BotEnv, reply: InteractionRecord) -> bytes:
    """The one PNG the reply uploaded, after checking the card shows it inside."""
    assert reply.message is not None and not reply.errors
    attachments = reply.message["attachments"]
    assert [a["filename"] for a in attachments] == ["odds.png"]
    assert card_images(reply.message) == ["attachment://odds.png"]
    assert reply.embeds == [] and reply.message["flags"] & (1 << 15)
    data = bot_env.harness.fake.file_bytes(attachments[0])
    assert attachments[0]["size"] == len(data)
    return data


def size_of(data: bytes) -> tuple[int, int]:
    image = Image.open(BytesIO(data))
    assert image.format == "PNG"
    image.load()
    return image.size


async def test_odds_roll_attaches_its_chart_and_keeps_the_figures(bot_env: BotEnv) -> None:
    reply = await bot_env.slash("/odds roll dice:5 difficulty:3", user="player1")
    data = chart_of(bot_env, reply)
    assert size_of(data) == (WIDTH, 500)
    assert data == roll_chart(odds(5, 3)).png(), "the chart of these odds, as the renderer draws it"
    assert reply.message is not None and "53.5%" in card_text(reply.message)
    outcomes = card_field(reply.message, "Outcomes")
    assert "`-3` 46.5%" in outcomes and "`+2` 19.6%" in outcomes


async def test_odds_table_attaches_a_heat_map_and_keeps_the_table(bot_env: BotEnv) -> None:
    reply = await bot_env.slash("/odds table", user="player1")
    data = chart_of(bot_env, reply)
    width, height = size_of(data)
    assert width == WIDTH and height >= 600
    assert data == table_chart(odds_table()).png()
    assert reply.message is not None
    assert "51.5%" in card_text(reply.message) and "13.9%" in card_text(reply.message)


async def test_odds_contest_attaches_both_sides_chances(bot_env: BotEnv) -> None:
    reply = await bot_env.slash("/odds contest acting:6 opposing:4 difficulty:2", user="player1")
    data = chart_of(bot_env, reply)
    assert size_of(data) == (WIDTH, 430)
    chances = contest_odds(6, 4, difficulty=2)
    assert data == contest_chart(chances, acting=6, opposing=4, difficulty=2).png()
    assert reply.message is not None
    fields = {name: card_field(reply.message, name) for name in ("Win", "Lose", "Stalemate")}
    assert fields == {"Win": "62.2%", "Lose": "33.9%", "Stalemate": "4.0%"}


@pytest.mark.parametrize("line", ["/odds roll dice:0", "/odds roll dice:20 difficulty:5 extra:true"])
async def test_odds_roll_charts_the_ends_of_the_pool_range(bot_env: BotEnv, line: str) -> None:
    """An undersized pool (Outcome penalty) and an oversized one (free Nudges) chart too."""
    reply = await bot_env.slash(line, user="player2")
    assert size_of(chart_of(bot_env, reply)) == (WIDTH, 500)


async def test_each_bar_reads_the_figure_the_card_writes(
    bot_env: BotEnv, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One rounding of a chance: the bar over Outcome -3 says 46.5%, as the text does, not 47%."""
    drawn: list[str] = []
    real = ImageDraw.ImageDraw.text

    def text(self: ImageDraw.ImageDraw, xy: Any, words: Any, *args: Any, **kwargs: Any) -> None:
        drawn.append(str(words))
        real(self, xy, words, *args, **kwargs)

    monkeypatch.setattr(ImageDraw.ImageDraw, "text", text)
    forget_drawings()
    reply = await bot_env.slash("/odds roll dice:5 difficulty:3", user="player1")
    chart_of(bot_env, reply)
    assert reply.message is not None
    outcomes = card_field(reply.message, "Outcomes")
    bars = [words for words in drawn if re.fullmatch(r"[<>]?[\d.]+%", words)]
    assert bars == re.findall(r"[<>]?[\d.]+%", outcomes) == ["46.5%", "16.0%", "17.8%", "19.6%"]
