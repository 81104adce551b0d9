"""Embeds for character sheets and for what changes them (docs/rulings.md §5, §6).

Every piece of player text goes through ``plain``, and escaping can double its length, so a
section is packed line by line into fields of at most 1024 characters (spilling into a
"(cont.)" field), and :func:`fit_embed` then trims the longest fields until the whole embed
fits Discord's 6000. Lengths are counted in UTF-16 code units, the strictest way Discord may
count them (an emoji is two), so what fits here fits however Discord counts.
"""

from collections.abc import Collection, Iterable, Sequence
from typing import Protocol

import discord

from bot.render.common import (
    DESCRIPTION_LIMIT,
    EMBED_TOTAL_LIMIT,
    FAILURE,
    FIELD_NAME_LIMIT,
    FIELD_VALUE_LIMIT,
    FOOTER_LIMIT,
    INFO,
    MAX_FIELDS,
    NEUTRAL,
    SUCCESS,
    TITLE_LIMIT,
    plain,
)

# ``fit`` and ``units`` moved to ``bot.render.common``; still importable from here.
from bot.render.common import fit as fit
from bot.render.common import units as units
from bot.render.metals import metal_lines, metal_section
from bot.render.sheet_words import (
    MEMBERS,
    burden_weight,
    members_standing,
    named_traits,
    prop_bonuses,
    standing_spent,
)
from rules.character import (
    Attribute,
    Character,
    CharacterKind,
    DamageResult,
    RecoveryResult,
    Resilience,
    Standing,
    defeated_resiliences,
    pewter_rating,
    resilience_current,
    resilience_max,
)
from rules.character.advancement import ledger_line
from rules.character.names import RESILIENCE_DEFEAT
from rules.character.story import Stage, Subplot
from rules.words import count_of

KIND_COLOURS = {CharacterKind.HERO: INFO, CharacterKind.VILLAIN: FAILURE, CharacterKind.EXTRA: NEUTRAL}
PENALTIES = {
    Resilience.HEALTH: "−2 dice on Attribute rolls",
    Resilience.REPUTATION: "−2 dice on Standing rolls",
    Resilience.WILLPOWER: "−2 dice on Power rolls",
}
MIN_TRIMMED = 40
"""A field trimmed to fit the total keeps at least this much, so every section stays visible."""


def add_lines(embed: discord.Embed, name: str, lines: Iterable[str], *, inline: bool = False) -> None:
    """Add ``lines`` as one field, continuing in more fields when they pass 1024 units."""
    chunk: list[str] = []
    used = 0
    title = name
    for raw in lines:
        line = fit(raw, FIELD_VALUE_LIMIT)
        if chunk and used + 1 + units(line) > FIELD_VALUE_LIMIT:
            _field(embed, title, "\n".join(chunk), inline)
            title, chunk, used = f"{name} (cont.)", [], 0
        used += units(line) + (1 if chunk else 0)
        chunk.append(line)
    if chunk:
        _field(embed, title, "\n".join(chunk), inline)


def _field(embed: discord.Embed, name: str, value: str, inline: bool) -> None:
    if len(embed.fields) < MAX_FIELDS:
        embed.add_field(
            name=fit(name, FIELD_NAME_LIMIT), value=fit(value or "—", FIELD_VALUE_LIMIT), inline=inline
        )


def embed_units(embed: discord.Embed) -> int:
    """What Discord counts towards an embed's 6000: title, description, fields, footer, author."""
    total = units(embed.title or "") + units(embed.description or "")
    total += sum(units(f.name or "") + units(f.value or "") for f in embed.fields)
    return total + units(embed.footer.text or "") + units(embed.author.name or "")


