"""The dice faces as the app's own emojis: uploaded once, found by name ever after.

Discord keeps an application's emojis for the application (``/applications/{id}/emojis``):
every server and DM can show them, and none of a server's emoji slots is used. At start the bot
lists them and creates only the faces missing, by name (``bot.render.dice.Face.emoji_name``,
drawn by ``bot.render.dice_images``), so a restart uploads nothing. Processes of a cluster start
together and may all find a face missing: each asks, Discord keeps the first and refuses the
others the name (400, ``APPLICATION_EMOJI_NAME_ALREADY_TAKEN``), and a refused process lists
again and takes the one made. So there is never a second emoji of a face, whichever process
made it.

Whatever fails (Discord refuses, or is slow), the bot starts and writes dice as text
(``PLAIN_LOOKS``); a face missing is written as text where the others are emojis.
"""

import asyncio
import logging

import discord

from bot.render.dice import FACES, PLAIN_FACES, DiceFaces, Face
from bot.render.dice_images import face_png

log = logging.getLogger(__name__)
TIMEOUT = 30.0
"""Seconds the start waits for the faces before it goes on with text."""


def _known(emojis: list[discord.Emoji]) -> dict[str, discord.Emoji]:
    return {emoji.name: emoji for emoji in emojis}


def _written(emoji: discord.Emoji) -> str:
    return f"<:{emoji.name}:{emoji.id}>"


async def _create(client: discord.Client, face: Face, known: dict[str, discord.Emoji]) -> None:
    """Upload ``face``; refused, it may be that another process made the name meanwhile (it is
    then taken from a new list), else the face stays text."""
    try:
        # Drawn off the loop, as every picture the bot makes or reads is.
        image = await asyncio.to_thread(face_png, face)
        made = await client.create_application_emoji(name=face.emoji_name, image=image)
    except discord.HTTPException as error:
        if error.status == 400:
            known.update(_known(await client.fetch_application_emojis()))
        if face.emoji_name in known:
            log.info("Another process uploaded %s first; using it", face.emoji_name)
        else:
            log.warning(
                "Discord refused the dice face %s (%s); it is written as text", face.emoji_name, error
            )
        return
    known[made.name] = made
    log.info("Uploaded the dice face %s as the app's emoji", face.emoji_name)


async def upload_faces(client: discord.Client) -> DiceFaces:
    """The faces as the app's emojis, each created only if missing (one list when none is)."""
    known = _known(await client.fetch_application_emojis())
    for face in FACES:
        if face.emoji_name not in known:
            await _create(client, face, known)
    return DiceFaces({face: _written(known[face.emoji_name]) for face in FACES if face.emoji_name in known})


async def dice_faces(client: discord.Client, timeout: float = TIMEOUT) -> DiceFaces:
    """:func:`upload_faces`, or the text faces when Discord will not have it in ``timeout``."""
    try:
        return await asyncio.wait_for(upload_faces(client), timeout)
    except (discord.DiscordException, TimeoutError) as error:
        log.warning("The dice faces are written as text: the app's emojis could not be had (%s)", error)
        return PLAIN_FACES
