"""A campaign across nights (docs/rulings.md §10): the awards a night earns, the Narrator's
Secrets, the Burden trigger read from a Conflict, and the Narrator's own opposition templates.

What belongs to one sheet (its ledger, its subplots' stages, its Secrets known, what it may buy)
is in ``rules.character``; this package holds what spans sheets and nights.
"""
