"""A sheet on the page in a real browser: every part the card shows, in the card's words."""

from playwright.async_api import Browser, expect

from testbed.bot_env import BotEnv
from tests.web.test_browser import fighter, opened
from tests.web.test_web_words import MEMBERS, SPY, VIN, table_of_three


async def test_a_sheet_shows_every_trait_its_destiny_tragedy_props_and_members(
    web_env: BotEnv, browser: Browser
) -> None:
    await table_of_three(web_env)
    page = await opened(browser, web_env, "narrator")
    vin = page.locator(".sheet").filter(has=page.get_by_text("Vin", exact=True))
    traits = vin.locator('[data-part="traits"] li')
    await expect(traits).to_have_text(
        [
            "Drive: Survive",
            "Profession: Thief",
            "Specialty: Locks",
            "Feature: Scarred hands",
            "Personality: Wary",
            "Quick",
        ]
    )
    await expect(vin.locator('[data-part="destiny"] li')).to_have_text([VIN["destiny"]])
    await expect(vin.locator('[data-part="tragedy"] li')).to_have_text([VIN["tragedy"]])
    await expect(vin.locator('[data-part="props"] li')).to_have_text(
        ["Glass knives (weapon +2)", "Mistcloak (armour 1)"]
    )
    crew = page.locator(".sheet").filter(has=page.get_by_text("Crew", exact=True))
    for card in (crew, fighter(page, "Crew")):
        await expect(card.locator(".res .label")).to_have_text([MEMBERS["label"]])
        await expect(card.locator(".res .value")).to_have_text([MEMBERS["text"]])
    spy = page.locator(".sheet").filter(has=page.get_by_text("Spy", exact=True))
    await expect(spy.locator('[data-part="destiny"] li')).to_have_text([SPY["destiny"]])


async def test_a_players_page_never_shows_a_hidden_sheets_destiny(web_env: BotEnv, browser: Browser) -> None:
    await table_of_three(web_env)
    page = await opened(browser, web_env, "player1")
    await expect(page.locator(".sheet .s-name")).to_have_text(["Vin"])
    text = await page.locator("main").inner_text()
    assert VIN["tragedy"] in text and all(words not in text for words in SPY.values())
