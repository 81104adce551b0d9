"""Whose turn it is to declare or act, as a question with buttons for the one who must move.

The engine says what the Conflict waits for (``rules.conflict.waiting``); this turns a declare
or act step into a :class:`Turn`: the character, the round, and the choices its buttons offer.
A turn is known by its key (round, step, character), so a click names the turn it answers and
is refused once that turn has passed, and the outbox knows whether the turn was asked already
(docs/rulings.md §4.21).

Of a shared resolve step (several characters with the same Action Dice, docs/rulings.md §4.7)
the first in declaration order is asked; the others may act first with ``/act`` and are asked
in turn. The character's controller is pinged: a Hero's player, or for a Villain or an Extras
group the Narrator who made its sheet (its owner), never a role, so nobody else is woken.

One rule in one place: :func:`movers` says who can move now, and both the prompts and the
``who:`` default (``bot.cogs.conflict.named.pick``) read it.
"""

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Literal

from bot.cogs.conflict.metal_offers import Offer, metal_offers
from bot.render.common import plain
from bot.render.visibility import Visibility
from rules.character import Character, CharacterKind, PowerType
from rules.conflict import Conflict, Event, Participant, Step, declaration_order, waiting
from rules.conflict.events import DamageDealt, Defeated
from rules.conflict.specs import DEFENCE_ATTRIBUTE
from rules.powers.pushes import burning_pusher

TurnStep = Literal["declare", "act"]
MAX_POOL = 10
MIN_POOL = 2


@dataclass(frozen=True)
class Turn:
    """A declare or act turn and what its buttons offer."""

    step: TurnStep
    round: int
    participant: int
    name: str
    targets: tuple[tuple[int, str], ...] = ()
    """Whom the character may attack (declare, or a new action on their turn)."""
    act_with: tuple[int, ...] = ()
    """Pool sizes the character may act with (empty: too few dice, only "not act")."""
    held: int | None = None
    """Action Dice held, when the table may see them."""
    stat: str = "Physique"
    """The Attribute the buttons roll: the one matching the Conflict's kind (docs/rulings.md §4.5)."""
    target_down: str = ""
    """The declared target, when it is defeated or gone: the action cannot be taken, so the
    buttons offer a new action or not acting, never the fallen target."""
    many: bool = False
    """An Extras group: its question takes plural verbs (docs/rulings.md §8.2)."""
    beat: bool = False
    """The extra action of a caught Beat: its pool comes from the dice left, and a new action
    costs nothing (docs/rulings.md §4.15)."""
    switched: bool = False
    """Switched to a new action this round already: one switch a round, so no new action is
    offered (docs/rulings.md §4.8); a Beat's new action is not a switch, so never for a Beat."""
    attacks: bool = False
    """The act is an attack on a standing target: its defeat Burden may be chosen first."""
    metals: tuple[Offer, ...] = ()
    """What an Allomancer may burn, flare or drink from the prompt; none for a hidden
    character, whose Powers are the Narrator's (docs/rulings.md §7.1, §9.2)."""
    allomancer: bool = False
    """A character with an Allomantic Power, shown or hidden (a hidden one's metals are on its
    Narrator's private prompt, ``bot.cogs.conflict.narrator_prompt``): a burn, flare or drink
    asks the prompt again, even when it leaves nothing more to offer (its old buttons would be
    stale)."""
    pushes_with: str = ""
    """Steel or Iron, while a shown character burns it: the declare menus offer a push (or pull)
    at each target (docs/rulings.md §9.3, §9.10); lighting or putting it out asks again."""

    @property
    def key(self) -> str:
        return f"{self.step}:{self.round}:{self.participant}" + (":beat" if self.beat else "")


def movers(conflict: Conflict) -> tuple[int, ...]:
    """Everyone who can move now: the declarer, the resolve step, the defender or the attacker
    with Nudges to spend."""
    return waiting(conflict).participants


def wits_ties(conflict: Conflict) -> list[tuple[Participant, ...]]:
    """Groups that tie on surprise and Wits, which the bot ordered by join order (§4.2)."""
    groups: dict[tuple[bool, int], list[Participant]] = {}
    for participant in declaration_order(conflict):
        groups.setdefault((participant.surprised, participant.wits), []).append(participant)
    return [tuple(group) for group in groups.values() if len(group) > 1]


