"""The Narrator's view in a browser: a page of the server's live Conflicts and sheets.

``/web`` (``bot.cogs.web``) hands out a signed link (``tokens``); the page (``static/``) is
plain HTML, CSS and a small script that asks ``app`` for JSON (``snapshot``) and listens to
server-sent events telling it when to ask again. Who sees what is decided by ``bot.access``
only (docs/rulings.md §7): the page is built from the same ``visibility_of`` and
``Caller.can_read`` as the board in Discord. The view runs inside the bot's process or on its
own (``python -m bot web``), over the same database (``server``).
"""
