"""The taxonomy game's constants as arrays, read from the game's data files.

Nothing here is retyped: the deck comes from ``data/monsters.csv`` and
``data/natures.toml`` (through the Python engine's loader, ``cards.py``), the
points from ``data/scoring.toml`` (``scoring_file.py``, ``scoring.table_points``),
the action offsets from the Python engine's ``Moves`` and the observation layout
from its ``Observer`` — so the JAX port and the Python engine cannot drift
apart on data. Only the default options of rules v0.2 are ported.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
import numpy.typing as npt

from ..games.taxonomy.actions import (
    ATTACK,
    CLAIM,
    DISCARD,
    DRAW,
    KEEP,
    MAX_SEATS,
    NO_ATTACK,
    PASS,
    RPS,
    STOP,
    TABLE,
    WIN,
    moves_for,
)
from ..games.taxonomy.cards import NATURE_BIT
from ..games.taxonomy.ruleset import V02
from ..games.taxonomy.scoring import HAND_SIZE, table_points

I32 = npt.NDArray[np.int32]
F32 = npt.NDArray[np.float32]
B = npt.NDArray[np.bool_]


@dataclass(frozen=True, eq=False)
class Tables:
    """Per card, per key and per roll constants of the shipped deck (v0.2 defaults)."""

    d: int  # cards
    k: int  # collecting keys
    g: int  # ban groups (a type; a Beastman family)
    primary: I32  # [d] a card's key by type/family/orphan set
    group: I32  # [d] its ban group
    nature: I32  # [d] printed natures (bit mask, cards.NATURES order)
    primary_onehot: B  # [d, k]
    cheer_key: int
    orphan: B  # [k]
    four: I32  # [k] content points of a set of 4 (and the 5 of a 5+3)
    eight: I32  # [k] content points of a set of 8
    methods: I32  # [3, 3]: by claims (0, 1, 2+), pattern 4+4 / 5+3 / 8
    three: int  # the 3 of a 5+3
    roll_logp: F32  # [r + 1] log-probability of a kept roll result 0..r (0 never)
    roll_bit: I32  # [r + 1] the nature bit a roll result gives
    rounds: int
    peek: int
    hand: int
    base: dict[int, int]  # action kind -> first index (the Python engine's Moves)
    num_actions: int
    max_seats: int


@cache
def tables() -> Tables:
    rules = V02
    deck = rules.deck()
    scoring = rules.scoring_table()
    d, k, g = deck.size, deck.num_keys, len(deck.group_names)
    primary = np.asarray(deck.primary, dtype=np.int32)
    onehot = np.zeros((d, k), dtype=np.bool_)
    onehot[np.arange(d), primary] = True
    orphan = np.zeros(k, dtype=np.bool_)
    for key in deck.orphan_keys:
        orphan[key] = True
    four, eight, methods = table_points(scoring, deck)
    seven_plus_one = rules.orphan_eight == "seven-plus-one"
    if not seven_plus_one or not rules.loyal or rules.claim_window != "eligible":
        raise ValueError("the JAX port plays rules v0.2 with its default options only")
    # A miscellaneous roll: the dice of natures.toml, results outside its list
    # rolled again, so a kept result r has probability P(r) / P(1..len).
    table = deck.natures
    dist = table.dice.distribution()
    r = len(table.roll)
    prob = np.zeros(r + 1, dtype=np.float64)
    bit = np.zeros(r + 1, dtype=np.int32)
    for i in range(1, r + 1):
        prob[i] = dist.get(i, 0.0)
        bit[i] = NATURE_BIT.get(table.roll[i - 1], 0)
    prob /= prob.sum()
    with np.errstate(divide="ignore"):
        logp = np.log(prob).astype(np.float32)
    mv = moves_for(deck)
    base = {
        DISCARD: mv.index(mv.discard[0]),
        TABLE: mv.index(mv.table[0]),
        WIN: mv.index(mv.win),
        CLAIM: mv.index(mv.claim[0]),
        PASS: mv.index(mv.pass_),
        DRAW: mv.index(mv.draw),
        STOP: mv.index(mv.stop),
        ATTACK: mv.index(mv.attack[0]),
        NO_ATTACK: mv.index(mv.no_attack),
        RPS: mv.index(mv.rps[0]),
        KEEP: mv.index(mv.keep[0]),
    }
    return Tables(
        d=d,
        k=k,
        g=g,
        primary=primary,
        group=np.asarray(deck.group_of, dtype=np.int32),
        nature=np.asarray(deck.nature_mask, dtype=np.int32),
        primary_onehot=onehot,
        cheer_key=deck.cheerful_key,
        orphan=orphan,
        four=np.asarray(four, dtype=np.int32),
        eight=np.asarray(eight, dtype=np.int32),
        methods=np.asarray(methods, dtype=np.int32),
        three=scoring.three_of_five_three,
        roll_logp=logp,
        roll_bit=bit,
        rounds=rules.rounds,
        peek=rules.peek,
        hand=HAND_SIZE,
        base=base,
        num_actions=mv.count,
        max_seats=MAX_SEATS,
    )
