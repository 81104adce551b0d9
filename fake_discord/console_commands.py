"""The console's own commands beyond a slash command: ``!where``, ``!as``, ``!save``, ``!vote``,
``!complete``'s suggestions, and the words ``!select`` and ``!submit`` are typed in.

Apart from the console's loop (``fake_discord.console``), which reads a line, runs it through
the harness and shows what the bot answered; each command here says what it did through ``say``.
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fake_discord import modal_parts
from fake_discord.commandline import TYPE_NAMES, CommandLineError, focused_option, parse_slash, split_pairs
from fake_discord.component_search import visible_to
from fake_discord.harness import Harness
from fake_discord.payloads import text_inputs
from fake_discord.places import PLACES, SERVER
from fake_discord.poll_routes import vote
from fake_discord.records import InteractionRecord
from fake_discord.thread_routes import newest_thread
from fake_discord.typed import matches

JSON = dict[str, Any]
HELP = """\
Console syntax (everything else is sent exactly as Discord would send it):
  /command [group] [sub] name:value ...   run a slash command; a value runs until the next name:,
                                          quote it ("...") if it contains a word followed by ':'
                                          members: @player1 or an id; channels: #table; roles: @Narrator;
                                          attachments: a local file path
  !complete /command ... name:partial     the suggestions for the last option typed (found anywhere in
                                          a choice, accents and case ignored)
  !click <label, custom_id or number>     press a button on the newest message that has it (a number N:
                                          the newest message's Nth button)
  !select <placeholder or custom_id> <value> [value ...]   choose in a select menu (quote multi-word values)
  !submit field:value ...                 answer the modal the bot just opened (field = custom_id or label;
                                          in a paragraph field \\n starts a new line; a file upload's
                                          value: a local file path)
  !menu <context menu name> [@member]     user menu on @member; a message menu targets the newest message
  !save [N or file name] <path>           save an attachment of the newest message that has one
                                          (the Nth, or the one of that name; the first if not said);
                                          a relative path is taken in the console's folder for files
  !vote <N or answer> [...]               vote in the newest open poll here (the Nth answer, or by its
                                          text), as the member typing
  !as <member>                            act as another member (!as alone lists them); a new name
                                          seats a new player (!as player3)
  !where <server|elsewhere|dm|group>      type from then on in the bot's server, a server without the
                                          bot, a DM with the bot or a group DM (the last three as with
                                          the app installed for yourself: only /roll, /read, /odds)
  !where thread                           type in the server's newest thread (a Conflict's own)
  !commands                               list the synced commands and their options
  !help                                   this text
  !quit                                   leave (Ctrl-D, the end of input, does the same)
  # text                                  a comment (ignored), also at the end of a line; a leading
                                          "> " (a transcript's prompt) is ignored too"""

MEMBER_NAME = re.compile(r"[\w.]{2,32}")
"""A name `!as` may give a new member: Discord's usernames are 2 to 32 such characters."""


def save(harness: Harness, rest: str, saves: Path, say: Callable[[str], None]) -> None:
    """``!save``: write an attachment the bot sent (an export, a chart) to a local file: a relative path
    is taken inside ``saves`` (and may not climb out of it), an absolute one as given."""
    words = split_words(rest, usage="usage: !save [N or file name] <path>")
    which, path = (words[0], words[1]) if len(words) > 1 else ("1", words[0])
    found = saved_attachment(harness, which)
    typed = Path(path).expanduser()
    target = typed if typed.is_absolute() else saves / typed
    if not typed.is_absolute() and not target.resolve().is_relative_to(saves.resolve()):
        raise CommandLineError(
            f"{path!r} leads out of {saves}/: name a file in it, or give a full path "
            "(e.g. ~/Spook.json) to save elsewhere"
        )
    if target.is_dir() or path.endswith("/"):
        target = target / str(found["filename"])
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(harness.fake.file_bytes(found))
    say(f"(saved {found['filename']} to {target}, {target.stat().st_size} bytes)")


def act_as(harness: Harness, name: str, say: Callable[[str], None]) -> None:
    """``!as``: act as another member, seating a new player by a new name; alone, list them."""
    guild = harness.world.guild
    if not name:
        for member in (m for m in guild.members if not m.user.bot):
            roles = [r.name for r in guild.roles if r.id in member.role_ids]
            mark = "*" if member is harness.user else " "
            say(f"{mark} {member.user.name}" + (f" ({', '.join(roles)})" if roles else ""))
        return
    name = name.removeprefix("@")
    if guild.member(name) is None:
        if not MEMBER_NAME.fullmatch(name):
            raise CommandLineError(
                f"{name!r} cannot be a member's name: use 2 to 32 letters, digits, _ or . "
                "(e.g. !as player3); !as alone lists who is here"
            )
        harness.world.add_member(name)
        say(f"({name} joins {guild.name} as a player)")
    say(f"(now acting as {harness.as_user(name).user.name})")


def where(harness: Harness, place: str, say: Callable[[str], None]) -> None:
    """``!where``: move the typing member to another place (``world.PLACES``, or ``thread``: the server's
    newest thread, where a Conflict may run); alone, list them."""
    if not place:
        for key, text in PLACES.items():
            say(f"{'*' if key == harness.place else ' '} {key}: {text}")
        say(f"{'*' if harness.channel.parent_id else ' '} thread: the server's newest thread")
        return
    guild = harness.world.guild
    if place.lower() == "thread":
        thread = newest_thread(guild)
        if thread is None:
            raise CommandLineError("no thread in the server yet (a Conflict makes one when set to)")
        harness.go(SERVER)
        harness.channel = thread
        parent = guild.channel(thread.parent_id or 0)
        say(f"(now in the thread #{thread.name}, in #{parent.name if parent else '?'})")
        return
    harness.go(place.lower())
    if harness.channel.parent_id is not None:
        harness.channel = guild.channel(harness.channel.parent_id) or guild.channels[0]
    names = ", ".join(sorted("/" + c["name"] for c in harness.commands if c.get("type", 1) == 1))
    say(f"(now in {PLACES[harness.place]}; commands here: {names or 'none'})")


async def suggestions(harness: Harness, line: str) -> tuple[list[JSON], InteractionRecord | None]:
    """What Discord would offer for the last option of `line`: its fixed choices, filtered as
    Discord's client filters them (anywhere in the name, ignoring case and accents), or the bot's
    own answer to a real autocomplete interaction (then the record is returned too)."""
    actor = harness.actor()
    parsed = parse_slash(line, harness.commands, actor.guild, actor.member, focus=True)
    option, typed = focused_option(parsed)
    if option.get("choices"):
        return [c for c in option["choices"] if matches(typed, str(c["name"]))], None
    if not option.get("autocomplete"):
        kind = TYPE_NAMES.get(option["type"], "value")
        raise CommandLineError(f"{option['name']} has no suggestions: type a value ({kind})")
    record = await harness.autocomplete(line)
    return record.choices, record


def saved_attachment(harness: Harness, which: str) -> JSON:
    """The attachment `which` (a 1-based number or a file name) of the newest message with one."""
    for message in reversed(harness.fake.messages.values()):
        attachments = message.get("attachments") or []
        if not attachments or not visible_to(message, harness.user):
            continue
        if which.isdigit():
            index = int(which) - 1
            if 0 <= index < len(attachments):
                found: JSON = attachments[index]
                return found
            raise CommandLineError(f"the newest message with files has {len(attachments)}, not {which}")
        named = [a for a in attachments if str(a.get("filename")).lower() == which.lower()]
        if named:
            first: JSON = named[0]
            return first
    raise CommandLineError(
        "no message you can see has a file to save" + ("" if which.isdigit() else f" named {which!r}")
    )


def split_words(
    text: str, usage: str = "usage: !select <placeholder or custom_id> <value> [value ...]"
) -> list[str]:
    try:
        parts = shlex.split(text)
    except ValueError as exc:
        raise CommandLineError(f"cannot split {text!r}: {exc}") from None
    if not parts:
        raise CommandLineError(usage)
    return parts


def typed_answers(modal: JSON, typed: str) -> dict[str, str]:
    """`field:value` pairs for a modal; in a paragraph field a typed `\\n` starts a new line. A
    picked part takes an option's label or value, checkboxes `a,b`, a checkbox `yes`/`no`."""
    fields = {
        key: field
        for field in [*text_inputs(modal), *modal_parts.fields(modal)]
        for key in (field["custom_id"].lower(), field["label"].lower())
    }
    answers = {}
    for key, value in split_pairs(typed, set(fields)):
        answers[key] = value.replace("\\n", "\n") if fields[key].get("paragraph") else value
    return answers


async def vote_in_poll(harness: Harness, rest: str, say: Callable[[str], None]) -> None:
    """``!vote``: the member typing votes in the newest open poll of the channel, by the
    answers' numbers or texts (a poll's votes are not interactions: Discord tells the bot)."""
    fake, channel = harness.fake, str(harness.channel.id)
    polls = [m for m in fake.messages.values() if m.get("poll") and str(m["channel_id"]) == channel]
    open_polls = [m for m in polls if not m["poll"]["results"]["is_finalized"]]
    if not open_polls:
        raise CommandLineError("no open poll in this channel")
    message = open_polls[-1]
    answers = message["poll"]["answers"]
    chosen: list[int] = []
    for word in split_words(rest, usage="usage: !vote <N or answer> [...]"):
        found = [
            a for i, a in enumerate(answers, 1) if word == str(i) or matches(word, a["poll_media"]["text"])
        ]
        if not found:
            listed = "; ".join(f"{i}. {a['poll_media']['text']}" for i, a in enumerate(answers, 1))
            raise CommandLineError(f"no answer {word!r} in the poll: {listed}")
        chosen.append(int(found[0]["answer_id"]))
    if len(chosen) > 1 and not message["poll"]["allow_multiselect"]:
        raise CommandLineError("this poll takes one answer")
    await vote(fake, message, harness.user.user.id, chosen)
    say(f"({harness.user.user.name} voted)")
