"""What a campaign keeps beside the sheets, on both databases (docs/rulings.md §10): award
proposals, spends waiting, true Destinies, Secrets and their reveals, the Narrator's templates,
and the setting that lets players spend alone. Each goes with its sheet, Secret or session."""

from datetime import UTC, datetime

import pytest

from rules.campaign.secrets import SecretKind, make_secret
from rules.character import Character, CharacterKind, PowerType
from rules.character.purchase_table import Purchase, PurchaseKind
from storage import AlreadyExistsError, NotFoundError, Storage

AT = datetime(2025, 3, 1, 20, 0, tzinfo=UTC)
VIN = Character(name="Vin", kind=CharacterKind.HERO, owner_id=1)
ELEND = Character(name="Elend", kind=CharacterKind.HERO, owner_id=2)
STRAFF = Character(name="Straff", kind=CharacterKind.VILLAIN, owner_id=9)


async def test_award_proposals_belong_to_their_session(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    elend = await storage.characters.create(1, ELEND)
    night = await storage.journal.start(1, 10, "Night", 9, AT)
    await storage.advancements.propose(1, night.id, vin.id, 2)
    await storage.advancements.propose(1, night.id, vin.id, 3)
    await storage.advancements.propose(1, night.id, elend.id, 0)
    assert await storage.advancements.proposed(night.id) == {vin.id: 3, elend.id: 0}
    await storage.characters.delete(1, elend.id)
    assert await storage.advancements.proposed(night.id) == {vin.id: 3}
    await storage.advancements.drop_proposals(night.id)
    assert await storage.advancements.proposed(night.id) == {}


async def test_a_spend_waits_once_per_hero_and_is_taken_once(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    first = await storage.advancements.ask(
        1, vin.id, 10, 1, Purchase(kind=PurchaseKind.ATTRIBUTE, target="wits"), AT
    )
    second = await storage.advancements.ask(
        1, vin.id, 10, 1, Purchase(kind=PurchaseKind.NEW_TRAIT, target="extra", text="Quick"), AT
    )
    assert await storage.advancements.waiting(1, first.id) is None  # replaced
    assert await storage.advancements.waiting_for(1, vin.id) == second
    assert await storage.advancements.waiting(2, second.id) is None  # another server
    assert await storage.advancements.take(1, second.id) == second
    assert await storage.advancements.take(1, second.id) is None
    again = await storage.advancements.ask(
        1, vin.id, 10, 1, Purchase(kind=PurchaseKind.STANDING, target="spirit"), AT
    )
    await storage.characters.delete(1, vin.id)
    assert await storage.advancements.take(1, again.id) is None  # gone with its Hero


async def test_a_true_destiny_is_set_read_cleared_and_goes_with_its_sheet(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    assert await storage.true_destinies.get(1, vin.id) is None
    await storage.true_destinies.set(1, vin.id, "Become the Hero of Ages", 9, AT)
    await storage.true_destinies.set(1, vin.id, "Release Ruin", 9, AT)
    assert await storage.true_destinies.get(1, vin.id) == "Release Ruin"
    assert await storage.true_destinies.get(2, vin.id) is None
    assert await storage.true_destinies.clear(1, vin.id) and not await storage.true_destinies.clear(1, vin.id)
    await storage.true_destinies.set(1, vin.id, "Again", 9, AT)
    await storage.characters.delete(1, vin.id)
    assert await storage.true_destinies.get(1, vin.id) is None
    assert VIN.model_dump_json().count("Again") == 0


async def test_secrets_are_kept_revealed_and_read_by_whom_they_were_told(storage: Storage) -> None:
    vin = await storage.characters.create(1, VIN)
    elend = await storage.characters.create(1, ELEND)
    hideout = await storage.secrets.add(
        1, make_secret("The hideout", "Under the Keep", SecretKind.STORY), 9, AT
    )
    metal = make_secret("Duralumin", "A ninth metal", SecretKind.RULES, "Duralumin")
    duralumin = await storage.secrets.add(1, metal, 9, AT)
    with pytest.raises(AlreadyExistsError):
        await storage.secrets.add(1, make_secret("THE HIDEOUT", "x", SecretKind.STORY), 9, AT)
    assert (await storage.secrets.named(1, "the hideout")) == hideout
    assert [s.title for s in await storage.secrets.all(1)] == ["The hideout", "Duralumin"]
    assert await storage.secrets.count(1) == 2 and await storage.secrets.count(2) == 0
    await storage.secrets.reveal(1, hideout.id, vin.id, 10, 9, AT)
    assert [s.title for s in await storage.secrets.readable(1, [vin.id])] == ["The hideout"]
    assert await storage.secrets.readable(1, [elend.id]) == []
    assert await storage.secrets.readable(1, []) == []
    assert await storage.secrets.unlocks(1, vin.id) == frozenset()
    await storage.secrets.reveal(1, duralumin.id, None, 10, 9, AT)  # to the table
    assert [s.title for s in await storage.secrets.readable(1, [elend.id])] == ["Duralumin"]
    assert await storage.secrets.unlocks(1, elend.id) == {(PowerType.ALLOMANCY, "Duralumin")}
    assert [r.character_id for r in await storage.secrets.reveals(1, hideout.id)] == [vin.id]
    renamed = await storage.secrets.replace(
        hideout, make_secret("The cellar", "Under the Keep", SecretKind.STORY)
    )
    assert (await storage.secrets.get(1, hideout.id)).title == "The cellar" == renamed.title
    assert [s.title for s in await storage.secrets.search(1, "CELL")] == ["The cellar"]
    assert await storage.secrets.delete(1, hideout.id)
    assert await storage.secrets.reveals(1, hideout.id) == []
    with pytest.raises(NotFoundError):
        await storage.secrets.get(1, hideout.id)
    await storage.characters.delete(1, elend.id)
    assert len(await storage.secrets.reveals(1, duralumin.id)) == 1  # the table's telling stays


async def test_templates_are_saved_found_renamed_and_deleted(storage: Storage) -> None:
    picture = bytes(range(256))
    saved = await storage.templates.save(1, "Straff", STRAFF, (picture, "image/webp"), 9, AT)
    with pytest.raises(AlreadyExistsError):
        await storage.templates.save(1, "straff", STRAFF, None, 9, AT)
    replaced = await storage.templates.save(1, "straff", STRAFF, None, 9, AT, replace=True)
    assert replaced.name == "straff" and not replaced.has_portrait
    await storage.templates.save(
        1, "Zane", STRAFF.model_copy(update={"name": "Zane"}), (picture, "image/webp"), 9, AT
    )
    found = await storage.templates.get(1, "ZANE")
    assert found.portrait == picture and found.character.name == "Zane"
    assert [t.name for t in await storage.templates.all(1)] == ["straff", "Zane"]
    assert all(t.portrait is None for t in await storage.templates.all(1))  # listed without bytes
    assert await storage.templates.names(1, "za") == ["Zane"] and await storage.templates.count(2) == 0
    moved = await storage.templates.rename(found, "Zane Venture", found.character, AT)
    assert (
        await storage.templates.get(1, "zane venture")
    ).portrait == picture and moved.name == "Zane Venture"
    with pytest.raises(AlreadyExistsError):
        await storage.templates.rename(moved, "Straff", moved.character, AT)
    assert await storage.templates.delete(1, "Zane Venture") and not await storage.templates.delete(
        1, "Zane Venture"
    )
    with pytest.raises(NotFoundError):
        await storage.templates.get(1, "Zane Venture")
    assert saved.id != replaced.id


async def test_players_spend_alone_only_where_the_server_says(storage: Storage) -> None:
    assert not (await storage.settings.get(1)).players_spend
    assert (await storage.settings.set_players_spend(1, True)).players_spend
    assert (await storage.settings.get(1)).players_spend and not (await storage.settings.get(2)).players_spend
    assert not (await storage.settings.set_players_spend(1, False)).players_spend
