"""The fake finds the server that holds a channel (``World.place_of``) as the world stands now:
what it remembered from an earlier look-up is checked against servers and channels that came or
went since."""

from fake_discord.world import FakeChannel, add_table_guild, default_world


def test_a_channel_is_found_in_its_server_among_many() -> None:
    world = default_world()
    guilds = [add_table_guild(world, f"server {n}", channels=2) for n in range(20)]
    wanted = guilds[13].channels[1]
    assert world.place_of(wanted.id) == (guilds[13], wanted)
    assert world.place_of(wanted.id) == (guilds[13], wanted)  # remembered, still right
    assert world.place_of(world.ids.next()) is None


def test_a_removed_channel_or_server_is_no_longer_found() -> None:
    world = default_world()
    guild = add_table_guild(world, "gone soon", channels=2)
    channel, other = guild.channels[0], guild.channels[1]
    assert world.place_of(channel.id) == (guild, channel)
    assert world.place_of(other.id) == (guild, other)
    guild.channels.remove(channel)
    assert world.place_of(channel.id) is None
    world.guilds.remove(guild)
    assert world.place_of(other.id) is None


def test_a_channel_moved_to_another_server_is_found_there() -> None:
    world = default_world()
    first, second = add_table_guild(world, "first"), add_table_guild(world, "second")
    channel = first.channels[0]
    assert world.place_of(channel.id) == (first, channel)
    first.channels.remove(channel)
    moved = FakeChannel(channel.id, channel.name)
    second.channels.append(moved)
    assert world.place_of(channel.id) == (second, moved)


def test_a_channel_is_found_by_its_id_as_a_number_or_as_text() -> None:
    guild = default_world().guild
    channel = guild.channels[0]
    assert guild.channel(channel.id) is channel
    assert guild.channel(str(channel.id)) is channel
    assert guild.channel(f"<#{channel.id}>") is channel
    assert guild.channel(f"#{channel.name.upper()}") is channel
