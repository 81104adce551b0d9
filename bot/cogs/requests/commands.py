"""``/request roll`` and ``/request contest``: the Narrator asks for rolls with one command, and
each player rolls from their own button (docs/rulings.md §6.13).

Whom to ask: the Heroes named, else the Heroes in this channel's Conflict, else every member's
active Hero in the server. Each must have the stat asked for, checked before anything is saved,
so a request never waits on a roll nobody can make.
"""

from collections.abc import Callable

from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

from bot.checks import narrator_only
from bot.client import Interaction, MistbornClient
from bot.cogs.requests.buttons import BUTTONS
from bot.cogs.requests.rolling import ask, catch_up
from bot.errors import BotError, invalid_option
from bot.inputs.characters import AnyCharacter
from bot.inputs.choices import Net
from bot.inputs.circumstances import scene_circumstances
from bot.inputs.heroes import heroes_at_table
from bot.inputs.options import DIFFICULTY, DiceCount, Difficulty, StatName
from bot.inputs.sheet_parts import opponent_stat_choices, stat_choices
from bot.render.common import plain
from rules.character import CharacterKind
from rules.character.stats import find_stat
from rules.contest import MAX_ROLLERS as SIDE_MAX
from rules.contest import Side
from rules.errors import RulesError
from rules.outcome import DEFAULT_DIFFICULTY
from rules.request import MAX_ROLLERS, NewRoller, RequestKind, RequestSpec
from rules.words import count_of
from storage import StoredCharacter

Hint = app_commands.Range[str, 1, 200]
Names = app_commands.Range[str, 1, 1000]

DESCRIBE = {
    "stat": "The Attribute, Standing or Power to roll",
    "difficulty": DIFFICULTY,
    "heroes": "Who rolls, by name, e.g. Vin, Kelsier (default: the Heroes at this table)",
    "traits": "Traits you suggest (the players choose their own)",
    "circumstances": "+1 favourable, −1 adverse, 0 none (default: this scene's, /scene circumstances)",
    "circumstances_note": "Why, in a few words (shown with the request)",
    "secret": "Only the Narrators see the results",
}


def checked_spec(**options: object) -> RequestSpec:
    """The request's options as the model reads them; Discord's client enforces ranges and
    lengths, but a raw payload may not, so a value out of bounds is refused in plain words."""
    try:
        return RequestSpec.model_validate(options)
    except ValidationError as error:
        raise BotError(invalid_option(error)) from None


async def circumstances_for(
    interaction: Interaction, given: int | None, note: str | None
) -> dict[str, object]:
    """The request's Circumstances: the Narrator's own, else the scene's as they stand now."""
    if given is None:
        scene = await scene_circumstances(interaction)
        return {"circumstance_dice": scene.net, "circumstances": note or scene.note}
    return {"circumstance_dice": given, "circumstances": note or ""}


def rollers_for(heroes: list[StoredCharacter], stat: str, side: Side) -> list[NewRoller]:
    """A roller per Hero, each checked to have the stat (a refusal names who lacks it)."""
    if not heroes:
        raise BotError(
            "Nobody to ask: name the Heroes (`heroes:`), or have the players choose their Hero "
            "with /character use."
        )
    for hero in heroes:
        try:
            find_stat(hero.character, stat)
        except RulesError as error:
            raise BotError(str(error)) from None
    return [
        NewRoller(side=side, character_id=h.id, user_id=h.character.owner_id, name=h.character.name)
        for h in heroes
    ]


