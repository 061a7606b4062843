"""Monster Maker's phases and player statuses, the codes every other module
of the game reads (this module imports nothing of the game).

Cards are small ints (rows of the data files). Phases:

- ``trap``: the player who drew a trap avoids it with a Thief or loses three cards.
- ``turn``: the main choice (corridor, monster, fight, discard, pass) and the
  free ones (dispel, detour, secret door) when the options make them free.
- ``battle``: add characters, spells and weapons one at a time, then ``roll``.
- ``after``: after a battle: Heal, send a charmed monster on, (house rule)
  a corridor, or ``end turn``.
- ``door``: just arrived with a Secret Door and a Thief or Dwarf in hand.
- ``discard``: the action was used by a dispel (``dispel_costs_action``) and the
  hand is still over the limit: "You may not have 8 or more cards at the end
  of your turn", so the player discards down to it.
"""

from __future__ import annotations

from bestiary.i18n import N_

# Where a player is in the dungeon (§3 <The Road Back>, <Endgame>).
OUT, BACK, HOME, DEAD = 0, 1, 2, 3
STATUS = ("outward", "returning", "home", "dead")

#: "Choose and discard three of your cards" (§3 <Trap>).
TRAP_LOSS = 3

# What the seat to act is asked, by phase (the view's ``prompt``; English is the
# message id: render.py shows it in the current language).
PROMPTS = {
    "turn": N_("Your turn: one action — a corridor, a monster, a fight, a discard or pass"),
    "trap": N_("A trap: lose cards from your hand, or avoid it with a Thief"),
    "discard": N_("Over the hand limit after the dispel: discard a card"),
    "battle": N_("In battle: add characters, spells or weapons, then roll"),
    "after": N_("After the battle: heal, send a charmed monster, or end your turn"),
    "door": N_("The Secret Door: open it with a Thief or Dwarf, or leave it"),
}