def fit_embed(embed: discord.Embed, limit: int = EMBED_TOTAL_LIMIT) -> discord.Embed:
    """Shave the longest field values to one common length so the embed fits ``limit``.

    Shaving evenly keeps every section visible (a long Notes field gives up the most); only
    if that is not enough is the description cut too.
    """
    excess = embed_units(embed) - limit
    if excess <= 0:
        return embed
    sizes = [units(f.value or "") for f in embed.fields]
    cap = _water_level(sizes, sum(sizes) - excess)
    for index, field in enumerate(list(embed.fields)):
        if sizes[index] > cap:
            value = fit(field.value or "", cap)
            embed.set_field_at(index, name=field.name or "—", value=value, inline=bool(field.inline))
    excess = embed_units(embed) - limit
    if excess > 0:
        description = embed.description or ""
        embed.description = fit(description, max(1, units(description) - excess))
    return embed


def _water_level(sizes: Sequence[int], budget: int) -> int:
    """The largest cap (at least MIN_TRIMMED) with ``sum(min(size, cap)) <= budget``."""
    low, high = MIN_TRIMMED, max(sizes, default=MIN_TRIMMED)
    while low < high:
        middle = (low + high + 1) // 2
        if sum(min(size, middle) for size in sizes) <= budget:
            low = middle
        else:
            high = middle - 1
    return low


def _title(character: Character, suffix: str = "") -> str:
    return fit(plain(character.name) + suffix, TITLE_LIMIT)


def attribute_lines(character: Character) -> list[str]:
    lines = [f"{a.label} **{character.attributes.get(a)}**" for a in Attribute]
    if rating := pewter_rating(character):
        lines.append(f"(+{rating} Physique while burning Pewter)")
    return lines


def standing_lines(character: Character) -> list[str]:
    lines = []
    for standing in Standing:
        spent = standing_spent(character, standing)
        lines.append(
            f"{standing.label} **{character.standings.get(standing)}**" + (f" ({spent})" if spent else "")
        )
    return lines


def resilience_lines(character: Character) -> list[str]:
    if character.is_extra:
        return [members_standing(character.members_left, character.size)]
    lines = []
    for resilience in Resilience:
        now, top = resilience_current(character, resilience), resilience_max(character, resilience)
        mark = f" — {RESILIENCE_DEFEAT[resilience].label}" if now == 0 else ""
        lines.append(f"{resilience.label} **{now}**/{top}{mark}")
    return lines


def burden_lines(character: Character) -> list[str]:
    return [f"• {plain(b.name)} — {burden_weight(b)}" for b in character.burdens] or ["None"]


def power_lines(character: Character) -> list[str]:
    """Each Power and its rating; one a spike stole is marked, as its rating is the spike's (§9.5)."""
    return [
        f"• {plain(p.full_label)} **{p.rating}**" + (", from a spike" if p.from_spike else "")
        for p in character.powers
    ]


def trait_lines(character: Character) -> list[str]:
    return [
        f"**{label}:** {plain(text)}" if label else f"• {plain(text)}"
        for label, text in named_traits(character.traits)
    ]


def prop_line(name: str, weapon: int | None, armour: int | None) -> str:
    bonuses = prop_bonuses(weapon, armour)
    return f"• {plain(name)}" + (f" ({bonuses})" if bonuses else "")


def _description(character: Character) -> str:
    parts = []
    if character.concept:
        parts.append(f"*{plain(character.concept)}*")
    role = "Player" if character.kind is CharacterKind.HERO else "Narrator"
    parts.append(f"{role}: <@{character.owner_id}>")
    if character.is_extra:
        group = f"Group of {character.size}" if character.size > 1 else "A lone Extra"
        state = "defeated" if character.members_left == 0 else f"{character.members_left} standing"
        parts.append(f"{group}: {state}. Extras have no Nudges.")
    return fit("\n".join(parts), DESCRIPTION_LIMIT)


def _footer(character: Character) -> str:
    notes = []
    if character.build is not None:
        build = character.build
        notes.append(
            f"Attributes {build.attributes.value} · Standings {build.standings.value} · "
            f"Powers {build.powers.value}"
        )
    for resilience in [] if character.is_extra else defeated_resiliences(character):
        condition = RESILIENCE_DEFEAT[resilience].label
        notes.append(f"{condition}: {PENALTIES[resilience]} until {resilience.label} is 1 or more")
    return fit("\n".join(notes), FOOTER_LIMIT)


