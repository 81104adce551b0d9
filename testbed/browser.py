"""Debian's chromium driven by Playwright: the web view's browser tests and its screenshot.

``npx playwright install`` cannot download a browser on our machines, so Playwright (from pip)
drives the system's ``/usr/bin/chromium`` (``apt-get install chromium``) with flags that work
in a container run as root (below, ``FLAGS``).
"""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from playwright.async_api import Browser, async_playwright

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
MISSING = "Debian's chromium is not installed (apt-get install -y chromium); .ci/run installs it"


@asynccontextmanager
async def chromium() -> AsyncIterator[Browser]:
    async with async_playwright() as driver:
        browser = await driver.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        try:
            yield browser
        finally:
            await browser.close()
