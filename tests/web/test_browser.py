"""The web view in a real browser (Debian's chromium through Playwright), on the bot's own server.

Everything is set up through slash commands on the fake Discord; the links come from ``/web``.
"""

import time
from typing import cast

from playwright.async_api import Browser, Locator, Page, expect

from bot.app import MistbornBot
from bot.render.portrait_worker import reencode
from bot.web.state import MAX_STREAMS
from storage import Storage
from testbed.bot_env import THUG_ATTACKS, BotEnv
from tests.bot.cogs.characters.test_portraits import png
from tests.bot.cogs.sessions.test_sessions import SECRETS, night
from tests.web.support import HOSTILE, SCRIPT, link_token
from tests.web.test_web_command import link_of

LIVE_WITHIN_MS = 1000
ENDED = "This session has ended; ask for a new link with /web in Discord."


def fighter(page: Page, name: str) -> Locator:
    """The card of the participant called ``name`` (others may name them in their declaration)."""
    return page.locator(".participant").filter(has=page.get_by_text(name, exact=True))


async def opened(browser: Browser, env: BotEnv, user: str) -> Page:
    """A fresh browser (no cookies) on the page that ``user``'s ``/web`` link opens."""
    page = await (await browser.new_context()).new_page()
    response = await page.goto(link_of(await env.slash("/web", user=user)))
    assert response is not None and response.ok
    await expect(page.locator("#live")).to_have_text("live")
    assert page.url.endswith(f"/g/{env.guild_id}/")
    return page


async def test_the_board_shows_the_live_conflict_and_a_move_within_a_second(
    web_env: BotEnv, browser: Browser
) -> None:
    await web_env.play(SCRIPT)
    page = await opened(browser, web_env, "narrator")
    await expect(page.locator("#who")).to_have_text("Narrator")
    board = page.locator(".conflict")
    await expect(board.locator("h3")).to_have_text("Physical Conflict — round 1")
    thug = fighter(page, "Thug")
    await expect(thug.locator(".action-count")).to_have_text("5")  # the opposition's numbers
    assert await thug.locator(".action .die").count() == 5  # dice shown as dice
    await expect(thug.locator(".res")).to_have_count(3)
    await expect(page.locator(".sheet")).to_have_count(3)
    await page.fill("#search", "vi")
    await expect(page.locator(".sheet:visible")).to_have_count(1)

    await web_env.play([THUG_ATTACKS])
    moved = time.monotonic()
    await expect(board.locator(".order", has_text="In progress: Thug → Vin")).to_be_visible(
        timeout=LIVE_WITHIN_MS
    )
    assert time.monotonic() - moved < LIVE_WITHIN_MS / 1000


async def test_a_players_page_never_shows_the_oppositions_numbers(web_env: BotEnv, browser: Browser) -> None:
    await web_env.play([*SCRIPT, THUG_ATTACKS])
    page = await opened(browser, web_env, "player1")
    await expect(page.locator("#who")).to_have_text("Player")
    thug = fighter(page, "Thug")
    await expect(thug.locator(".state")).to_have_text("unhurt")
    assert await thug.locator(".pool, .res").count() == 0
    vin = fighter(page, "Vin")
    await expect(vin.locator(".res")).to_have_count(3)  # the table's own numbers stay
    text = await page.locator(".conflict").inner_text()
    assert "In progress: Thug → Vin, waiting" in text and "5 dice" not in text
    names = await page.locator(".sheet .s-name").all_inner_texts()
    assert sorted(names) == sorted(["Vin", HOSTILE])  # their own Heroes only


async def test_a_name_with_html_in_it_shows_as_text(web_env: BotEnv, browser: Browser) -> None:
    await web_env.play(SCRIPT)
    page = await opened(browser, web_env, "player1")
    name = page.locator(".sheet .s-name", has_text="Bold")
    await expect(name).to_have_text(HOSTILE)
    assert await page.locator(".sheet .s-name b").count() == 0


async def test_forged_expired_and_other_server_links_get_403(web_env: BotEnv, browser: Browser) -> None:
    await web_env.play(SCRIPT)
    base = link_of(await web_env.slash("/web")).split("/login")[0]
    page = await (await browser.new_context()).new_page()
    good = await link_token(web_env, "narrator", narrator=True)
    forged = good[:-2] + ("AA" if not good.endswith("AA") else "BB")
    expired = await link_token(web_env, "narrator", narrator=True, now=time.time() - 16 * 60)
    for token in (forged, expired):
        response = await page.goto(f"{base}/login?t={token}")
        assert response is not None and response.status == 403
    other = await link_token(web_env, "narrator", narrator=True, guild_id=web_env.guild_id + 1)
    response = await page.goto(f"{base}/login?t={other}")
    assert response is not None and response.ok  # a valid link, of another server
    await page.wait_for_url(f"**/g/{web_env.guild_id + 1}/")
    for path in ("/", "/data", "/events"):
        response = await page.goto(f"{base}/g/{web_env.guild_id}{path}")
        assert response is not None and response.status == 403