def subplot_title(character: Character, subplot: Subplot) -> str:
    """ "Destiny", or "Destiny (Middle)" once the Narrator moved it on (docs/rulings.md §10.2)."""
    stage = character.story.stage(subplot)
    return subplot.label if stage is Stage.BEGINNING else f"{subplot.label} ({subplot.stage_label(stage)})"


def sheet_embed(character: Character) -> discord.Embed:
    """The whole sheet in one embed, always within Discord's limits."""
    embed = discord.Embed(
        title=_title(character, f" — {character.kind.label}"),
        description=_description(character),
        colour=KIND_COLOURS[character.kind],
    )
    add_lines(embed, "Attributes", attribute_lines(character), inline=True)
    add_lines(embed, "Standings", standing_lines(character), inline=True)
    add_lines(
        embed, MEMBERS if character.is_extra else "Resiliences", resilience_lines(character), inline=True
    )
    if traits := trait_lines(character):
        add_lines(embed, "Traits", traits)
    if character.destiny:
        add_lines(embed, subplot_title(character, Subplot.DESTINY), [plain(character.destiny)])
    if character.tragedy:
        add_lines(embed, subplot_title(character, Subplot.TRAGEDY), [plain(character.tragedy)])
    if not character.advancements.empty:
        add_lines(embed, "Advancements", [ledger_line(character.advancements)])
    if character.burdens:
        add_lines(embed, "Burdens", burden_lines(character))
    if character.powers:
        add_lines(embed, "Powers", power_lines(character))
        stunts = [f"• {plain(p.name)}: {plain(s)}" for p in character.powers for s in p.stunts]
        if stunts:
            add_lines(embed, "Stunts", stunts)
    if metals := metal_lines(character):
        add_lines(embed, "Metals", metals)
    if character.story.secrets_known:
        add_lines(embed, "Secrets known", [f"• {plain(t)}" for t in character.story.secrets_known])
    if character.props:
        add_lines(embed, "Props", [prop_line(p.name, p.weapon, p.armour) for p in character.props])
    if character.notes:
        add_lines(embed, "Notes", plain(character.notes).split("\n"))
    if footer := _footer(character):
        embed.set_footer(text=footer)
    return fit_embed(embed)


SECTIONS = {
    "attributes": ("Attributes", attribute_lines),
    "standings": ("Standings", standing_lines),
    "resiliences": ("Resiliences", resilience_lines),
    "burdens": ("Burdens", burden_lines),
    "metals": ("Metals", metal_section),
}


def change_embed(
    character: Character,
    summary: str,
    *,
    sections: Sequence[str] = (),
    warnings: Sequence[str] = (),
    colour: discord.Colour = SUCCESS,
) -> discord.Embed:
    """A short confirmation: what changed (already escaped), chosen sections, build warnings."""
    embed = discord.Embed(title=_title(character), description=fit(summary, DESCRIPTION_LIMIT), colour=colour)
    for key in sections:
        name, lines = SECTIONS[key]
        add_lines(embed, MEMBERS if key == "resiliences" and character.is_extra else name, lines(character))
    if warnings:
        add_lines(embed, "Hero build check (advice only)", [f"• {w}" for w in warnings])
    return fit_embed(embed)