@app_commands.guild_only()
class RequestCommands(
    commands.GroupCog,
    group_name="request",
    group_description="Narrators: ask players for a roll or a Contest",
):
    def __init__(self, bot: MistbornClient) -> None:
        self.bot = bot
        super().__init__()

    async def cog_load(self) -> None:
        self.bot.add_dynamic_items(*BUTTONS)
        self.bot.catch_up.passes.append(self.catch_up)

    async def cog_unload(self) -> None:
        self.bot.remove_dynamic_items(*BUTTONS)
        self.bot.catch_up.passes.remove(self.catch_up)

    async def catch_up(self, owns: Callable[[int], bool]) -> None:
        """At start: request messages show what was saved while the bot was away."""
        await catch_up(self.bot, owns)

    @app_commands.command(name="roll", description="Ask players to roll a stat, each from their own button")
    @app_commands.describe(**DESCRIBE)
    @app_commands.autocomplete(stat=stat_choices)
    @narrator_only("ask for rolls")
    async def roll(
        self,
        interaction: Interaction,
        stat: StatName,
        difficulty: Difficulty = DEFAULT_DIFFICULTY,
        heroes: Names | None = None,
        traits: Hint | None = None,
        circumstances: Net | None = None,
        circumstances_note: Hint | None = None,
        secret: bool = False,
    ) -> None:
        found = await heroes_at_table(interaction, heroes, MAX_ROLLERS)
        if len(found) > MAX_ROLLERS:
            raise BotError(f"A request asks at most {MAX_ROLLERS} Heroes; name them with `heroes:`.")
        spec = checked_spec(
            stat=stat,
            difficulty=difficulty,
            traits=traits or "",
            secret=secret,
            **await circumstances_for(interaction, circumstances, circumstances_note),
        )
        await ask(interaction, RequestKind.ROLL, spec, rollers_for(found, stat, Side.ACTING))

    @app_commands.command(
        name="contest", description="Ask for a Contest: each side rolls from its own button"
    )
    @app_commands.describe(
        **DESCRIBE,
        opponent="The resisting character (its controller rolls it)",
        opponent_stat="The resisting side's stat or Power",
        opponent_dice="Or the resisting side's dice, rolled by you",
    )
    @app_commands.autocomplete(stat=stat_choices, opponent_stat=opponent_stat_choices)
    @narrator_only("ask for a Contest")
    async def contest(
        self,
        interaction: Interaction,
        stat: StatName,
        difficulty: Difficulty = DEFAULT_DIFFICULTY,
        heroes: Names | None = None,
        opponent: AnyCharacter | None = None,
        opponent_stat: StatName | None = None,
        opponent_dice: DiceCount | None = None,
        traits: Hint | None = None,
        circumstances: Net | None = None,
        circumstances_note: Hint | None = None,
        secret: bool = False,
    ) -> None:
        if (opponent_stat is None) == (opponent_dice is None):
            raise BotError("Give the resisting side's stat (with `opponent`) or its dice, not both.")
        found = await heroes_at_table(interaction, heroes, MAX_ROLLERS)
        if len(found) > SIDE_MAX:
            raise BotError(f"A side of a Contest has at most {SIDE_MAX} rollers; name them with `heroes:`.")
        acting = rollers_for(found, stat, Side.ACTING)
        if opponent_stat is not None:
            if opponent is None:
                raise BotError("Name the opponent whose sheet has that stat.")
            opposing = rollers_for([opponent], opponent_stat, Side.OPPOSING)
            if opponent.character.kind is not CharacterKind.HERO:
                opposing = [r.model_copy(update={"user_id": interaction.user.id}) for r in opposing]
        else:
            name = count_of(opponent_dice or 0, "die")
            opposing = [NewRoller(side=Side.OPPOSING, character_id=0, user_id=interaction.user.id, name=name)]
        if any(r.character_id and r.character_id == o.character_id for r in acting for o in opposing):
            raise BotError(f"{plain(opposing[0].name)} cannot be on both sides of the Contest.")
        spec = checked_spec(
            stat=stat,
            difficulty=difficulty,
            traits=traits or "",
            secret=secret,
            opposing_stat=opponent_stat,
            **await circumstances_for(interaction, circumstances, circumstances_note),
            opposing_dice=opponent_dice,
        )
        await ask(interaction, RequestKind.CONTEST, spec, [*acting, *opposing])
