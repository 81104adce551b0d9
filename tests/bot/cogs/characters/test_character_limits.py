"""A sheet filled to every cap with text that Markdown escaping doubles, and emoji that count
twice in UTF-16, must still render within all of Discord's embed limits everywhere it shows."""

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import discord

from bot.render.sheet import fit, sheet_embed
from bot.render.sheet_card import sheet_card
from fake_discord.payloads import JSON
from rules.character import Character, CharacterKind, make_character
from rules.character import limits as lim
from rules.character.text_budget import user_text_length
from testbed.bot_env import BotEnv
from testbed.cards import as_discord_py_writes_it, card_text

PATTERN = "*_~|`\\🔥"


def units(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def text_of(size: int, seed: str = "") -> str:
    """Exactly ``size`` UTF-16 units: ``seed`` then characters Markdown escaping doubles, and emoji."""
    out = seed
    i = 0
    while units(out) < size:
        char = PATTERN[i % len(PATTERN)]
        if units(out + char) > size or (char == "\\" and units(out) + 1 == size):
            char = "*"  # no emoji split in half, and no closing backslash (it would escape a quote)
        out += char
        i += 1
    return out


def maximal(kind: CharacterKind = CharacterKind.HERO, owner_id: int = 1, **extra: Any) -> Character:
    powers = [
        {
            "type": "other" if i % 2 else "kandra",
            "name": text_of(lim.POWER_NAME_MAX, f"P{i}"),
            "rating": 10,
            "stunts": [text_of(lim.STUNT_MAX, f"S{i}")] if i < lim.STUNTS_MAX else [],
        }
        for i in range(lim.POWERS_MAX)
    ]
    fields = {
        "name": text_of(lim.NAME_MAX, "Max"),
        "kind": kind,
        "owner_id": owner_id,
        "concept": text_of(lim.CONCEPT_MAX),
        "attributes": {"physique": 10, "charm": 10, "wits": 10},
        "standings": {"resources": 10, "influence": 10, "spirit": 10},
        "spent": {"resources": 9, "influence": 9, "spirit": 9},
        "damage": {"health": 20, "reputation": 20, "willpower": 20},
        "traits": {
            **{
                slot: text_of(lim.TRAIT_MAX)
                for slot in ("drive", "profession", "specialty", "feature", "personality")
            },
            "extras": [text_of(lim.TRAIT_MAX, f"T{i}") for i in range(lim.EXTRA_TRAITS_MAX)],
        },
        "destiny": text_of(lim.DESTINY_MAX),
        "tragedy": text_of(lim.TRAGEDY_MAX),
        "burdens": [
            {"name": text_of(lim.BURDEN_NAME_MAX, f"B{i}"), "severity": "mortal"}
            for i in range(lim.BURDENS_MAX)
        ],
        "powers": powers,
        "props": [
            {"name": text_of(lim.PROP_NAME_MAX, f"R{i}"), "weapon": 4, "armour": 3}
            for i in range(lim.PROPS_MAX)
        ],
        "build": {"attributes": "strong", "standings": "average", "powers": "weak"},
        "notes": "\n".join(text_of(99) for _ in range(6)),
    }
    fields.update(extra)
    return make_character(fields)


def assert_within_limits(embeds: Sequence[Mapping[str, Any]]) -> None:
    assert 1 <= len(embeds) <= 10
    total = 0
    for embed in embeds:
        parts = [embed.get("title") or "", embed.get("description") or ""]
        parts += [
            (embed.get("footer") or {}).get("text") or "",
            (embed.get("author") or {}).get("name") or "",
        ]
        assert units(parts[0]) <= 256 and units(parts[1]) <= 4096 and units(parts[2]) <= 2048
        fields = embed.get("fields") or []
        assert len(fields) <= 25
        for f in fields:
            assert 1 <= units(f["name"]) <= 256 and 1 <= units(f["value"]) <= 1024
            parts += [f["name"], f["value"]]
        total += sum(units(p) for p in parts)
    assert total <= 6000, total


def test_the_maximal_sheet_is_maximal() -> None:
    character = maximal()
    assert user_text_length(character) > 4000
    assert sum(PATTERN[0] in t for t in (character.name, character.concept, character.notes)) == 3


def test_fit_never_splits_an_emoji_or_leaves_half_an_escape() -> None:
    assert fit("ab🔥", 3) == "ab…"
    assert fit("a\\*b\\*", 4) == "a\\*…"
    assert fit("a\\\\*b", 4) == "a\\\\…"
    assert units(fit("🔥" * 600, 1024)) <= 1024


def test_sheet_embed_of_a_maximal_sheet_fits_every_kind() -> None:
    for kind in CharacterKind:
        extra: dict[str, Any] = {"destiny": "", "tragedy": "", "damage": {}, "size": 100, "members_down": 7}
        character = maximal(kind, **(extra if kind is CharacterKind.EXTRA else {}))
        embed = sheet_embed(character)
        assert_within_limits([embed.to_dict()])
        names = [f.name for f in embed.fields]
        for section in ("Traits", "Destiny", "Burdens", "Powers", "Stunts", "Props", "Notes"):
            assert section in names or kind is CharacterKind.EXTRA
        assert len(embed) <= 6000 and isinstance(embed, discord.Embed)


def components_in(components: list[JSON]) -> int:
    """Every component of a layout message, nested ones included, as Discord counts to 40."""
    total = 0
    for component in components:
        inner = [component[k] for k in ("accessory", "component") if isinstance(component.get(k), dict)]
        total += 1 + components_in(inner + list(component.get("components") or []))
    return total


def test_the_sheet_card_of_a_maximal_sheet_fits_every_kind() -> None:
    for kind in CharacterKind:
        extra: dict[str, Any] = {"destiny": "", "tragedy": "", "damage": {}, "size": 100, "members_down": 7}
        character = maximal(kind, **(extra if kind is CharacterKind.EXTRA else {}))
        card = sheet_card(character, portrait=True, notes=["x" * 400], extras=[("Advice", ["y" * 80])])
        components: list[JSON] = card.to_components()
        assert as_discord_py_writes_it(components) == components
        text = card_text({"components": components})
        assert components_in(components) <= 40 and units(text) <= 4000
        for section in ("Traits", "Destiny", "Burdens", "Powers", "Stunts", "Props", "Notes"):
            assert f"**{section}**" in text or kind is CharacterKind.EXTRA


async def test_every_reply_about_a_maximal_sheet_fits(bot_env: BotEnv, tmp_path: Path) -> None:
    owner = bot_env.user_id("player1")
    character = maximal(owner_id=owner)
    stored = await bot_env.storage.characters.create(bot_env.guild_id, character)
    await bot_env.storage.active.set(bot_env.guild_id, owner, stored.id)
    name = character.name
    replies = [
        await bot_env.slash("/character show", user="player1"),
        await bot_env.slash("/character list", user="player2"),
        await bot_env.harness.user_menu("View sheet", "player1", user="player2"),
        await bot_env.slash("/edit attribute attribute:Wits value:9", user="player1"),
        await bot_env.slash(f'/edit trait slot:Drive text:"{text_of(60)}"', user="player1"),
        await bot_env.slash(f'/edit text field:Notes value:"{text_of(600)}"', user="player1"),
        await bot_env.slash("/sheet damage amount:20", user="player1"),
        await bot_env.slash(f'/sheet breather kind:Long name:"{name}"', user="narrator"),
        await bot_env.slash(f'/sheet recover name:"{name}"', user="narrator"),
        await bot_env.slash(
            f'/burden remove burden:"{character.burdens[0].name}" name:"{name}"', user="narrator"
        ),
        await bot_env.slash("/character use name:" + f'"{name}"', user="player1"),
    ]
    cards = [replies[0], replies[2]]  # the sheet: a layout message (issue 32)
    for reply in cards:
        assert reply.message is not None and not reply.embeds
        assert components_in(reply.message["components"]) <= 40
        assert units(card_text(reply.message)) <= 4000
    for reply in replies:
        if reply not in cards:
            assert reply.embeds, reply.content
            assert_within_limits(reply.embeds)
    assert replies[0].message is not None
    assert "## Max\\*\\_" in card_text(replies[0].message)
    exported = await bot_env.slash("/character export", user="player1")
    path = tmp_path / "max.json"
    assert exported.message is not None
    path.write_bytes(bot_env.harness.fake.file_bytes(exported.message["attachments"][0]))
    imported = await bot_env.slash(f'/character import file:"{path}" name:Copy', user="player1")
    assert imported.message is not None and components_in(imported.message["components"]) <= 40
    assert units(card_text(imported.message)) <= 4000 and "Imported **Copy**" in card_text(imported.message)
    assert not bot_env.harness.violations


async def test_a_long_roster_is_listed_in_pages_with_a_count(bot_env: BotEnv) -> None:
    owner = bot_env.user_id("player1")
    for i in range(60):
        character = make_character(name=text_of(64, f"{i:02d}"), kind="hero", owner_id=owner)
        await bot_env.storage.characters.create(bot_env.guild_id, character)
    reply = await bot_env.slash("/character list")
    assert_within_limits(reply.embeds)
    assert reply.embeds[0]["footer"]["text"] == "60 characters · page 1 of 3 (page:2 for more)"
    assert reply.embeds[0]["description"].count("\n") == 24
    last = await bot_env.slash("/character list page:3")
    assert last.embeds[0]["footer"]["text"] == "60 characters · page 3 of 3"
    assert last.embeds[0]["description"].count("\n") == 9
    beyond = await bot_env.slash("/character list page:4")
    assert beyond.embeds[0]["description"] == "There is no page 4: the list has 3 pages."
    names = await bot_env.harness.autocomplete("/character show name:0", user="player1")
    assert len(names.choices) == 15  # names containing a 0: 00–09, 10, 20, 30, 40, 50
