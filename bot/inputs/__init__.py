"""What users type, read in one place: names, lists of names, dice faces, closed choices, and
the pool a roll command describes (``pools``).

Each kind of input is an ``app_commands.Transformer`` (with autocomplete where it helps), so
every command reads it the same way and refuses the same bad input with the same words.
Autocomplete only suggests: every transformer checks the value it is finally given.
"""
