"""Point discord.py at the fake Discord, and put it back afterwards.

discord.py builds every REST URL (interaction callbacks and webhooks included) from
`Route.BASE`, and a non-sharded client connects straight to `DiscordWebSocket.DEFAULT_GATEWAY`
without asking `/gateway/bot`; those two class attributes are the whole redirection. They are
process-wide, so only one fake can be targeted at a time.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route


@contextmanager
def pointed_at(api_base: str, gateway_url: str) -> Iterator[None]:
    """Redirect discord.py's REST and gateway to the given URLs for the duration of the block."""
    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        Route.BASE = old_base
        DiscordWebSocket.DEFAULT_GATEWAY = old_gateway
