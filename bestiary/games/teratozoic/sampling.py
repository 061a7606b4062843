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

from typing import NamedTuple

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
        self.public = public
        self.seat = seat
        self.own = sorted(state.pool[seat])
        self.state = state
        self.drawn: tuple[int, ...] | None = None  # the lengths the last sample shuffled

    def deal(self, rng: Rng) -> tuple[Rng, Dealt]:
        """One sample drawn from ``rng``: its own RNG and its zones (the draws
        and their order are ``determinize``'s: the sample's RNG first, then
        each shuffle)."""
        forked = rng.fork()
        return forked, self._zones(rng)

    def hands(self, rng: Rng) -> Hands:
        """The hands of the sample ``deal(rng)`` makes (the same draws),
        without the rest of it: for a bot that reads the plays alone."""
        _fork_draws(rng)
        dealt = self._zones(rng)
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
        shuffling as many blank lists draws the same."""
        if self.drawn is None:
            self.hands(rng)
            return
        _fork_draws(rng)
        for n in self.drawn:
            rng.shuffle([0] * n)

    def _zones(self, rng: Rng) -> Dealt:
        shuffle = rng.shuffle
        drawn: list[int] = []  # the length of every list shuffled, in order
        first: dict[int, list[int]] = {}  # per seat: its Gene Pool's first cards
        in_hand: dict[int, list[int]] = {}  # per seat: sure cards its pool cannot hold
        for o in self.others:
            if o.known is None:
                continue
            sure, maybe = o.known[0][:], o.known[1][:]
            drawn += (len(sure), len(maybe))
            shuffle(sure)
            shuffle(maybe)
            first[o.seat] = (sure + maybe)[: o.pool]
            in_hand[o.seat] = sure[o.pool : o.pool + o.hidden]
        rest = sorted(self.free.difference(*first.values(), *in_hand.values()))
        drawn.append(len(rest))
        shuffle(rest)
        k = self.mutations
        mutations = rest[:k]
        mut_discard = self.discarded + rest[k : k + self.more]
        k += self.more
        pools: dict[int, list[int]] = {}
        hands: dict[int, tuple[list[int], list[int]]] = {}
        for o in self.others:
            mine = first.get(o.seat, [])
            pool = pools[o.seat] = mine + rest[k : k + o.pool - len(mine)]
            k += o.pool - len(mine)
            if o.known is not None:  # sure cards were put first: a random order
                drawn.append(len(pool))
                shuffle(pool)
            known = in_hand.get(o.seat, [])
            cards = known + rest[k : k + o.hidden - len(known)]
            k += o.hidden - len(known)
            if known:
                drawn.append(len(cards))
                shuffle(cards)
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
        own = pools[self.seat] = self.own[:]
        drawn.append(len(own))
        shuffle(own)
        self.drawn = tuple(drawn)
        return Dealt(mutations, mut_discard, pools, hands)


def _fork_draws(rng: Rng) -> None:
    """Draw what ``rng.fork()`` draws, without making the new RNG (for a
    sample whose own RNG is never used): fork seeds it with 63 random bits,
    two 32-bit words of the Mersenne Twister, and ``random()`` reads two
    words too (CPython's ``getrandbits`` and ``random``; the sampling tests
    hold the two streams equal)."""
    rng.random()
