"""The web view's pictures for docs/web-view.md: a Conflict played through the bot, shown in chromium.

``python -m bench.web_shot --save docs`` plays a small Conflict on the fake Discord (the bot's
own dispatch, a database in a temporary folder), opens the Narrator's ``/web`` link in Debian's
chromium (``testbed.browser``) and writes ``web-view.png`` (a laptop's width) and
``web-view-phone.png`` (a phone's). Run it again when the page's look changes; the test run
never writes into the tree.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from pathlib import Path

from playwright.async_api import expect

from testbed.bot_env import Script, running_bot_env, table_world
from testbed.browser import chromium

SCENE: Script = [
    ("player1", '/character create name:Vin physique:3 wits:5 concept:"Street urchin, Mistborn"'),
    ("player2", '/character create name:Kelsier physique:4 wits:4 concept:"The Survivor"'),
    ("narrator", "/character create name:Inquisitor kind:Villain physique:5 wits:4"),
    ("narrator", "/character create name:Guards template:guards size:4"),
    ("narrator", '/conflict start kind:physical stakes:"Escape the Soothing station"'),
    ("player1", "/conflict join"),
    ("player2", "/conflict join"),
    ("narrator", "/conflict add character:Inquisitor"),
    ("narrator", "/conflict add character:Guards"),
    ("narrator", "/conflict begin"),
    ("narrator", "/declare who:Guards action:attack target:Vin stat:Physique"),
    ("player2", "/declare action:attack target:Inquisitor stat:Physique"),
    ("narrator", "/declare who:Inquisitor action:attack target:Kelsier stat:Physique"),
    ("player1", "/declare action:attack target:Guards stat:Physique"),
]
SIZES = {"web-view.png": (1280, 900), "web-view-phone.png": (390, 844)}


async def shoot(folder: Path) -> list[Path]:
    with tempfile.TemporaryDirectory() as scratch:
        async with running_bot_env(Path(scratch) / "bot.sqlite3", table_world(), web_port=0) as env:
            await env.play(SCENE)
            saved = []
            async with chromium() as browser:
                for name, (width, height) in SIZES.items():
                    reply = await env.slash("/web")
                    [row] = reply.components
                    url = row["components"][0]["url"]
                    context = await browser.new_context(viewport={"width": width, "height": height})
                    page = await context.new_page()
                    await page.goto(url)
                    await expect(page.locator("#live")).to_have_text("live")
                    await expect(page.locator(".participant")).to_have_count(4)
                    path = folder / name
                    await page.screenshot(path=str(path), full_page=name == "web-view.png")
                    saved.append(path)
                    await context.close()
            return saved


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--save", type=Path, required=True, help="the folder to write the pictures to")
    args = parser.parse_args()
    args.save.mkdir(parents=True, exist_ok=True)
    for path in asyncio.run(shoot(args.save)):
        print(path)


if __name__ == "__main__":
    main()
