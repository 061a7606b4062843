"""Balance by simulation: ``python -m bestiary.games.meat.balance [games] [players]``.

Factions: every faction gets a heuristic bot that favours it in the draft
(``heuristic:faction=<f>``); each pair of factions plays ``games`` matches
with seats rotated, and a faction's win rate is over all its matches.
Leaders: equal heuristic bots take random leaders; a leader's win rate is
the share of its seat-games that its side won.
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from itertools import combinations
from typing import Any

from bestiary.engine import get_game
from bestiary.sim.runner import play_game

from .cards import FACTIONS


def faction_table(games: int, players: int = 2, seed: int = 0) -> dict[str, dict[str, float]]:
    game = get_game("meat")
    wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for a, b in combinations(FACTIONS, 2):
        sa, sb = f"heuristic:faction={a}", f"heuristic:faction={b}"
        for i in range(games):
            seats = [sa, sb] * (players // 2) if i % 2 == 0 else [sb, sa] * (players // 2)
            res = play_game(game, seats, seed + i).result
            played[a] += 1
            played[b] += 1
            if res.winners:
                wins[a if seats[res.winners[0]] == sa else b] += 1
    return {f: {"games": played[f], "win_rate": wins[f] / max(played[f], 1)} for f in FACTIONS}


def leader_table(games: int, players: int = 2, seed: int = 10_000) -> dict[str, dict[str, float]]:
    game = get_game("meat")
    wins: Counter[str] = Counter()
    played: Counter[str] = Counter()
    for i in range(games):
        res = play_game(game, ["heuristic:leader=random"] * players, seed + i).result
        leaders = res.stats["player_leaders"]
        for s, name in enumerate(leaders):
            played[name] += 1
            if s in res.winners:
                wins[name] += 1
    return {k: {"games": played[k], "win_rate": wins[k] / played[k]} for k in sorted(played)}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bestiary.games.meat.balance",
        description="Win rates of the four factions (heuristic bots that favour one "
        "faction in the draft, every pair) and of the leaders (random leaders).",
    )
    parser.add_argument(
        "games", nargs="?", type=_positive, default=100, help="games per faction pair (100)"
    )
    parser.add_argument(
        "players",
        nargs="?",
        type=int,
        choices=(2, 4, 6),
        default=2,
        metavar="players",
        help="2, 4 or 6 (2)",
    )
    return parser


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


def main(argv: list[str]) -> None:
    args = _parser().parse_args(argv)
    games, players = args.games, args.players
    out: dict[str, Any] = {
        "factions": faction_table(games, players),
        "leaders": leader_table(games * 3, players),
    }
    for section, rows in out.items():
        print(f"{section} ({players} players)")
        for name, row in rows.items():
            print(f"  {name:28s} {row['games']:5d} games  win rate {row['win_rate']:.1%}")


if __name__ == "__main__":
    main(sys.argv[1:])
