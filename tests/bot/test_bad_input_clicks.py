"""Hypothesis-generated clicks on every button and menu the bot registers, sent as raw payloads.

Discord sends a click only for a component the bot drew, with its own custom id and only the
values its menu offered; a modified client can send any custom id a ``DynamicItem``'s template
accepts and any values at all. The items are read from the client (``client.clicks.items``), so
a new button or menu is fuzzed without touching this file. Each custom id is drawn from the
item's own template (``st.from_regex``: mostly the small ids the seeded table uses, else ids far
past what the database holds, or digits of other scripts), a menu's values from hostile text and
from ids.
A forged click may be one the table could have made, so storage is not compared; ``Probe``
checks the rest of every interaction: answered within Discord's window, never with the apology,
every message within Discord's limits, nothing logged as an error.
"""

from __future__ import annotations

import pytest
from hypothesis import given, note
from hypothesis import strategies as st

from fake_discord import payloads
from tests.bot.seeded_table import repair
from tests.bot.test_bad_input import JSON, Probe
from tests.bot.test_bad_input_fuzz import HOSTILE, SETTINGS, table

__all__ = ["table"]  # the fuzzers' fixture: one bot, the seeded table

pytestmark = pytest.mark.slow

PER_EXAMPLE = 8
"""Clicks per example, then one ordinary command to show the bot is still up."""
BUTTON, SELECT = 2, 3
VALUES = st.one_of(
    st.sampled_from(HOSTILE),
    st.from_regex(r"\d{1,25}", fullmatch=True),
    st.sampled_from(["0", "-1", "1", "2", "attack:1", "attack:x", "push:1", "pull:2", "1|2", "Vin", "²"]),
    st.text(max_size=100),
)
"""A menu's values: what no menu offered, and what some menu does."""
NUMBERS = r"(?:[0-4]|[0-9]{1,20}|\d{1,3})"
"""What a template's ``\\d+`` is drawn as: mostly the small ids the seeded table has (its Conflict,
its three sheets), else past what the database holds, or in another script's digits."""


def custom_ids(template: str) -> st.SearchStrategy[str]:
    """Custom ids the template accepts, its numbers drawn as :data:`NUMBERS` says."""
    return st.from_regex(template.replace(r"\d+", NUMBERS), fullmatch=True)


async def a_message(probe: Probe) -> JSON:
    """A message of the bot's in the table's channel: what the forged clicks are made on."""
    rolled = await probe.env.slash("/roll dice:2", user="narrator")
    assert rolled.message is not None
    return rolled.message


@SETTINGS
@given(data=st.data())
async def test_every_button_and_menu_survives_any_custom_id_and_values(
    table: Probe, data: st.DataObject
) -> None:
    probe = table
    await repair(probe)
    message = await a_message(probe)
    templates = sorted(
        (
            (item.__name__, item.__discord_ui_compiled_template__.pattern)
            for item in probe.env.bot.clicks.items
        ),
    )
    for _ in range(PER_EXAMPLE):
        name, template = data.draw(st.sampled_from(templates), label="item")
        custom_id = data.draw(custom_ids(template), label="custom id")
        kind = data.draw(st.sampled_from([BUTTON, SELECT]), label="component type")
        values = data.draw(st.lists(VALUES, max_size=3), label="values") if kind == SELECT else None
        user = data.draw(st.sampled_from(["narrator", "player1", "player2"]), label="user")
        note(f"{name} {custom_id!r} as {user}, values {values!r:.200}")
        actor = probe.actor(user)
        component = {"custom_id": custom_id, "type": kind}
        await probe.settle()
        await probe.deliver(payloads.component_click(probe.env.world, actor, message, component, values))
    probe.check_log()
    await probe.still_works()


FIELDS = [
    *("stat", "traits", "tool", "tap", "label", "burdens", "task", "size", "anchored", "metal", "where"),
    *("damage", "remove", "next_round", "story", "defeat_burden", "line", "when", "zone", "note"),
    *("physique", "charm", "wits", "resources", "influence", "spirit", "build", "labels", "powers"),
    *("concept", "drive", "profession", "specialty", "feature", "personality", "destiny", "tragedy"),
    *("props", "extras", "create", "name"),
]
"""The parts the bot's forms carry, each sent or not, with any text: a form reads what it knows."""


@SETTINGS
@given(data=st.data())
async def test_every_form_survives_any_custom_id_and_parts(table: Probe, data: st.DataObject) -> None:
    """The same for a submitted form: a custom id from its template, any parts with any text."""
    probe = table
    await repair(probe)
    message = await a_message(probe)
    forms = sorted(form.pattern for form in probe.env.bot.forms.ids)
    for _ in range(PER_EXAMPLE):
        custom_id = data.draw(st.sampled_from(forms).flatmap(custom_ids), label="custom id")
        parts = data.draw(st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=8), label="parts")
        user = data.draw(st.sampled_from(["narrator", "player1", "player2"]), label="user")
        on_message = data.draw(st.booleans(), label="opened from a message")
        note(f"form {custom_id!r} as {user}{' on a message' if on_message else ''}: {parts!r:.300}")
        inputs = [{"type": 18, "component": {"type": 4, "custom_id": key}} for key in parts]
        form = {"custom_id": custom_id, "components": inputs}
        payload = payloads.modal_submit(
            probe.env.world, probe.actor(user), form, parts, message=message if on_message else None
        )
        await probe.settle()
        await probe.deliver(payload)
    probe.check_log()
    await probe.still_works()
