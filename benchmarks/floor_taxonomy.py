"""A floor for Monster Girl Taxonomy: the core loop's work with no protocol.

What a random self-play decision of ``bestiary bench taxonomy`` must do at
the least, written as tight as plain Python allows, and timed beside the
real game in one process (interleaved repeats, medians, ratio):

- the real deck (``load_deck()``: the same cards and collecting keys),
  shuffled with the same ``Rng``; 8 cards dealt to each of 4 seats;
- per seat, a count array of collecting keys in hand and the number of keys
  held four or more times (``big``), kept incrementally as in ``rules.py``;
- a turn: draw the top card, then one decision — discard a uniformly random
  card of the hand (counts updated);
- the claim window, as ``claim_window=eligible``: every other seat holding
  three cards of one of the discard's keys decides (claim that key or pass,
  uniformly); the first claimer in turn order lays the four cards down (a
  table set, counted in its key) and discards in its turn;
- a win check per draw: the hand wins when two different keys are each held
  four times (``big >= 2``: the cheapest stand-in for the scoring table; the
  real game tries every pattern, only when ``big > 0``); a win or an empty
  stock ends the round, and a game is four rounds.

Left out (the protocol and the rulebook's extras): action objects and their
legality checks, the ``to_act``/``legal``/``apply`` calls, natures and their
effect queue (aggressive duels, cheerful, mean, proud, honest peeks,
impatient draws), bans, the exact scoring patterns, and what
``determinize`` needs recorded. The ratio real/floor is the protocol and
those rules' price per decision.

    python benchmarks/floor_taxonomy.py [--seconds 1] [--repeats 7] [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from bestiary.engine import Rng, get_game
from bestiary.games.taxonomy.cards import load_deck
from bestiary.sim.bench import selfplay_once

PLAYERS = 4
HAND = 8
ROUNDS = 4


def floor_run(seconds: float, seed: int) -> tuple[int, int, float]:
    """Floor games for ``seconds``: (decisions, games, elapsed)."""
    deck = load_deck()
    keys_of = deck.keys_of
    nkeys = deck.num_keys
    size = deck.size
    rng = Rng(seed)
    rand = rng.randrange
    decisions = games = 0
    t0 = time.perf_counter()
    deadline = t0 + seconds
    while True:
        for _round in range(ROUNDS):
            stock = list(range(size))
            rng.shuffle(stock)
            hands: list[list[int]] = []
            hk: list[list[int]] = []
            big = [0] * PLAYERS
            tabled = [0] * PLAYERS
            for s in range(PLAYERS):
                hand = [stock.pop() for _ in range(HAND)]
                counts = [0] * nkeys
                for c in hand:
                    for k in keys_of[c]:
                        counts[k] += 1
                hands.append(hand)
                hk.append(counts)
                big[s] = sum(1 for x in counts if x >= 4)
            s = 0
            draw = True
            while True:
                hand, counts = hands[s], hk[s]
                if draw:
                    if not stock:
                        break  # the stock ran out: no winner
                    c = stock.pop()
                    hand.append(c)
                    for k in keys_of[c]:
                        counts[k] += 1
                        if counts[k] == 4:
                            big[s] += 1
                    if big[s] >= 2:
                        break  # a winning hand
                # The decision: discard one card.
                c = hand.pop(rand(len(hand)))
                decisions += 1
                for k in keys_of[c]:
                    counts[k] -= 1
                    if counts[k] == 3:
                        big[s] -= 1
                # The claim window: seats holding three of a key of the card.
                claimer = -1
                claim_key = -1
                ks = keys_of[c]
                for i in range(1, PLAYERS):
                    q = (s + i) % PLAYERS
                    if tabled[q] + 4 > HAND:
                        continue
                    hq = hk[q]
                    ok = [k for k in ks if hq[k] >= 3]
                    if not ok:
                        continue
                    pick = rand(len(ok) + 1)  # claim under one key, or pass
                    decisions += 1
                    if pick < len(ok) and claimer < 0:
                        claimer, claim_key = q, ok[pick]
                if claimer < 0:
                    s = (s + 1) % PLAYERS
                    draw = True
                    continue
                # Lay the set: the claimed card and three hand cards of the key.
                hq, cq = hands[claimer], hk[claimer]
                laid = [x for x in hq if claim_key in keys_of[x]][:3]
                for x in laid:
                    hq.remove(x)
                    for k in keys_of[x]:
                        cq[k] -= 1
                        if cq[k] == 3:
                            big[claimer] -= 1
                tabled[claimer] += 4
                s = claimer
                draw = False  # the claimer discards next
        games += 1
        now = time.perf_counter()
        if now >= deadline:
            return decisions, games, now - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--seconds", type=float, default=1.0)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    game = get_game("taxonomy")
    floor_run(0.2, 1)  # warm-up
    selfplay_once(game, PLAYERS, 0.2, 1, None, None)
    us: dict[str, list[float]] = {"taxonomy": [], "floor": []}
    per_game: dict[str, list[float]] = {"taxonomy": [], "floor": []}
    for r in range(args.repeats):  # interleaved: noise hits both alike
        d, g, el = selfplay_once(game, PLAYERS, args.seconds, 1000 + r, None, None)
        us["taxonomy"].append(el / d * 1e6)
        per_game["taxonomy"].append(d / g)
        d, g, el = floor_run(args.seconds, 1000 + r)
        us["floor"].append(el / d * 1e6)
        per_game["floor"].append(d / g)
    med = {k: statistics.median(v) for k, v in us.items()}
    ratio = med["taxonomy"] / med["floor"]
    if args.json:
        out = {
            "us_per_decision_median": med,
            "decisions_per_game_median": {k: statistics.median(v) for k, v in per_game.items()},
            "taxonomy_over_floor": ratio,
            "target": 3.0,
            "met": ratio <= 3.0,
            "us_per_decision_all": us,
            "repeats": args.repeats,
            "seconds_per_repeat": args.seconds,
        }
        print(json.dumps(out, indent=2))
        return
    print(f"taxonomy, 4 players, random self-play: median of {args.repeats} × {args.seconds:g}s")
    for k, v in med.items():
        dpg = statistics.median(per_game[k])
        print(f"  {k:10s} {v:8.2f} µs/decision   {dpg:6.0f} decisions/game")
    mark = "met" if ratio <= 3.0 else "NOT met"
    print(f"  taxonomy / floor: {ratio:.2f}× (target ≤ 3×: {mark})")


if __name__ == "__main__":
    main()
