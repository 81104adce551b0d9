"""Powers in play (docs/rulings.md §9): pure functions over a sheet's Allomancy, Feruchemy and
Hemalurgy, each returning the changed sheet and, where charges move, every move
(``rules.powers.ledger``).

- ``burning``: starting, flaring and stopping a burn; what a Conflict charges for it.
- ``drinking``: vials, the Narrator's hand on reserves (set, impure, poison), Long Breathers.
- ``time``: the Narrator moves time on: burns pay, stores fill.
- ``feruchemy``: storing and tapping.
- ``pushes``: Steelpushes, Ironpulls and deflecting.
- ``metal_effects``: what each other metal does (Tin, Pewter flared, Zinc and Brass, Copper and
  Bronze, Atium, Gold, Electrum, Savants).
- ``mental``: what a Conflict asks of emotional Allomancy and storing (a flared soothing or
  rioting as a mental attack, Affect Crowd, Focused Emotion, a held emotion, Copper's shield,
  the Action Dice and Wits storing costs).
- ``bronze``: Bronze's sense and Copper's cloud.
- ``hemalurgy``: spikes and Blessings.
- ``rolls``: what all of it adds to one roll.
"""