def damage_embed(result: DamageResult) -> discord.Embed:
    """What an attack did: the Resilience (or members) before and after, wounds and defeat."""
    character = result.character
    if character.is_extra:
        title = f": {count_of(result.members_lost, 'member')} defeated"
        lines = [f"Standing: {result.before} → {result.after}"]
    else:
        title = f": {result.taken} {result.resilience.label} damage"
        lines = [f"{result.resilience.label}: {result.before} → **{result.after}**"]
        if result.taken < result.amount:
            lines.append(f"({result.amount - result.taken} more found nothing left to take.)")
    if result.wound is not None:
        lines.append(f"A {result.wound.label} wound.")
    if result.already_defeated:
        lines.append("Already down: nothing more to take.")
    embed = discord.Embed(title=_title(character, title), description="\n".join(lines), colour=FAILURE)
    if result.defeated and result.condition is not None:
        if character.is_extra:
            text = "The whole group is out of the scene." if character.size > 1 else "Out of the scene."
        else:
            text = f"{result.condition.label}: {PENALTIES[result.resilience]} until it is 1 or more."
        embed.add_field(name="Defeated", value=text, inline=False)
    if result.burdens_added:
        added = [f"• {plain(b.name)} — {b.severity.label}" for b in result.burdens_added]
        add_lines(embed, "Burdens added", added)
    if result.burdens_skipped:
        skipped = [f"• {plain(b.name)} — {b.severity.label}" for b in result.burdens_skipped]
        add_lines(embed, "No room on the sheet for", skipped)
    return fit_embed(embed)


def recovery_embed(character: Character, title: str, result: RecoveryResult) -> discord.Embed:
    """Points each Resilience regained and the Burden a Long Breather eased."""
    lines = [
        f"{r.label} +{points} (now {resilience_current(character, r)}/{resilience_max(character, r)})"
        for r, points in result.restored.items()
        if points
    ]
    if result.standings:
        lines.append("Spent " + ", ".join(f"{s.label} +{n}" for s, n in result.standings.items()) + ".")
    lines = lines or ["Nothing to restore."]
    if result.eased_burden is not None:
        eased = result.eased_to.label if result.eased_to is not None else "gone"
        lines.append(f"Burden {plain(result.eased_burden)} eased: now {eased}.")
    embed = discord.Embed(title=_title(character, f": {title}"), description="\n".join(lines), colour=SUCCESS)
    add_lines(embed, "Resiliences", resilience_lines(character), inline=True)
    add_lines(embed, "Burdens", burden_lines(character), inline=True)
    return fit_embed(embed)


class RosterEntry(Protocol):
    """What a roster line shows of a character (storage's summaries have exactly this)."""

    @property
    def id(self) -> int: ...
    @property
    def name(self) -> str: ...
    @property
    def kind(self) -> CharacterKind: ...
    @property
    def owner_id(self) -> int: ...


def roster_embed(
    characters: Sequence[RosterEntry],
    *,
    title: str,
    active_id: int | None = None,
    hidden: Collection[int] = (),
    total: int | None = None,
    page: int = 1,
    pages: int = 1,
) -> discord.Embed:
    """Names, kinds and owners; mentions inside embeds show the member without pinging.
    ``hidden``: the Narrator's secret sheets, marked so (docs/rulings.md §7.1). ``title`` is
    already inert."""
    embed = discord.Embed(title=fit(title, TITLE_LIMIT), colour=INFO)
    lines: list[str] = []
    used = 0
    for index, c in enumerate(characters):
        mark = " (your active character)" if c.id == active_id else ""
        mark += " · hidden from players" if c.id in hidden else ""
        line = f"**{plain(c.name)}** · {c.kind.label} · <@{c.owner_id}>{mark}"
        if used + units(line) + 1 > DESCRIPTION_LIMIT - 40:
            lines.append(f"…and {len(characters) - index} more on this page.")
            break
        lines.append(line)
        used += units(line) + 1
    empty = "No characters yet. Make one with `/character create`."
    if total:
        empty = f"There is no page {page}: the list has {count_of(pages, 'page')}."
    embed.description = "\n".join(lines) or empty
    footer = count_of(len(characters) if total is None else total, "character")
    if pages > 1:
        footer += f" · page {page} of {pages}" + (f" (page:{page + 1} for more)" if page < pages else "")
    embed.set_footer(text=footer)
    return fit_embed(embed)
