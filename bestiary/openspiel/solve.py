"""Solve a tabular game with OpenSpiel's CFR+ and measure policies on it.

The game is the ``.efg`` text :mod:`.efg` writes, loaded as OpenSpiel's C++
``efg_game``; CFR+ is OpenSpiel's C++ ``CFRPlusSolver`` and exploitability its
C++ ``exploitability`` (NashConv / 2 for two players: the mean of what a best
responder gains, in the game's returns, against each seat of the profile).

Our bots become tabular policies: at each information set (its first node in
the walk) a bot built afresh with seed 0 chooses from that seat's context
(view, legal moves, a determinization drawn with seed 0), and the policy
plays that action with probability 1 everywhere in the set. A bot that reads
only the view chooses the same at every node of the set; a search bot's
sample depends on the hidden cards, so its choice at the first node stands
for the set (a deterministic behaviour policy, which is what exploitability
needs). Agents that remember earlier decisions are asked without that memory.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pyspiel

from ..agents.base import make_agent
from ..agents.context import AgentContext
from ..engine.protocol import Game
from ..engine.rng import Rng
from .efg import Tree

Policy = dict[str, list[tuple[int, float]]]


@dataclass
class BotChoices:
    """One bot's action number at every information set it was asked about."""

    name: str
    spec: str
    choices: dict[tuple[int, int], int] = field(default_factory=dict)
    #: information sets off the bot's own line (an earlier choice of its seat
    #: was not the bot's): it is not asked there, since they are never reached
    #: when its seat plays the bot, whatever the other seat does
    skipped: set[tuple[int, int]] = field(default_factory=set)
    seconds: float = 0.0
    #: why it stopped before the walk ended (its time budget), or "" when complete
    stopped: str = ""


class BotHook:
    """The walk's hook (``write_efg(hook=...)``): asks each bot at each new
    information set on its own line. A bot whose total time passes ``budget``
    seconds is asked no more (:attr:`BotChoices.stopped` says how far it got)."""

    def __init__(self, game: Game, specs: Mapping[str, str], budget: float = float("inf")) -> None:
        self.game = game
        self.budget = budget
        self.bots = [BotChoices(name, spec) for name, spec in specs.items()]

    def __call__(
        self, state: Any, player: int, number: int, previous: tuple[int, int] | None
    ) -> None:
        engine = state.engine
        for bot in self.bots:
            if bot.stopped:
                continue
            if previous is not None:
                before = (player, previous[0])
                if before in bot.skipped or bot.choices[before] != previous[1]:
                    bot.skipped.add((player, number))
                    continue
            start = time.perf_counter()
            agent = make_agent(self.game, bot.spec, seed=0)
            action = agent.act(AgentContext(engine, player, Rng(0)))
            bot.choices[player, number] = engine.action_index(action)
            bot.seconds += time.perf_counter() - start
            if bot.seconds > self.budget:
                bot.stopped = (
                    f"stopped after {len(bot.choices):,} information sets "
                    f"({bot.seconds:.0f} s, over its {self.budget:.0f} s budget)"
                )


def bot_policy(tree: Tree, bot: BotChoices) -> Policy:
    """The bot as a pure tabular policy of the loaded ``.efg`` game. Off its
    own line (never reached while its seat plays it) it plays the first legal
    action, which changes no exploitability."""
    if bot.stopped:
        raise ValueError(f"{bot.name} was not asked everywhere: {bot.stopped}")
    policy: Policy = {}
    for (player, number), legal in tree.legal.items():
        action = bot.choices.get((player, number), legal[0])
        if action not in legal:
            raise ValueError(
                f"{bot.name} chose action {action} at player {player}'s information set "
                f"{number}, where the legal actions are {legal}"
            )
        # Every legal action listed (OpenSpiel's best response reads each one's
        # probability), the chosen one with 1.
        policy[Tree.infostate_string(player, number)] = [
            (tree.action_ids[a], 1.0 if a == action else 0.0) for a in legal
        ]
    return policy


def uniform_policy(tree: Tree) -> Policy:
    """Every legal action alike: the ``random`` bot as a tabular policy."""
    policy: Policy = {}
    for (player, number), legal in tree.legal.items():
        p = 1.0 / len(legal)
        policy[Tree.infostate_string(player, number)] = [(tree.action_ids[a], p) for a in legal]
    return policy


def exploitability(game: pyspiel.Game, policy: Policy | pyspiel.Policy) -> float:
    """OpenSpiel's exploitability (NashConv / 2) of a two-player zero-sum game."""
    if isinstance(policy, dict):
        policy = pyspiel.TabularPolicy(policy)
    return float(pyspiel.exploitability(game, policy))


@dataclass
class Solution:
    iterations: int
    exploitability: float
    seconds: float
    #: (iterations, exploitability) at each check
    curve: list[tuple[int, float]]
    policy: pyspiel.Policy
    #: the average policy's expected return for player 0 (the game's value, to the tolerance)
    value: float


def solve_cfr_plus(
    game: pyspiel.Game, *, target: float, max_iterations: int, check_every: int = 10
) -> Solution:
    """Run OpenSpiel's CFR+ until the average policy's exploitability is at most
    ``target`` (checked every ``check_every`` iterations) or ``max_iterations``."""
    solver = pyspiel.CFRPlusSolver(game)
    start = time.perf_counter()
    curve: list[tuple[int, float]] = []
    done = 0
    value = float("inf")
    while done < max_iterations:
        step = min(check_every, max_iterations - done)
        for _ in range(step):
            solver.evaluate_and_update_policy()
        done += step
        value = exploitability(game, solver.average_policy())
        curve.append((done, value))
        if value <= target:
            break
    seconds = time.perf_counter() - start
    average = solver.average_policy()
    returns = pyspiel.expected_returns(game.new_initial_state(), average, -1, True)
    return Solution(done, value, seconds, curve, average, float(returns[0]))
