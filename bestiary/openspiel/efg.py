"""Walk a whole OpenSpiel game tree and write it as a Gambit ``.efg`` file.

OpenSpiel loads ``.efg`` text as a C++ game (``pyspiel.load_efg_game``), on
which its C++ CFR+, best response and exploitability run without calling
back into Python at every node. The walk itself uses only OpenSpiel's state
API (chance outcomes, legal actions, ``information_state_string``, returns),
so the tree written is exactly the game the Python bridge plays.

- **Information sets** are numbered per player in order of first visit; two
  nodes share one when their ``information_state_string`` is equal (kept as a
  128-bit digest, not the text: the strings are whole views).
- **Actions** are labelled with the game's action numbers (``"412"``);
  OpenSpiel's loader gives labels ids in order of first appearance and
  expects each node's actions in ascending id, so the walk keeps the same
  numbering and writes every node's actions in that order
  (:attr:`Tree.action_ids` maps an action number to its id).
- **Checks**: every node of an information set has the same legal actions,
  and the game has perfect recall (every node of an information set is
  reached through the same earlier information set and action of its
  player); a game that breaks either is refused with :class:`TreeError`.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, TextIO

import pyspiel

#: Called once per information set, at its first node (the bots' choices are
#: taken there): ``hook(state, player, number, previous)``, where ``previous``
#: is the player's own information set and action before this one (None at its
#: first decision; the same at every node of the set, by perfect recall).
InfosetHook = Callable[[Any, int, int, "tuple[int, int] | None"], None]


class TreeError(ValueError):
    """The game cannot be written as a tabular game (see the module's checks)."""


class TreeTooLarge(TreeError):
    """The walk passed its node limit; ``nodes`` and ``seconds`` say how far it got."""

    def __init__(self, limit: int, seconds: float) -> None:
        super().__init__(f"the tree has more than {limit:,} nodes (walked for {seconds:.0f} s)")
        self.nodes = limit
        self.seconds = seconds


@dataclass
class Tree:
    """What the walk found: sizes, the information sets and the action ids."""

    players: int
    nodes: int = 0
    terminals: int = 0
    decisions: int = 0
    chance_nodes: int = 0
    max_depth: int = 0
    seconds: float = 0.0
    #: per player: information-state digest -> its number (1, 2, …)
    infosets: list[dict[bytes, int]] = field(default_factory=list)
    #: (player, number) -> the legal action numbers there (ascending)
    legal: dict[tuple[int, int], tuple[int, ...]] = field(default_factory=dict)
    #: action number -> the id OpenSpiel's loader gives its label
    action_ids: dict[int, int] = field(default_factory=dict)
    #: chance probabilities that leave each chance node (each sums to 1)
    chance_sums: list[Fraction] = field(default_factory=list)
    #: per player: information sets whose nodes follow different chance
    #: outcomes (with the deal at the root: sets where the seat cannot tell
    #: which deal it is in)
    hiding_chance: list[set[int]] = field(default_factory=list)

    def infoset_count(self, player: int) -> int:
        return len(self.infosets[player])

    @staticmethod
    def infostate_string(player: int, number: int) -> str:
        """The loaded game's ``information_state_string`` of an information set
        (OpenSpiel's efg_game: owner-observer-number-name; our names are empty)."""
        return f"{player}-{player}-{number}-"


def _digest(text: str) -> bytes:
    return hashlib.blake2b(text.encode(), digest_size=16).digest()


def _probability(p: float) -> Fraction:
    # Chance probabilities are 1/K: written exactly, so they sum to 1 exactly.
    return Fraction(p).limit_denominator(1_000_000)


class _Writer:
    def __init__(
        self,
        game: pyspiel.Game,
        out: TextIO,
        hook: InfosetHook | None,
        max_nodes: int,
    ) -> None:
        players = game.num_players()
        if players != 2:
            raise TreeError(f"only two-player games are written, not {players}")
        self.out = out
        self.hook = hook
        self.max_nodes = max_nodes
        self.tree = Tree(
            players=players,
            infosets=[{} for _ in range(players)],
            hiding_chance=[set() for _ in range(players)],
        )
        # (player, number) -> the player's previous (infoset, action), for perfect recall
        self.recall: dict[tuple[int, int], tuple[int, int] | None] = {}
        # (player, number) -> the chance outcomes on the path to its first node
        self.chance: dict[tuple[int, int], tuple[int, ...]] = {}
        self.payoffs: dict[tuple[float, ...], int] = {}
        self.start = time.monotonic()

    def label(self, action: int) -> int:
        ids = self.tree.action_ids
        if action not in ids:
            ids[action] = len(ids)
        return ids[action]

    def walk(
        self,
        state: Any,
        depth: int,
        last: tuple[tuple[int, int] | None, ...],
        chance: tuple[int, ...],
    ) -> None:
        tree = self.tree
        tree.nodes += 1
        tree.max_depth = max(tree.max_depth, depth)
        if tree.nodes > self.max_nodes:
            raise TreeTooLarge(self.max_nodes, time.monotonic() - self.start)
        write = self.out.write
        if state.is_terminal():
            tree.terminals += 1
            returns = tuple(float(r) for r in state.returns())
            outcome = self.payoffs.setdefault(returns, len(self.payoffs) + 1)
            write(f't "" {outcome} "" {{ {" ".join(repr(r) for r in returns)} }}\n')
            return
        if state.is_chance_node():
            tree.chance_nodes += 1
            outcomes = state.chance_outcomes()
            probs = [_probability(p) for _, p in outcomes]
            tree.chance_sums.append(sum(probs, Fraction(0)))
            listed = " ".join(f'"{a}" {p}' for (a, _), p in zip(outcomes, probs, strict=True))
            write(f'c "" {tree.chance_nodes} "" {{ {listed} }} 0\n')
            for action, _ in outcomes:
                self.walk(state.child(action), depth + 1, last, (*chance, action))
            return
        tree.decisions += 1
        player = state.current_player()
        legal = tuple(state.legal_actions())
        key = _digest(state.information_state_string(player))
        known = tree.infosets[player]
        number = known.get(key)
        if number is None:
            number = known[key] = len(known) + 1
            tree.legal[player, number] = legal
            self.recall[player, number] = last[player]
            self.chance[player, number] = chance
            if self.hook is not None:
                self.hook(state, player, number, last[player])
        else:
            self._check(player, number, legal, last[player])
            if self.chance[player, number] != chance:
                tree.hiding_chance[player].add(number)
        # Known labels first (their ids ascend), then new ones, which get the
        # next ids in the order written: every node's ids ascend.
        ids = self.tree.action_ids
        ordered = sorted((a for a in legal if a in ids), key=ids.__getitem__)
        ordered += [a for a in legal if a not in ids]
        for action in ordered:
            self.label(action)
        listed = " ".join(f'"{a}"' for a in ordered)
        write(f'p "" {player + 1} {number} "" {{ {listed} }} 0\n')
        for action in ordered:
            step = list(last)
            step[player] = (number, action)
            self.walk(state.child(action), depth + 1, tuple(step), chance)

    def _check(
        self, player: int, number: int, legal: tuple[int, ...], last: tuple[int, int] | None
    ) -> None:
        if self.tree.legal[player, number] != legal:
            raise TreeError(
                f"player {player}'s information set {number} has different legal actions "
                f"at two of its nodes: {self.tree.legal[player, number]} and {legal}"
            )
        if self.recall[player, number] != last:
            raise TreeError(
                f"no perfect recall: player {player}'s information set {number} is reached "
                f"after {self.recall[player, number]} and after {last}"
            )


def write_efg(
    game: pyspiel.Game,
    out: TextIO,
    *,
    title: str = "",
    hook: InfosetHook | None = None,
    max_nodes: int = 5_000_000,
) -> Tree:
    """Walk ``game`` (two players, finite) and write it to ``out`` as ``.efg``
    text; :class:`TreeTooLarge` past ``max_nodes`` nodes."""
    writer = _Writer(game, out, hook, max_nodes)
    name = title or game.get_type().long_name
    players = " ".join(f'"Player {p + 1}"' for p in range(game.num_players()))
    out.write(f'EFG 2 R "{_quote(name)}" {{ {players} }}\n')
    writer.walk(game.new_initial_state(), 0, (None,) * game.num_players(), ())
    writer.tree.seconds = time.monotonic() - writer.start
    return writer.tree


def _quote(text: str) -> str:
    return text.replace('"', "'")


def estimate_nodes(game: pyspiel.Game, probes: int, seed: int = 0) -> float:
    """Knuth's estimate of the tree's node count, for trees too large to walk:
    the mean, over ``probes`` random paths from the root (uniform choices,
    chance by its probabilities), of 1 + w1 + w1*w2 + …, where w_i is the
    number of choices at the path's i-th node (1/p at a chance node, for the
    outcome drawn with odds p). Unbiased; its spread is large."""
    rng = random.Random(seed)
    total = 0.0
    for _ in range(probes):
        state = game.new_initial_state()
        width = 1.0
        count = 1.0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                action, p = rng.choices(outcomes, [p for _, p in outcomes])[0]
                width /= p  # the importance weight of a branch drawn with odds p
            else:
                legal = state.legal_actions()
                action = rng.choice(legal)
                width *= len(legal)
            count += width
            state.apply_action(action)
        total += count
    return total / probes
