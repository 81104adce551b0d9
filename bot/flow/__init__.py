"""Work that outlives one interaction, and the moves that drive it: Conflict moves and boards."""
