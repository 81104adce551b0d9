"""Portraits served by the web view, at ``/portraits/{server}/{character}-{token}.webp``.

No session is asked: the token is 128 random bits stored with the portrait
(``storage.portraits``), so only someone shown the address can fetch it, the way Discord's own
attachment links work. That is what lets Discord itself fetch a portrait (a webhook's avatar
for ``/say``, a card's thumbnail), which has no cookie. A new portrait has a new token, so one
address always names one image: it is cached for a year, and a removed or replaced portrait's
address answers 404.
"""

from aiohttp import web

from bot.render.portraits import EXTENSION
from storage import Storage

STORAGE = web.AppKey("portrait_storage", Storage)
CACHE = "public, max-age=31536000, immutable"
ROUTE = r"/portraits/{guild_id:\d{1,20}}/{character_id:\d{1,20}}-{token:[A-Za-z0-9_-]{16,64}}." + EXTENSION


async def portrait(request: web.Request) -> web.Response:
    storage = request.app[STORAGE]
    found = await storage.portraits.by_token(
        int(request.match_info["guild_id"]),
        int(request.match_info["character_id"]),
        request.match_info["token"],
    )
    if found is None:
        raise web.HTTPNotFound(text="No such portrait: it was replaced or removed.")
    return web.Response(body=found.image, content_type=found.media_type, headers={"Cache-Control": CACHE})


def add_portraits(app: web.Application, storage: Storage) -> None:
    app[STORAGE] = storage
    app.router.add_get(ROUTE, portrait)
