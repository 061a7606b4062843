"""What one seat cannot see, dealt anew (``TeratozoicState.determinize``).

A sample is worked out in two parts: what every sample of one state for one
seat shares (which cards are unseen, what is known of each Gene Pool, the
sizes: :class:`Sampler`, once) and the draws of one sample (:meth:`Sampler.deal`,
per sample). A bot that draws several samples of one decision pays the
first part once.

What everyone knows of another Gene Pool stays true (``lineage``, ``sure``):
its draw pile is dealt only from the cards seen going into it and not seen
leaving, those certainly still there first; the ones certainly there that the
draw pile cannot hold are in its owner's hidden hand. Cards seen going to the
Mutations Deck Discard Pile stay there (``mut_seen``). Everything else unseen
is dealt anywhere unseen. Every list is sorted before its shuffle: a sample
depends only on which cards are unseen and on public knowledge, never on
where they really lie (so a sample drawn from a sample, with the same draws,
is the very sample drawn from the real state: the audit's
``check_sampling_blind``).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any, NamedTuple, Self

from bestiary.engine import Rng

from .generation import TeratozoicGeneration, played_cards
from .view import hidden_hand, public_played


class Dealt(NamedTuple):
    """One sample's new zones (new lists, the caller's to keep)."""

    mutations: list[int]
    mut_discard: list[int]
    pools: dict[int, list[int]]  # every other seat's Gene Pool, and the seat's own reordered
    hands: dict[int, tuple[list[int], list[int]]]  # (hand, held) of seats whose hand was redealt


class Hands(NamedTuple):
    """What a sample holds in hand (``Sampler.hands``). Read only: the lists
    of the seats not dealt anew are those of the state sampled."""

    hand: list[list[int]]
    held: list[list[int]]
    tie_cards: list[list[int]]

    def played(self, seat: int) -> list[int]:
        return played_cards(self.hand[seat], self.held[seat], self.tie_cards[seat])


class _Other(NamedTuple):
    """What a sample keeps of another seat (see ``Sampler``)."""

    seat: int
    pool: int  # Gene Pool size
    hidden: int  # hidden hand cards
    held: int  # held-back cards (the hidden hand's first ones before Growth)
    face_up: tuple[list[int], list[int]] | None  # after Growth: its plays in order, kept held cards
    known: tuple[list[int], list[int]] | None  # sorted: certainly in its Gene Pool, maybe


class Sampler:
    """``determinize``'s deal for one state and seat. The state must not
    change while the sampler is used."""

    def __init__(self, state: TeratozoicGeneration, seat: int) -> None:
        public = public_played(state)
        others = [s for s in range(state.players) if s != seat]
        hidden: dict[int, int] = {}  # per other seat, its hidden hand cards
        unknown = state.mutations + state.mut_discard
        for s in others:
            hand = state.hand[s]
            cards = hand if not public else [hand[i] for i in hidden_hand(state, s)]
            hidden[s] = len(cards)
            unknown += state.pool[s]
            unknown += cards
        unseen = frozenset(unknown)  # each card once: the zones do not overlap
        self.discarded = sorted(state.mut_seen & unseen)  # seen going to the discard pile
        self.free = unseen.difference(self.discarded)
        self.mutations = len(state.mutations)
        self.more = len(state.mut_discard) - len(self.discarded)
        self.others: list[_Other] = []
        for s in others:
            held = state.held[s]
            face_up = None
            if public and held:
                # The plays are face up in their order; a kept recessive gene
                # is public; the other held cards are the hidden ones, after them.
                face_up = (
                    [c for c in state.hand[s] if c not in held],
                    sorted(c for c in held if c in state.kept),
                )
            lin = state.lineage[s]
            known = None
            if lin is not None:
                sure = state.sure[s]
                known = (sorted(sure & unseen), sorted((lin - sure) & unseen))
            size = len(state.pool[s])
            self.others.append(_Other(s, size, hidden[s], len(held), face_up, known))
        # What every sample deals from when no Gene Pool is partly known.
        partly = any(o.known is not None for o in self.others)
        self.free_sorted = () if partly else tuple(sorted(self.free))
        self.public = public
        self.seat = seat
        self.own = sorted(state.pool[seat])
        self.state = state
        self.drawn: tuple[int, ...] | None = None  # the lengths the last sample shuffled
        self.skipped: tuple[tuple[int, int], ...] | None = None  # their steps (``skip``)

    def knowledge(self) -> dict[str, Any]:
        """All this sampler worked out but the state it reads the hands not
        dealt anew from: what the seat knows (which cards it has not seen,
        the sizes, what is public of each Gene Pool), nothing of where the
        unseen cards really lie."""
        known = dict(self.__dict__)
        del known["state"]
        return known

    @classmethod
    def knowing(cls, state: TeratozoicGeneration, knowledge: dict[str, Any]) -> Self:
        """The sampler of ``state`` for a seat whose ``knowledge`` (of a world
        it cannot tell from ``state``, such as the one ``state`` was sampled
        from) is worked out already: the same samples as a new one."""
        other = object.__new__(cls)
        other.__dict__.update(knowledge)
        other.state = state
        return other

    def deal(self, rng: Rng) -> tuple[Rng, Dealt]:
        """One sample drawn from ``rng``: its own RNG and its zones (the draws
        and their order are ``determinize``'s: the sample's RNG first, then
        each shuffle)."""
        forked = rng.fork()
        return forked, self._zones(rng)

    def hands(self, rng: Rng) -> Hands:
        """The hands of the sample ``deal(rng)`` makes (the same draws),
        without the rest of it: for a bot that reads the plays alone (the
        shuffles of the Gene Pools, whose order no hand depends on, are
        drawn and not made: ``_draw``)."""
        _fork_draws(rng)
        dealt = self._zones(rng, whole=False)
        hand, held = self.state.hand[:], self.state.held[:]
        for s, (cards, kept) in dealt.hands.items():
            hand[s], held[s] = cards, kept
        return Hands(hand, held, self.state.tie_cards)

    def skip(self, rng: Rng) -> None:
        """The draws of ``deal(rng)`` without the sample (a bot whose decision
        is settled draws the samples it will not read: its later samples must
        stay as they were). Every sample of one state shuffles lists of the
        same lengths (its zones' sizes; only which cards go where is drawn),
        and a shuffle draws by its list's length alone: after one sample,
        drawing for as many lists of those lengths draws the same."""
        if self.drawn is None:
            self.hands(rng)
            return
        _fork_draws(rng)
        if self.skipped is None:  # every shuffle's steps, in order, once
            self.skipped = tuple(itertools.chain.from_iterable(map(_steps, self.drawn)))
        _draw(_bits(rng), self.skipped)

    def _zones(self, rng: Rng, whole: bool = True) -> Dealt:
        """One sample's zones; without ``whole``, the hands alone (the other
        zones come back empty, their shuffles drawn)."""
        bits = _bits(rng)
        drawn: list[int] = []  # the length of every list shuffled, in order
        first: dict[int, list[int]] = {}  # per seat: its Gene Pool's first cards
        in_hand: dict[int, list[int]] = {}  # per seat: sure cards its pool cannot hold
        for o in self.others:
            if o.known is None:
                continue
            sure, maybe = o.known[0][:], o.known[1][:]
            drawn += (len(sure), len(maybe))
            _shuffle(bits, sure)
            _shuffle(bits, maybe)
            first[o.seat] = (sure + maybe)[: o.pool]
            in_hand[o.seat] = sure[o.pool : o.pool + o.hidden]
        rest = (
            sorted(self.free.difference(*first.values(), *in_hand.values()))
            if first
            else list(self.free_sorted)
        )
        drawn.append(len(rest))
        # Without ``whole`` nothing reads the Mutations Deck and its discard
        # pile, the first cards of ``rest``: the shuffle need not place them.
        _shuffle(bits, rest, 0 if whole else self.mutations + self.more)
        k = self.mutations
        mutations = rest[:k] if whole else []
        mut_discard = self.discarded + rest[k : k + self.more] if whole else []
        k += self.more
        pools: dict[int, list[int]] = {}
        hands: dict[int, tuple[list[int], list[int]]] = {}
        for o in self.others:
            mine = first.get(o.seat, [])
            size = o.pool - len(mine)
            if whole:
                pools[o.seat] = mine + rest[k : k + size]
            if o.known is not None:  # sure cards were put first: a random order
                n = len(mine) + min(size, max(len(rest) - k, 0))  # the pool's length
                drawn.append(n)
                if whole:
                    _shuffle(bits, pools[o.seat])
                else:
                    _draw(bits, _steps(n))
            k += size
            known = in_hand.get(o.seat, [])
            cards = known + rest[k : k + o.hidden - len(known)]
            k += o.hidden - len(known)
            if known:
                drawn.append(len(cards))
                _shuffle(bits, cards)
            # Which cards a seat holds back is its secret ("Recessive genes ...
            # are placed face down"): others see how many, never which, nor
            # where they lie in the hand. So the sample lays the hand out from
            # what is seen, not from the real places of that choice.
            if not self.public:
                # The whole hand is hidden: the seat holds back its first cards.
                hands[o.seat] = (cards, cards[: o.held])
            elif o.face_up is not None:
                shown, kept = o.face_up
                hands[o.seat] = (shown + kept + cards, kept + cards)
        drawn.append(len(self.own))
        if whole:
            own = pools[self.seat] = self.own[:]
            _shuffle(bits, own)
        else:
            _draw(bits, _steps(len(self.own)))
        self.drawn = tuple(drawn)
        return Dealt(mutations, mut_discard, pools, hands)


def _fork_draws(rng: Rng) -> None:
    """Draw what ``rng.fork()`` draws, without making the new RNG (for a
    sample whose own RNG is never used): fork seeds it with 63 random bits,
    two 32-bit words of the Mersenne Twister, and ``random()`` reads two
    words too (CPython's ``getrandbits`` and ``random``; the sampling tests
    hold the two streams equal)."""
    rng.random()


# ``Rng.shuffle`` and its draws alone, with fewer steps per card (a sample is
# a handful of shuffles, and the heuristic bot draws six samples for each
# expression decision: they were an eighth of its games' time). Per list
# length, Fisher-Yates' steps from the end: (i, k) swaps position i with
# ``getrandbits(k)``, k = (i + 1).bit_length(), drawn again while above i;
# exactly ``Rng.shuffle``'s calls (``tests/games/teratozoic/test_cheaper_bot.py``
# holds the orders and the streams equal).
_STEPS: dict[int, tuple[tuple[int, int], ...]] = {}


def _steps(n: int) -> tuple[tuple[int, int], ...]:
    got = _STEPS.get(n)
    if got is None:
        got = _STEPS[n] = tuple((i, (i + 1).bit_length()) for i in range(n - 1, 0, -1))
    return got


def _bits(rng: Rng) -> Callable[[int], int]:
    """``rng``'s ``getrandbits``, the call ``Rng.shuffle`` makes per step (an
    RNG copied lazily, ``Rng.copy``, loads its state at the first)."""
    return rng.bits()


def _shuffle(bits: Callable[[int], int], seq: list[int], low: int = 0) -> None:
    """``rng.shuffle(seq)`` for ``bits = _bits(rng)``: the same draws, and the
    same order from position ``low`` on (the positions before it are left as
    they come: Fisher-Yates from the end has placed every later one by the
    time it reaches them)."""
    n = len(seq)
    if n < 2:
        return  # no draws
    steps = _steps(n)
    placed = max(n - low, 0)  # steps run i = n - 1 down to 1
    for i, k in steps[:placed]:
        j = bits(k)
        while j > i:
            j = bits(k)
        seq[i], seq[j] = seq[j], seq[i]
    if placed < n - 1:
        _draw(bits, steps[placed:])


def _draw(bits: Callable[[int], int], steps: tuple[tuple[int, int], ...]) -> None:
    """The draws of these steps of a shuffle, for a list whose order nothing
    reads (a shuffle draws by its list's length alone)."""
    for i, k in steps:
        while bits(k) > i:
            pass
