"""Teratozoic's rules: the Eras, Gene Pools and the four phases of a generation.

The state is built in layers, one module each, importing downward only:
``phases.py`` (the phase names), ``ruleset.py`` (the options),
``board.py`` (the table and drawing), ``generation.py`` (the phases of a
generation and the end) and this module (the protocol: whose decision,
legal moves, ``apply``, copies, determinization; ``view.py`` cuts what each
seat sees).

A generation (rulebook, "How To Play"):

1. Expression — from the previous winner clockwise, each player holds back
   recessive genes face down (``hold <card>``) and then declares
   (``express``); the Era card sets the minimum played.
2. Growth — everyone builds at once (``build best`` / ``build flat``),
   hidden until all have chosen; the most valuable play wins; ties: every
   player puts the next Gene Pool card into play and rescores, until there
   is a clear winner.
3. Breeding — the winner takes cards from any play (``take <card>``), then
   from the winner clockwise each player keeps cards from their own hand
   (``keep <card>``), exactly as many as the Era card says when possible.
4. Mutation — clean-up and new hands from the winner clockwise, Mutations
   Deck first; Era changes mid-draw; elimination; the end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from bestiary.engine import Game, IllegalAction, Result, Rng
from bestiary.engine.legality import legal_at, not_your_turn, require_legal
from bestiary.i18n import domain

from .actions import (
    BUILD_BEST,
    BUILD_FLAT,
    BUILD_PLACED,
    EXPRESS,
    Attach,
    BuildChoice,
    Express,
    Hold,
    Keep,
    Start,
    Take,
)
from .generation import TeratozoicGeneration
from .ruleset import ELIMINATION, HAND, TeratozoicRules, era_stack, removed_third
from .sampling import Sampler
from .view import PARTIAL_FIELDS, hidden_hand, partial_view, public_played, seat_view

_ = domain("teratozoic", __file__)

__all__ = [
    "BUILD_BEST",
    "BUILD_FLAT",
    "BUILD_PLACED",
    "ELIMINATION",
    "EXPRESS",
    "HAND",
    "Attach",
    "BuildChoice",
    "Express",
    "Hold",
    "Keep",
    "Start",
    "Take",
    "TeratozoicRules",
    "TeratozoicState",
    "era_stack",
    "removed_third",
]


class TeratozoicState(TeratozoicGeneration):
    """One match: the protocol over the generation (``generation.py``) and the
    table (``board.py``). Piles are lists whose END is the top card."""

    def __init__(self, game: Game, players: int, seed: int, rules: TeratozoicRules) -> None:
        super().__init__(game, players, seed, rules)
        self._draw_round(self.previous_winner)
        self._start_generation()

    def to_act(self) -> tuple[int, ...]:
        owed = self._to_act
        if owed is None:
            owed = self._to_act = self._owed()
        return owed

    def _owed(self) -> tuple[int, ...]:
        phase = self.phase
        if phase == "expression":
            return (self.competing[self.expr_pos],)
        if phase == "growth":
            choice = self.choice
            return tuple([s for s in self.competing if choice[s] is None])
        if phase == "breed-play":
            assert self.winner is not None
            return (self.winner,)
        if phase == "breed-hand":
            return (self.breed_order[self.breed_pos],)
        return ()

    def legal(self, seat: int) -> Sequence[Any]:
        cached = self._legal
        if cached is not None and cached[0] == seat:
            return cached[1]
        if seat not in self.to_act():
            return ()
        acts = self.acts
        phase = self.phase
        out: list[Any]
        if phase == "expression":
            out = [EXPRESS]
            hand, held = self.hand[seat], self.held[seat]
            if len(held) < len(hand) - self.min_play(seat):
                hold = acts.hold
                out += [hold[c] for c in hand if c not in held]
        elif phase == "growth":
            out = self._growth_actions(seat)
        elif phase == "breed-play":
            take = acts.take
            out = [take[c] for c in self._takeable()]
        else:
            keep = acts.keep
            out = [keep[c] for c in self._keepable(seat)]
        legal = tuple(out)
        self._legal = (seat, legal)
        return legal

    def _growth_actions(self, seat: int) -> list[Any]:
        """The solver's best build, no connections, or placing cards one at a time
        (start a monster, or attach a card where its end meets a placed end)."""
        start = self.acts.start
        placed = self.placing[seat]
        if not placed:
            out: list[Any] = [BUILD_BEST, BUILD_FLAT]
            for c in self.played(seat):
                out += start[c]
            return out
        out = [BUILD_BEST, BUILD_FLAT, BUILD_PLACED]
        cells = {(p.x, p.y) for p in placed}
        done = {p.card for p in placed}
        free = [c for c in self.played(seat) if c not in done]
        for c in free:
            out += start[c]
        # Every open side of every placed card, and the free cards whose ends
        # meet it there (the table lists each card's fitting orientations).
        acts = self.acts
        slots = acts.slots  # slots_of's cache, read directly (the hot path)
        for p in placed:
            sides = slots.get((p.card, p.turned)) or acts.slots_of(p.card, p.turned)
            for (dx, dy), by_card in sides:
                if (p.x + dx, p.y + dy) in cells:
                    continue
                for c in free:
                    fit = by_card.get(c)
                    if fit:
                        out += fit
        return out

    def apply(self, seat: int, action: Any) -> None:
        cached = self._legal  # the driver has just asked ``legal`` (its cache)
        legal = cached[1] if cached is not None and cached[0] == seat else self.legal(seat)
        if not legal:
            raise not_your_turn(seat, self.to_act(), self.over)
        require_legal(seat, action, legal)
        self._to_act = self._legal = self._sampled = None
        # One step per kind of move (``_STEPS``, after the class): a table
        # lookup rather than a test of each kind in turn.
        _STEPS[type(action)](self, seat, action)

    def _hold(self, seat: int, action: Hold) -> None:
        self.held[seat].append(action.card)
        if self.log.enabled:
            self.log.emit("held", to=[seat], seat=seat, card=action.card)

    def _express(self, seat: int, action: Express) -> None:
        if self.log.enabled:
            self.log.emit("declared", seat=seat, held=len(self.held[seat]))
        self.expr_pos += 1
        if self.expr_pos == len(self.competing):
            self.phase = "growth"

    def _choose(self, seat: int, action: BuildChoice) -> None:
        self.choice[seat] = action.kind
        if self.log.enabled:
            self.log.emit("built", seat=seat)  # that the seat chose, not what
        if all(self.choice[s] is not None for s in self.competing):
            self._growth()

    def _take_step(self, seat: int, action: Take) -> None:
        self._take(action.card)

    def _keep_step(self, seat: int, action: Keep) -> None:
        self._keep(seat, action.card)

    @property
    def over(self) -> bool:
        return self.phase == "over"

    @property
    def result(self) -> Result | None:
        return self._result

    # ------------------------------------------------------------ information
    def _public_played(self) -> bool:
        return public_played(self)

    def view(self, seat: int | None) -> dict[str, Any]:
        return seat_view(self, seat)

    PARTIAL_FIELDS = PARTIAL_FIELDS

    def partial_view(self, seat: int, fields: frozenset[str]) -> dict[str, Any]:
        return partial_view(self, seat, fields)

    # ------------------------------------------------------------ copies
    def _copy(self, keep_rng: bool) -> TeratozoicState:
        """An independent copy: every list copied, the immutable parts (cards,
        Eras, Builds, Placements, PoolScores, actions) shared. Without
        ``keep_rng`` the RNG is left for the caller to replace."""
        other = TeratozoicState.__new__(TeratozoicState)
        d = other.__dict__
        d.update(self.__dict__)
        if keep_rng:
            other.rng = self.rng.copy()
        other.log = self.log.copy()
        other.eras = self.eras[:]
        other.era_discard = self.era_discard[:]
        other.mutations = self.mutations[:]
        other.mut_discard = self.mut_discard[:]
        for name in ("pool", "gdiscard", "hand", "held", "tie_cards", "placing"):
            d[name] = [x[:] for x in d[name]]
        other.eliminated = self.eliminated[:]
        other.lineage = self.lineage[:]  # frozensets: shared
        other.sure = self.sure[:]
        other.competing = self.competing[:]
        other.choice = self.choice[:]
        other.builds = self.builds[:]  # Builds are immutable
        other.taken = self.taken[:]
        other.kept = self.kept[:]
        other.breed_order = self.breed_order[:]
        other.final = self.final[:]
        other._sampled = None
        return other

    def clone(self) -> TeratozoicState:
        return self._copy(keep_rng=True)

    def zones(self) -> dict[str, list[int]]:
        """Every card of the match, once, by zone. A card gained this generation
        sits in its new owner's Gene Pool discard pile (and still in the hand it
        was drawn to, until Mutation): it is counted in the discard pile only."""
        gained = set(self.taken) | set(self.kept)
        out = {"mutations": list(self.mutations), "mutations discard": list(self.mut_discard)}
        for s in range(self.players):
            out[f"gene pool {s}"] = list(self.pool[s])
            out[f"gene pool discard {s}"] = list(self.gdiscard[s])
            out[f"hand {s}"] = [c for c in self.hand[s] if c not in gained]
            out[f"tie draws {s}"] = [c for c in self.tie_cards[s] if c not in gained]
        return out

    def _hidden_hand(self, s: int) -> list[int]:
        return hidden_hand(self, s)

    def determinize(self, seat: int, rng: Rng) -> TeratozoicState:
        """Resample what ``seat`` cannot see: the Mutations Deck and its discard
        pile, other players' Gene Pools and hidden hand cards, and the order of
        its own Gene Pool. Sizes, public cards and its own hand stay; the
        future shuffles come from ``rng``, not from the real state's RNG
        (``sampling.py`` says what is dealt where).

        Another player's hidden choices are not followed: how many cards it
        holds back stays, which ones (and where they lie in its hand) does not;
        its build choice becomes ``build best``, its hand placements are dropped."""
        return self.sampler(seat).sample(rng)

    def sampler(self, seat: int) -> StateSampler:
        """``determinize(seat, rng)`` for one rng after another, the work its
        samples share done once. The state must not change while it is used.
        A sample asked for the seat it was drawn for has its sampler already
        (``StateSampler.sample``) until it changes."""
        got = self._sampled
        if got is not None and got[0] == seat:
            return StateSampler.knowing(self, got[1])
        return StateSampler(self, seat)

    # ------------------------------------------------------------ action space
    def action_index(self, action: Any) -> int:
        n = len(self.deck)
        if isinstance(action, Hold):
            return action.card
        if isinstance(action, Express):
            return n
        if isinstance(action, BuildChoice):
            return {"best": n + 1, "flat": n + 2, "placed": 3 * n + 3}[action.kind]
        if isinstance(action, Start):
            return 3 * n + 4 + 2 * action.card + int(action.turned)
        if isinstance(action, Attach):
            slot = (action.card * n + action.anchor) * 4 + action.edge
            return 5 * n + 4 + 2 * slot + int(action.turned)
        if isinstance(action, Take):
            return n + 3 + action.card
        if isinstance(action, Keep):
            return 2 * n + 3 + action.card
        raise IllegalAction(_("{action} is not a Teratozoic action").format(action=action))

    def action_from_index(self, seat: int, index: int) -> Any:
        legal = self.legal(seat)
        found = next((a for a in legal if self.action_index(a) == index), None)
        return legal_at(seat, index, found, legal)


class StateSampler(Sampler):
    """Samples of one state for one seat (``TeratozoicState.sampler``)."""

    def __init__(self, state: TeratozoicState, seat: int) -> None:
        super().__init__(state, seat)
        self.state: TeratozoicState = state

    def sample(self, rng: Rng) -> TeratozoicState:
        """``state.determinize(seat, rng)``."""
        forked, dealt = self.deal(rng)
        other = self.state._copy(keep_rng=False)
        other.rng = forked
        other.mutations = dealt.mutations
        other.mut_discard = dealt.mut_discard
        for s, pool in dealt.pools.items():
            other.pool[s] = pool
        for s, (hand, held) in dealt.hands.items():
            other.hand[s] = hand
            other.held[s] = held
        for s in range(other.players):
            if s != self.seat:
                # Another player's build choice and hand placements are never
                # shown (its build is, once Growth resolves): the sample builds its best.
                if other.choice[s] is not None:
                    other.choice[s] = "best"
                other.placing[s] = []
        other._to_act = other._legal = None
        # The sample's own sampler for this seat is this one's work on it: a
        # world the seat cannot tell from this state samples as it does
        # (``sampling.py``: the same unseen cards, sizes and public knowledge).
        # The heuristic bot asks for it at once (issue 31). The sample keeps
        # that knowledge alone: never this state (where the cards really lie),
        # nor a sampler of itself (a reference cycle, freed only by the cyclic
        # garbage collector, whose passes cost more than the sampler).
        other._sampled = (self.seat, self.knowledge())
        return other


# What ``apply`` does for each kind of move.
_STEPS: dict[type, Callable[[TeratozoicState, int, Any], None]] = {
    Hold: TeratozoicState._hold,
    Express: TeratozoicState._express,
    Start: TeratozoicState._place,
    Attach: TeratozoicState._place,
    BuildChoice: TeratozoicState._choose,
    Take: TeratozoicState._take_step,
    Keep: TeratozoicState._keep_step,
}
