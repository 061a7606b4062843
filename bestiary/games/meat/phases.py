"""The phase and destiny-status codes every other module of the game reads.

The bottom of the package's imports (with ``cards.py``): ``rules.py``,
``view.py`` and the bots import these, and this module imports nothing of the
game, so no two modules import each other.
"""

from __future__ import annotations

# Phases, in the order a round meets them (RULES.md, "Otwarcie" … "Podsumowanie").
P_LEADER, P_DRAFT, P_DISCARD, P_TACTICS, P_WINDOW, P_ACTIVATION, P_RESPOND, P_OVER, P_PAY = range(9)
PHASE_NAMES = (
    "leaders",
    "draft",
    "hand limit",
    "tactics",
    "instants",
    "activation",
    "responses",
    "over",
    "paying",
)
# Destiny card status on the battlefield.
D_NONE, D_DOWN, D_READY, D_ARMED, D_ATTACHED, D_UNPAID = range(6)
