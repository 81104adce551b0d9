"""Driving the guided Hero builder as a player would, counting every interaction.

Each call is one interaction Discord would send: a slash command, a click, a choice in a menu,
a submitted form. :class:`Builder` finds the component on the newest message its member can
see, as a person would, and counts the interactions so a test can hold a template to its budget.
"""

from collections.abc import Mapping
from dataclasses import dataclass, field

from fake_discord.component_search import visible_to
from fake_discord.payloads import JSON
from fake_discord.records import InteractionRecord
from testbed.bot_env import BotEnv

TRAITS = {
    "drive": "Keep her crew safe",
    "profession": "Thief",
    "specialty": "Hiding in plain sight",
    "feature": "Small and quick",
    "personality": "Suspicious",
}
STORY = {"destiny": "Hero of Ages", "tragedy": "Reen's betrayals", "props": "Glass knives (weapon 1)"}
POWERS = {"mistborn": "Mistborn", "keeper": "Keeper", "none": "No Powers", "misting": "Misting: Steel"}


@dataclass
class Builder:
    env: BotEnv
    user: str = "player1"
    interactions: int = 0
    records: list[InteractionRecord] = field(default_factory=list)

    def _counted(self, record: InteractionRecord) -> InteractionRecord:
        self.interactions += 1
        self.records.append(record)
        assert record.response is not None and not record.errors, record.text
        return record

    async def slash(self, line: str) -> InteractionRecord:
        return self._counted(await self.env.harness.slash(line, user=self.user))

    async def click(self, label: str) -> InteractionRecord:
        return self._counted(await self.env.harness.click(label, user=self.user))

    async def submit(self, values: Mapping[str, str | list[str] | bool]) -> InteractionRecord:
        return self._counted(await self.env.harness.submit(values, user=self.user))

    def message(self) -> JSON:
        """The builder's message: the newest one the member sees that carries its components."""
        viewer = self.env.harness.member(self.user)
        for message in reversed(self.env.harness.fake.messages.values()):
            if visible_to(message, viewer) and "mab:hero" in str(message.get("components")):
                return message
        raise AssertionError("no builder message")

    def selects(self, part: str) -> list[JSON]:
        """The builder's menus for ``part`` (labels, attributes, standings, powers)."""
        rows = self.message()["components"]
        found = [c for row in rows for c in row["components"] if c["type"] == 3]
        return [c for c in found if c["custom_id"].rsplit(":", 1)[1].rstrip("0123456789") == part]

    async def choose(self, part: str, label: str) -> InteractionRecord:
        """Pick the option called ``label`` in whichever of the ``part`` menus offers it."""
        for select in self.selects(part):
            if any(o["label"] == label for o in select["options"]):
                record = await self.env.harness.select(
                    select["custom_id"], [label], message=self.message(), user=self.user
                )
                return self._counted(record)
        offered = [o["label"] for s in self.selects(part) for o in s["options"]]
        raise AssertionError(f"{label!r} is not offered in {part}: {offered}")


TEMPLATES = {"mistborn": "Mistborn", "keeper": "Keeper", "none": "No Powers", "misting": "Misting"}
LABELS = "Strong Attributes, average Standings, weak Powers"
EXTRAS = "Lucky\nQuiet"


async def make_hero(env: BotEnv, template: str, user: str = "player1", name: str = "Vin") -> Builder:
    """Make a whole Hero from only a name with the Powers ``template``, the shortest way: the
    labels and Powers in the first form, the two splits, the Traits, and the story form with
    "Create the Hero when this is sent" ticked (docs/rulings.md §6.10)."""
    builder = Builder(env, user)
    await builder.slash(f"/character create name:{name}")
    first: dict[str, str | list[str] | bool] = {
        "concept": "Street urchin",
        "Strong, average and weak": LABELS,
        "Powers": TEMPLATES[template],
    }
    if template == "misting":
        first["A Misting's metal"] = "Steel"
    await builder.submit(first)
    await builder.choose("attributes", "Physique 3 · Charm 4 · Wits 6")
    await builder.choose("standings", "Resources 4 · Influence 4 · Spirit 3")
    await builder.submit(TRAITS)
    await builder.click("Write Destiny, Tragedy and Props")
    story: dict[str, str | list[str] | bool] = {**STORY, "Create the Hero when this is sent": True}
    if template == "none":
        story["extras"] = EXTRAS
    await builder.submit(story)
    return builder


async def make_hero_by_menus(env: BotEnv, template: str, user: str = "player1", name: str = "Vin") -> Builder:
    """The same Hero one step at a time, as before the first form offered the choices: the
    concept alone, a menu each for the labels, the splits and the Powers, then Create."""
    builder = Builder(env, user)
    await builder.slash(f"/character create name:{name}")
    await builder.submit({"concept": "Street urchin"})
    await builder.choose("labels", LABELS)
    await builder.choose("attributes", "Physique 3 · Charm 4 · Wits 6")
    await builder.choose("standings", "Resources 4 · Influence 4 · Spirit 3")
    await builder.choose("powers", POWERS[template])
    await builder.submit(TRAITS)
    await builder.click("Write Destiny, Tragedy and Props")
    await builder.submit({**STORY, "extras": EXTRAS} if template == "none" else STORY)
    await builder.click(f"Create {name}")
    return builder
