"""A message's ``poll`` as Discord checks and stores it (``fake_discord.poll_routes`` votes on it
and closes it): a question of at most 300 characters, answers of at most 55 (limits the API
description leaves out), numbered from 1 when stored, with their expiry and results."""

from __future__ import annotations

import datetime
from typing import Any

JSON = dict[str, Any]
QUESTION_MAX = 300
ANSWER_MAX = 55


def poll_problems(poll: object) -> list[str]:
    """What Discord refuses in a message's ``poll`` beyond the description's shapes."""
    if not isinstance(poll, dict):
        return []
    problems: list[str] = []
    question = str((poll.get("question") or {}).get("text") or "")
    if not 1 <= len(question) <= QUESTION_MAX:
        problems.append(f"poll question text must be 1-{QUESTION_MAX} characters")
    for number, answer in enumerate(poll.get("answers") or []):
        text = str((answer.get("poll_media") or {}).get("text") or "")
        if not 1 <= len(text) <= ANSWER_MAX:
            problems.append(f"poll answer {number} text must be 1-{ANSWER_MAX} characters")
    return problems


def now() -> datetime.datetime:
    return datetime.datetime.now(datetime.UTC)


def poll_json(asked: JSON) -> JSON:
    """The poll as Discord keeps it, from the body's ``poll``: answers numbered from 1."""
    hours = int(asked.get("duration") or 24)
    answers = [
        {"answer_id": number, "poll_media": {"text": str(a["poll_media"]["text"])}}
        for number, a in enumerate(asked.get("answers") or [], start=1)
    ]
    return {
        "question": {"text": str(asked["question"]["text"])},
        "answers": answers,
        "expiry": (now() + datetime.timedelta(hours=hours)).isoformat(),
        "allow_multiselect": bool(asked.get("allow_multiselect")),
        "layout_type": int(asked.get("layout_type") or 1),
        "results": {"answer_counts": [], "is_finalized": False},
    }