def tie_note(conflict: Conflict, joined: Collection[int]) -> str:
    """For the Narrator only, once: the ties a join just made, settled by join order, and how to
    change them. Never said in public: with one side's Wits known, a tie tells the other's
    (docs/rulings.md §4.2, §7.1); the table sees only the order."""
    ties = [tie for tie in wits_ties(conflict) if any(p.id in joined for p in tie)]
    if not ties:
        return ""
    listed = "; ".join(" → ".join(plain(p.name) for p in tie) for tie in ties)
    everyone = ", ".join(plain(p.name) for p in declaration_order(conflict))
    return (
        f"Tied on Wits, so by join order: {listed}. To reorder: "
        f"`/conflict order names:{everyone}` (in the order you want)."
    )


def turn_of(conflict: Conflict, sheets: Mapping[int, Character], view: Visibility) -> Turn | None:
    """The declare or act turn the Conflict waits for, or None (a defence, Nudges, nothing),
    with the metals its character may burn, flare or drink, and the one it pushes with."""
    turn = _turn_of(conflict, sheets, view)
    if turn is None or turn.participant not in sheets:
        return turn
    sheet = sheets[turn.participant]
    allomancer = any(p.type is PowerType.ALLOMANCY for p in sheet.powers)
    if not view.shows(turn.participant):  # its metals are on its Narrator's private prompt
        return replace(turn, allomancer=allomancer)
    pushes_with = burning_pusher(sheet) or ""
    return replace(turn, metals=metal_offers(sheet), allomancer=allomancer, pushes_with=pushes_with)


def _turn_of(conflict: Conflict, sheets: Mapping[int, Character], view: Visibility) -> Turn | None:
    wait = waiting(conflict)
    if wait.step not in (Step.DECLARE, Step.ACT) or not wait.participants:
        return None
    actor = conflict.participant(wait.participants[0])
    targets = tuple(
        (p.id, p.name) for p in conflict.participants if not p.defeated and p.side is not actor.side
    )
    stat = DEFENCE_ATTRIBUTE[conflict.type].label
    if wait.step is Step.DECLARE:
        return Turn(
            "declare", conflict.round, actor.id, actor.name, targets=targets, stat=stat, many=actor.many
        )
    beat = actor.round.extra_action
    held = actor.round.defense_dice if beat else actor.round.action_dice  # a Beat's: the dice left (§4.15)
    down = _target_down(conflict, actor)
    switched = actor.round.switched and not beat
    declared = actor.round.declaration
    attacks = not down and declared is not None and declared.action.target is not None
    if not view.shows(actor.id):
        # A hidden character's buttons offer every size: their count would tell its dice.
        sizes = () if down else tuple(range(2, 11))
        return Turn(
            "act",
            conflict.round,
            actor.id,
            actor.name,
            targets,
            sizes,
            None,
            stat,
            down,
            actor.many,
            beat=beat,
            switched=switched,
            attacks=attacks,
        )
    sizes = () if down else tuple(range(MIN_POOL, min(MAX_POOL, held) + 1))
    return Turn(
        "act",
        conflict.round,
        actor.id,
        actor.name,
        targets,
        sizes,
        held,
        stat,
        down,
        actor.many,
        beat=beat,
        switched=switched,
        attacks=attacks,
    )


def _target_down(conflict: Conflict, actor: Participant) -> str:
    """The name of the declared action's target if it is defeated or has left, else ""."""
    declared = actor.round.declaration
    aim = declared.action.target if declared is not None else None
    if aim is None:
        return ""
    target = conflict.find(aim)
    if target is None:
        return conflict.departed_name(aim) or "their target"
    return target.name if target.defeated else ""


@dataclass(frozen=True)
class News:
    """A line a player is pinged with: ``user`` is who plays the Hero."""

    user: int
    text: str


def hero_news(events: Sequence[Event], conflict: Conflict, sheets: Mapping[int, Character]) -> list[News]:
    """What a Hero's player must be told by name: a new Burden, or defeat (docs/rulings.md §4.21),
    one line a player, in the order it happened."""
    news: dict[int, list[str]] = {}
    for event in events:
        who: int | None = None
        if isinstance(event, DamageDealt) and event.burdens_added:
            who = event.target
            names = ", ".join(plain(b.name) for b in event.burdens_added)
            text = f"**{plain(conflict.name_of(who))}** gains a Burden: {names}."
        elif isinstance(event, Defeated):
            who = event.participant
            text = f"**{plain(conflict.name_of(who))}** is defeated and takes no more turns."
        else:
            continue
        sheet = sheets.get(who) if who is not None else None
        if sheet is not None and sheet.kind is CharacterKind.HERO:
            news.setdefault(sheet.owner_id, []).append(text)
    return [News(user, " ".join(texts)) for user, texts in news.items()]
