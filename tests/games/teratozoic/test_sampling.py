"""The sampler behind ``determinize`` (issue 31: the heuristic bot draws its
samples of one decision through one sampler, and only the hands it reads).

The bot's decisions must stay the same (issue 31: "same decisions on seeded
games"), and they do only if every sample it reads is the one
``determinize`` would have given and its RNG moves on exactly as before:
"Resample what ``seat`` cannot see ... the future shuffles come from ``rng``"
(``TeratozoicState.determinize``).
"""

from __future__ import annotations

from collections.abc import Iterator

from bestiary.engine import Rng
from bestiary.engine.audit import fingerprint
from bestiary.games.teratozoic.rules import TeratozoicState

from .helpers import new


def _states() -> Iterator[tuple[TeratozoicState, int]]:
    """States of every phase from random play (2 to 4 players), each with a seat."""
    for players, seed in ((2, 11), (3, 12), (4, 13)):
        st = new(players, seed=seed)
        rng = Rng(seed)
        step = 0
        while not st.over:
            if step % 9 == 0:
                yield st, step % players
            seat = st.to_act()[0]
            legal = st.legal(seat)
            st.apply(seat, legal[rng.randrange(len(legal))])
            step += 1


def _next(rng: Rng) -> list[int]:
    return [rng.randrange(1 << 30) for _ in range(3)]


def test_a_sampler_draws_what_determinize_draws() -> None:
    """Samples drawn one after another through one sampler are the very
    states ``determinize`` gives for the same RNG, and the RNG moves on alike;
    the hands alone (``hands``) are those states' hands, held cards and plays,
    with the same draws; ``skip`` draws what a sample draws."""
    phases = set()
    for n, (st, seat) in enumerate(_states()):
        phases.add(st.phase)
        a, b, c, d = Rng(n), Rng(n), Rng(n), Rng(n)
        sampler = st.sampler(seat)
        for k in range(3):
            real = st.determinize(seat, a)
            sample = sampler.sample(b)
            if k == 0:  # the whole state once; then what the bot reads
                assert fingerprint(sample) == fingerprint(real)
            hands = sampler.hands(c)
            for s in range(st.players):
                assert sample.hand[s] == hands.hand[s] == real.hand[s]
                assert sample.held[s] == hands.held[s] == real.held[s]
                assert hands.played(s) == real.played(s)
            sampler.skip(d)
        assert _next(a) == _next(b) == _next(c) == _next(d)
    assert {"expression", "growth", "breed-play", "breed-hand"} <= phases


def test_a_sample_samples_as_the_real_state_does() -> None:
    """The bot draws its first sample with ``determinize`` and the rest from
    that sample: a world the seat cannot tell from the real one must give the
    same samples from the same draws (what the audit's sampling-blind check
    asks of every game)."""
    for n, (st, seat) in enumerate(_states()):
        first = st.determinize(seat, Rng(3))
        ours, theirs = first.sampler(seat), st.sampler(seat)
        assert fingerprint(ours.sample(Rng(n))) == fingerprint(theirs.sample(Rng(n)))
