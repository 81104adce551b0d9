"""``bench.cold_bench`` (``testbed.cold_work``) times a defence click's own work: its duel must
stand where the dispatch bench's click finds it (an attack on Vin waiting for her defence), and
each phase must do the click's work on it, or the figures it prints measure something else."""

import random

import discord

from rules.character import CharacterKind
from rules.character.checked import make_character
from rules.conflict import Awaiting, Defend, Transition, apply, dump_conflict, load_conflict
from rules.conflict.events import Resolved
from testbed.cold_work import THUG, VIN, Defence, Sweeper, duel, median_us, phases


def the_duel() -> Defence:
    vin = make_character(
        name="Vin", kind=CharacterKind.HERO, owner_id=11, attributes={"physique": 3, "wits": 5}
    )
    thug = make_character(
        name="Thug", kind=CharacterKind.VILLAIN, owner_id=12, attributes={"physique": 5, "wits": 2}
    )
    return duel(vin, thug)


def test_the_duel_waits_for_vins_defence_against_the_thug() -> None:
    pending = the_duel().state.pending
    assert pending is not None
    assert (pending.attacker, pending.target, pending.awaiting) == (THUG, VIN, Awaiting.DEFENCE)


def test_the_phases_run_the_defence_and_its_document_reads_back_as_written() -> None:
    found = phases(the_duel(), 3)
    transition = found["rules: the defence applied"]()
    assert isinstance(transition, Transition)
    assert any(isinstance(e, Resolved) for e in transition.events)
    document = found["document: the new state written"]()
    assert isinstance(document, str)
    assert dump_conflict(load_conflict(document)) == document
    embed = found["reply: the outcome's embed"]()
    assert isinstance(embed, discord.Embed) and embed.description
    assert found["document read back (not remembered)"]() == load_conflict(document)


def test_the_defence_timed_is_the_one_a_click_makes() -> None:
    defence = the_duel()
    command = Defend(participant=VIN, dice=defence.state.participant(VIN).pile)
    settled = apply(defence.state, command, defence.sheets, random.Random(3)).state
    assert settled.pending is None or settled.pending.awaiting is not Awaiting.DEFENCE
    assert dump_conflict(settled) != dump_conflict(defence.state)


def test_a_cold_sample_sweeps_first_and_a_hot_one_does_not() -> None:
    swept: list[int] = []
    median_us(lambda: None, 5, lambda: swept.append(1))
    median_us(lambda: None, 5, None)
    assert len(swept) == 5
    sweeper = Sweeper(size=4096)
    sweeper()
    assert bytes(sweeper.target) == b"\x01" * 4096
