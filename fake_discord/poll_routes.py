"""The fake Discord's polls: a message's ``poll`` as Discord stores it, members' votes, the close,
and the poll routes (``/channels/{id}/polls/{message_id}/expire`` and ``…/answers/{answer_id}``).

A poll is asked for in a message's body (``poll``: a question, 1-10 answers, ``duration`` in
hours, ``allow_multiselect``) and sent back with each answer's ``answer_id`` (1, 2, …), its
``expiry`` and its ``results`` (the counts, and ``is_finalized`` once Discord has counted them
for good). Discord refuses beyond the description's shapes: a question of more than 300
characters and an answer's text of more than 55. Tests vote as members (:func:`vote`) and close
a poll as its expiry would (:func:`end_poll`): Discord then sends the message again with its
final counts (MESSAGE_UPDATE) and posts a poll-result message (type 46) answering it, unless
the bot was away then (``announce=False``: nothing reaches it, as for a bot offline at the
close). The poll's author may end it early (``…/expire``). Bodies are also held against
Discord's OpenAPI description by the server (``fake_discord.openapi``).
"""

from __future__ import annotations

from typing import Any

from aiohttp import web

from fake_discord.backend import Backend
from fake_discord.message_payloads import message_json
from fake_discord.polls import now
from fake_discord.responses import error, reply
from fake_discord.world_json import user_json

JSON = dict[str, Any]
POLL_RESULT = 46


def _voters(fake: Backend, message: JSON) -> dict[int, set[int]]:
    return fake.poll_votes.setdefault(int(message["id"]), {})


def _count(fake: Backend, message: JSON, *, final: bool) -> None:
    voters = _voters(fake, message)
    message["poll"]["results"] = {
        "answer_counts": [
            {"id": a["answer_id"], "count": len(voters.get(a["answer_id"], ())), "me_voted": False}
            for a in message["poll"]["answers"]
            if voters.get(a["answer_id"])
        ],
        "is_finalized": final,
    }


async def vote(fake: Backend, message: JSON, user_id: int, answer_ids: list[int]) -> None:
    """A member votes (one answer unless the poll allows several); the bot hears each vote."""
    poll = message["poll"]
    assert not poll["results"]["is_finalized"], "the poll has closed"
    assert poll["allow_multiselect"] or len(answer_ids) == 1, "this poll takes one answer"
    for answer_id in answer_ids:
        _voters(fake, message).setdefault(answer_id, set()).add(user_id)
        event = {
            "user_id": str(user_id),
            "channel_id": message["channel_id"],
            "message_id": message["id"],
            "answer_id": answer_id,
        }
        if "guild_id" in message:
            event["guild_id"] = message["guild_id"]
        await fake.dispatch("MESSAGE_POLL_VOTE_ADD", event)
    _count(fake, message, final=False)


async def end_poll(fake: Backend, message: JSON, *, announce: bool = True) -> None:
    """The poll closes and its counts are final; with ``announce``, Discord tells the channel."""
    message["poll"]["expiry"] = now().isoformat()
    _count(fake, message, final=True)
    if not announce:
        return
    await fake.dispatch("MESSAGE_UPDATE", message)
    counts = {c["id"]: c["count"] for c in message["poll"]["results"]["answer_counts"]}
    total = sum(counts.values())
    fields = [("poll_question_text", message["poll"]["question"]["text"]), ("total_votes", str(total))]
    if counts and list(counts.values()).count(max(counts.values())) == 1:
        victor = max(counts, key=lambda answer_id: counts[answer_id])
        text = next(a["poll_media"]["text"] for a in message["poll"]["answers"] if a["answer_id"] == victor)
        fields += [
            ("victor_answer_id", str(victor)),
            ("victor_answer_text", text),
            ("victor_answer_votes", str(counts[victor])),
        ]
    embed = {"type": "poll_result", "fields": [{"name": n, "value": v, "inline": False} for n, v in fields]}
    guild_id = int(message["guild_id"]) if "guild_id" in message else None
    result = message_json(
        fake.world,
        message_id=fake.world.ids.next(),
        channel_id=int(message["channel_id"]),
        guild_id=guild_id,
        body={"embeds": [embed]},
        attachments=[],
    )
    result["type"] = POLL_RESULT
    result["message_reference"] = {
        "type": 0,
        "message_id": message["id"],
        "channel_id": message["channel_id"],
    }
    fake.messages[int(result["id"])] = result
    await fake.dispatch("MESSAGE_CREATE", result)


def _poll_message(fake: Backend, channel: str, message_id: str) -> JSON | web.Response:
    if not fake.has_channel(int(channel)):
        return error(404, 10003, "Unknown Channel")
    message = fake.messages.get(int(message_id))
    if message is None or message["channel_id"] != channel:
        return error(404, 10008, "Unknown Message")
    if "poll" not in message:
        return error(400, 50035, "Invalid Form Body")
    return message


async def expire(
    fake: Backend, request: web.Request, route: str, channel: str, message_id: str
) -> web.StreamResponse:
    """The poll's author ends it now (Discord: only the author; 520001 once it has ended)."""
    found = _poll_message(fake, channel, message_id)
    if isinstance(found, web.Response):
        return found
    if found["author"]["id"] != str(fake.world.bot.id):
        return error(403, 50013, "Missing Permissions")
    if found["poll"]["results"]["is_finalized"]:
        return error(400, 520001, "Poll expired")
    await end_poll(fake, found)
    return reply(found)


async def answer_voters(
    fake: Backend, request: web.Request, route: str, channel: str, message_id: str, answer_id: str
) -> web.StreamResponse:
    """Who voted for an answer: ``{"users": [...]}``, by id after ``after``, at most ``limit``."""
    found = _poll_message(fake, channel, message_id)
    if isinstance(found, web.Response):
        return found
    after = int(request.query.get("after") or 0)
    limit = min(int(request.query.get("limit") or 25), 100)
    ids = sorted(i for i in _voters(fake, found).get(int(answer_id), set()) if i > after)[:limit]
    guild = fake.world.guild_by_id(int(found.get("guild_id") or 0))
    users = [user_json(m.user) for i in ids if guild is not None and (m := guild.member(i)) is not None]
    return reply({"users": users})
