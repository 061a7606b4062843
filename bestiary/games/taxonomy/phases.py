"""The phases of a taxonomy turn, in one place: who acts, and what ends each.

    phase (view name)    who acts                        what ends it
    -------------------  ------------------------------  ---------------------------------
    MAIN "discard"       the player whose turn it is,    a discard (its natures resolve),
                         over 8 (hand and table sets)    a tabled drawn card, or a win
    ATTACK_CHOICE        the discarder of an             "attack <seat>" (a duel) or
      "attack"           aggressive monster              "no attack"
    DUEL "duel"          the attacker and the target,    both chose; a tie plays again
                         in secret                       (rps_ties); the loser loses a turn
    IMPATIENT_CHOICE     the player who drew an          "draw" (another card) or "stop"
      "impatient"        impatient monster
    DECLARE "declare"    the player whose refill draw    "win" or "pass"
                         made a winning hand
    CLAIM_WINDOW         the seats that may claim the    every asked seat answered; the
      "claim"            top discard, in secret          first claimer in turn order lays
                                                         the set, then discards
    OVER "over"          nobody

The turn that drives them (``rules.py``): draw, resolve the effect queue
(``natures.py``), then by the hand-size rule: more than 8 -> ``discard``;
fewer -> draw; exactly 8 -> the turn ends and a claim window may open
(``claims.py``), else the next seat's turn begins.
"""

from __future__ import annotations

MAIN = "discard"
ATTACK_CHOICE = "attack"
DUEL = "duel"
IMPATIENT_CHOICE = "impatient"
CLAIM_WINDOW = "claim"
DECLARE = "declare"
OVER = "over"
