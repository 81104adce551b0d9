"""Hostile names, labels and notes stay inert in every kind of message (docs/rulings.md §7.3).

Each hostile text is used as a character's name, a roll's label, its notes, a Burden and a
Conflict's stakes; the bot then answers a roll with a label, a stat roll, a Contest, "X joins",
the board, a sheet, the list, the history and refusals that repeat the name. In every place
Discord reads as Markdown (content, titles, descriptions, field names and values) the text must
show only in its escaped form: no masked link, mention, spoiler, heading, quote or code span.
"""

import re
from typing import Any

import pytest

from bot.text import inert
from fake_discord.layout import texts
from fake_discord.records import InteractionRecord
from testbed.bot_env import BotEnv, is_board

JSON = dict[str, Any]

HOSTILE: dict[str, str] = {
    "[verify](https://evil.example/x)": r"(?<!\\)\[verify",
    "@everyone": r"@everyone",
    "<@123>": r"(?<!\\)<@123",
    "**bold**": r"(?<!\\)\*\*bold",
    "`tick`": r"(?<!\\)`tick",
    "||spoiler||": r"(?<!\\)\|\|spoiler",
    "# heading": r"(?<!\\)# heading",
    "-# subtext": r"(?<!\\)-# subtext",
    "> quote": r"(?<!\\)> quote",
}
"""Each hostile text, and a pattern that finds it only where it would act."""


def markdown_parts(message: JSON) -> list[str]:
    """Where Discord reads Markdown: content, each embed's title, description and fields, and
    a card's text displays."""
    parts = [str(message.get("content") or ""), *texts(message.get("components") or [])]
    for embed in message.get("embeds") or []:
        parts += [str(embed.get("title") or ""), str(embed.get("description") or "")]
        for field in embed.get("fields") or []:
            parts += [str(field.get("name") or ""), str(field.get("value") or "")]
    return parts


def as_read(text: str) -> str:
    """What a reader sees: escapes resolved, zero-width spaces gone."""
    return re.sub(r"\\(.)", r"\1", text).replace("\u200b", "")


def quoted(text: str) -> str:
    return text.replace('"', '\\"')


async def said(env: BotEnv, line: str, user: str = "player1") -> InteractionRecord:
    return await env.slash(line, user=user)


@pytest.mark.parametrize("hostile", list(HOSTILE))
async def test_hostile_text_is_inert_everywhere(bot_env: BotEnv, hostile: str) -> None:
    env, name = bot_env, quoted(hostile)
    shown = inert(hostile)
    replies: dict[str, InteractionRecord] = {}

    async def run(kind: str, line: str, user: str = "player1") -> None:
        replies[kind] = await said(env, line, user)

    await run("created", f'/character create name:"{name}" physique:3')
    await run("notes", f'/edit text field:notes value:"{name}" name:"{name}"')
    await run("burden", f'/burden add burden:"{name}" severity:serious name:"{name}"')
    await run("roll label", f'/roll dice:3 label:"{name}"')
    await run("stat roll", f'/roll stat:Physique character:"{name}"')
    await run("contest", f'/contest actor:"{name}" actor_stat:Physique opponent_dice:2')
    await run("sheet", f'/character show name:"{name}"')
    await run("list", "/character list")
    await run("history", "/history rolls")
    await run("refusal", f'/character use name:"{name}"', user="player2")
    await run("taken", f'/character create name:"{name}"', user="player2")
    await run("stakes", f'/conflict start kind:physical stakes:"{name}"', user="narrator")
    await run("joins", f'/conflict add character:"{name}"', user="narrator")
    await env.bot.conflicts.boards.idle()

    checked = 0
    for message in env.harness.fake.messages.values():
        for part in markdown_parts(message):
            assert not re.search(HOSTILE[hostile], part), (hostile, part)
            checked += shown in part
    assert checked, "the hostile text never showed at all"
    for kind, reply in replies.items():
        texts = " ".join(p for m in reply.messages for p in markdown_parts(m))
        assert not re.search(HOSTILE[hostile], texts), (kind, texts)
        if kind != "stakes":  # the stakes show on the board, checked below
            assert hostile in as_read(texts), (kind, texts)  # it did show, as typed
    assert replies["refusal"].ephemeral and replies["taken"].ephemeral
    board = [m for m in env.harness.fake.messages.values() if is_board(m)]
    assert board, "the board was never posted"
    on_board = " ".join(markdown_parts(board[-1]))
    assert f"Stakes: {shown}" in on_board and f"**{shown}**" in on_board  # the stakes, the name
