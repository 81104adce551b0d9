"""Everything the bot shows: embeds built from rules data. No rules logic lives here."""
