"""Polls in the loopback Discord, through discord.py's own calls: a message's poll stored with
its answers numbered, votes counted, the close final and told (MESSAGE_UPDATE and a poll-result
message); the author's early close, the voters of an answer; what Discord refuses (a question
or an answer too long) is a violation; and every answer holds to Discord's OpenAPI description."""

from datetime import timedelta

import discord
import pytest
from discord.http import Route

from fake_discord.harness import Harness
from fake_discord.poll_routes import POLL_RESULT, end_poll, vote
from tests.fake_discord.openapi_check import problems, response_schema


def asked(question: str = "When?", *answers: str) -> discord.Poll:
    poll = discord.Poll(question=question, duration=timedelta(hours=2), multiple=True)
    for text in answers or ("Friday", "Saturday"):
        poll.add_answer(text=text)
    return poll


async def channel(h: Harness) -> discord.TextChannel:
    found = h.bot.get_channel(h.channel.id)
    assert isinstance(found, discord.TextChannel)
    return found


async def test_a_poll_is_voted_on_closed_and_told(h: Harness) -> None:
    sent = await (await channel(h)).send("Vote!", poll=asked())
    stored = h.fake.messages[sent.id]
    assert [a["answer_id"] for a in stored["poll"]["answers"]] == [1, 2]
    players = [m.user.id for m in h.world.guild.members if not m.user.bot][:2]
    await vote(h.fake, stored, players[0], [1, 2])
    await vote(h.fake, stored, players[1], [2])
    await end_poll(h.fake, stored)
    fetched = await sent.channel.fetch_message(sent.id)
    assert fetched.poll is not None and fetched.poll.is_finalised()
    assert [a.vote_count for a in fetched.poll.answers] == [1, 2]
    [result] = [m for m in h.fake.messages.values() if m["type"] == POLL_RESULT]
    assert result["message_reference"]["message_id"] == str(sent.id)
    fields = {f["name"]: f["value"] for f in result["embeds"][0]["fields"]}
    assert fields["victor_answer_id"] == "2" and fields["total_votes"] == "3"
    app = Route("GET", "/channels/{c}/messages/{m}", c=sent.channel.id, m=sent.id)
    message = await h.bot.http.request(app)
    assert problems(message, response_schema("/channels/{channel_id}/messages/{message_id}")) == []
    voters = await h.bot.http.request(
        Route("GET", "/channels/{c}/polls/{m}/answers/{a}", c=sent.channel.id, m=sent.id, a=2)
    )
    assert sorted(int(u["id"]) for u in voters["users"]) == sorted(players)
    path = "/channels/{channel_id}/polls/{message_id}/answers/{answer_id}"
    assert problems(voters, response_schema(path)) == []
    assert h.violations == []


async def test_the_author_closes_a_poll_early_once(h: Harness) -> None:
    sent = await (await channel(h)).send(poll=asked())
    ended = await sent.end_poll()
    assert ended.poll is not None and ended.poll.is_finalised()
    with pytest.raises(discord.HTTPException) as again:
        await sent.end_poll()
    assert (again.value.status, again.value.code) == (400, 520001)
    path = "/channels/{channel_id}/polls/{message_id}/expire"
    made = await (await channel(h)).send(poll=asked())
    answer = await h.bot.http.request(
        Route("POST", "/channels/{c}/polls/{m}/expire", c=made.channel.id, m=made.id)
    )
    assert problems(answer, response_schema(path, "post")) == []


@pytest.mark.parametrize(
    ("question", "answers", "said"),
    [
        ("Q" * 301, ("Friday", "Saturday"), "question text must be 1-300"),
        ("When?", ("F" * 56, "Saturday"), "answer 0 text must be 1-55"),
    ],
)
async def test_what_discord_refuses_in_a_poll_is_a_violation(
    h: Harness, question: str, answers: tuple[str, ...], said: str
) -> None:
    with pytest.raises(discord.HTTPException):
        await (await channel(h)).send(poll=asked(question, *answers))
    assert any(said in v.problem for v in h.violations), h.violations
    h.fake.violations.clear()