async def test_the_open_page_keeps_working_after_the_bot_restarts(
    fixed_port_env: BotEnv, browser: Browser
) -> None:
    await fixed_port_env.play(SCRIPT)
    page = await opened(browser, fixed_port_env, "narrator")
    await fixed_port_env.restart()  # a new process's bot and database; the same address and secret
    await fixed_port_env.play([THUG_ATTACKS])
    await expect(page.locator(".order", has_text="In progress: Thug → Vin")).to_be_visible()
    await expect(page.locator("#live")).to_have_text("live")


async def test_a_page_whose_session_ended_says_so_and_drops_the_numbers(
    web_env: BotEnv, browser: Browser
) -> None:
    await web_env.play(SCRIPT)
    page = await opened(browser, web_env, "narrator")
    await expect(fighter(page, "Thug").locator(".action-count")).to_have_count(1)
    await web_env.slash("/web logout:True")
    await expect(page.locator("#notice")).to_have_text(ENDED)
    await expect(page.locator("#live")).to_have_text("ended")
    await expect(page.locator(".conflict")).to_have_count(0)
    await expect(page.locator(".sheet")).to_have_count(0)


async def test_a_page_that_comes_back_to_an_ended_session_says_so(
    fixed_port_env: BotEnv, browser: Browser
) -> None:
    """A laptop asleep: the stream is gone, and its reconnect is refused (403)."""
    await fixed_port_env.play(SCRIPT)
    page = await opened(browser, fixed_port_env, "narrator")

    async def reopen() -> MistbornBot:
        await fixed_port_env.storage.close()
        fixed_port_env.storage = await Storage.open(fixed_port_env.db_path)
        await fixed_port_env.storage.web.renew(fixed_port_env.guild_id, fixed_port_env.user_id("narrator"))
        return fixed_port_env.new_bot()

    fixed_port_env.bot = cast(MistbornBot, await fixed_port_env.harness.restart(reopen))
    await expect(page.locator("#notice")).to_have_text(ENDED)
    await expect(page.locator(".conflict")).to_have_count(0)


async def test_a_page_refused_a_stream_says_so_and_goes_live_when_one_closes(
    web_env: BotEnv, browser: Browser
) -> None:
    await web_env.play(SCRIPT)
    first = await opened(browser, web_env, "narrator")
    view = first.url
    tabs = [first]
    for _ in range(MAX_STREAMS - 1):
        tab = await first.context.new_page()
        await tab.goto(view)
        await expect(tab.locator("#live")).to_have_text("live")
        tabs.append(tab)
    extra = await first.context.new_page()
    await extra.goto(view)
    await expect(extra.locator("#notice")).to_contain_text("Too many pages of this view are open")
    await expect(extra.locator("#live")).to_have_text("paused")
    await expect(extra.locator(".conflict")).to_have_count(1)  # the data still shows
    await tabs[0].close()
    await expect(extra.locator("#live")).to_have_text("live", timeout=10_000)
    await expect(extra.locator("#notice")).to_be_hidden()


async def test_the_sessions_page_tells_each_reader_the_night_as_they_saw_it(
    web_env: BotEnv, browser: Browser
) -> None:
    """From the live page's Sessions link to a night's journal: the Narrator reads every secret,
    a player none of them (docs/architecture.md, "Sessions: the table's memory")."""
    await night(web_env)
    for user, narrator in (("narrator", True), ("player1", False)):
        page = await opened(browser, web_env, user)
        await page.get_by_role("link", name="Sessions").click()
        await page.get_by_role("link", name="The alley").click()
        await expect(page.get_by_text("A physical Conflict began", exact=False).first).to_be_visible()
        text = await page.locator("body").inner_text()
        for secret, (_, words) in SECRETS.items():
            assert (words in text) is narrator, (user, secret)


async def test_a_portrait_loads_beside_its_sheet(web_env: BotEnv, browser: Browser) -> None:
    await web_env.play(SCRIPT)
    [vin] = [s for s in await web_env.storage.characters.list_by_guild(web_env.guild_id) if s.name == "Vin"]
    picture = reencode(png((64, 64), "RGB"))
    await web_env.storage.portraits.set(web_env.guild_id, vin.id, picture, "image/webp")
    page = await opened(browser, web_env, "player1")
    image = page.locator(".sheet .portrait").first
    await expect(image).to_be_visible()
    assert await image.evaluate("img => img.complete && img.naturalWidth > 0")  # served, decoded


async def test_a_fighters_card_says_what_they_flare(web_env: BotEnv, browser: Browser) -> None:
    """As the board does: "burning Steel · flaring Pewter" (docs/rulings.md §9.10)."""
    await web_env.play(SCRIPT)
    await web_env.play(
        [
            ("narrator", f"/edit power-add type:allomancy power:{metal} rating:4 name:Vin")
            for metal in ("Steel", "Pewter")
        ]
        + [("narrator", f"/power burn metal:{metal} name:Vin") for metal in ("Steel", "Pewter")]
        + [("narrator", "/power flare metal:Pewter name:Vin")]
    )
    page = await opened(browser, web_env, "player1")
    await expect(fighter(page, "Vin").locator(".meta").first).to_contain_text(
        "burning Steel · flaring Pewter"
    )
