"""The JAX port of Monster Girl Taxonomy: its proof and its speed.

    python benchmarks/jax_taxonomy.py --games 10000          # the full proof
    python benchmarks/jax_taxonomy.py --games 0 --steps 200  # speed only

(a) ``--games N``: N random games (seeds 0..N-1, ``--players``) played move by
    move in the Python engine and in the JAX port from the same deal, compared
    at every step (``bestiary/jax/differential.py``: who acts, every seat's
    legal mask and observation, scores, result).
(b) random-play steps per second: ``jax.jit(jax.vmap(step))`` with a random
    legal move per game, at batch 1,024 and 8,192 (``--batches``), beside the
    Python engine's random play in the same run; the table names the device
    JAX used, so the same command on a GPU machine gives GPU figures.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time

try:
    import jax
    import jax.numpy as jnp
except ModuleNotFoundError:
    sys.exit("this benchmark needs JAX: pip install 'bestiary[jax]' (or pip install jax)")

from bestiary.games.taxonomy.game import TaxonomyGame
from bestiary.games.taxonomy.ruleset import V02
from bestiary.jax.differential import Tally, play_both
from bestiary.jax.play import batch_init, batch_random_step


def prove(games: int, players: int, first: int) -> int:
    tally = Tally()
    fails = 0
    t0 = time.perf_counter()
    done = 0
    try:
        for seed in range(first, first + games):
            try:
                play_both(seed, players, tally)
            except AssertionError as exc:
                fails += 1
                print(f"MISMATCH seed {seed}: {exc}", flush=True)
            done = seed - first + 1
            if done % 100 == 0 or done == games:
                rate = tally.steps / (time.perf_counter() - t0)
                print(
                    f"  {done}/{games} games, {tally.steps} steps compared, "
                    f"{fails} mismatched ({rate:.0f} steps/s)",
                    flush=True,
                )
    except KeyboardInterrupt:  # a stopped run still says what it compared
        print(f"  stopped after seed {first + done - 1}")
    kinds = ", ".join(f"{k} {n}" for k, n in sorted(tally.kinds.items()))
    print(
        f"differential: {done} games (seeds {first}-{first + done - 1}), {tally.steps} steps, "
        f"{fails} mismatched; moves: {kinds}"
    )
    print(f"  ({time.perf_counter() - t0:.1f} s with compilation)", flush=True)
    return fails


def python_rate(players: int, seconds: float) -> float:
    """The engine's random play: steps per second in this process."""
    game = TaxonomyGame()
    pick = random.Random(1)
    steps = 0
    seed = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        st = game.create(players, seed, V02)
        st.quiet()
        while not st.over:
            seat = st.to_act()[0]
            legal = st.legal(seat)
            st.apply(seat, legal[pick.randrange(len(legal))])
            steps += 1
        seed += 1
    return steps / (time.perf_counter() - t0)


def jax_rate(players: int, batch: int, steps: int) -> tuple[float, float]:
    """(steps per second, compile seconds) of jit(vmap(step)) random play."""
    start = batch_init(players)
    move = batch_random_step()
    key = jax.random.PRNGKey(batch)
    t0 = time.perf_counter()
    st = start(jax.random.split(key, batch))
    keys = jax.random.split(jax.random.fold_in(key, 1), batch)
    st = move(st, keys)
    jax.block_until_ready(st)
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    for i in range(steps):
        st = move(st, jax.random.split(jax.random.fold_in(key, i + 2), batch))
    jax.block_until_ready(st)
    elapsed = time.perf_counter() - t0
    if int(jnp.sum(st.over)):
        print(f"  note: {int(jnp.sum(st.over))} of {batch} games ended within {steps} steps")
    return batch * steps / elapsed, compile_s


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=20, help="games for the differential proof")
    ap.add_argument("--first-seed", type=int, default=0)
    ap.add_argument("--players", type=int, default=4, choices=range(2, 7))
    ap.add_argument("--batches", default="1024,8192", help="batch sizes, comma-separated")
    ap.add_argument("--steps", type=int, default=100, help="timed steps per batch")
    ap.add_argument("--python-seconds", type=float, default=10.0)
    args = ap.parse_args()
    try:
        batches = [int(b) for b in args.batches.split(",") if b.strip()]
    except ValueError:
        sys.exit(f"--batches takes whole numbers separated by commas, not {args.batches!r}")
    if any(b < 1 for b in batches) or args.games < 0 or args.steps < 1:
        sys.exit("--batches and --steps must be at least 1, --games at least 0")
    dev = jax.devices()[0]
    print(
        f"JAX {jax.__version__} on {dev.platform} ({dev.device_kind}); "
        f"Python {platform.python_version()}, {platform.machine()}"
    )
    fails = prove(args.games, args.players, args.first_seed) if args.games else 0
    rows = [("Python engine", "1", f"{python_rate(args.players, args.python_seconds):,.0f}", "-")]
    for b in batches:
        rate, compile_s = jax_rate(args.players, b, args.steps)
        rows.append(
            (f"JAX jit(vmap(step)), {dev.platform}", f"{b:,}", f"{rate:,.0f}", f"{compile_s:.1f}")
        )
    print(f"\nrandom play, {args.players} seats (steps per second)")
    print(f"| {'implementation':<32} | {'batch':>6} | {'steps/s':>10} | {'compile s':>9} |")
    print(f"|{'-' * 34}|{'-' * 8}|{'-' * 12}|{'-' * 11}|")
    for name, size, speed, comp in rows:
        print(f"| {name:<32} | {size:>6} | {speed:>10} | {comp:>9} |")
    sys.exit(1 if fails else 0)


if __name__ == "__main__":
    main()
