"""A fixed-size numeric encoding of one seat's view, for learning agents.

Built only from ``state.view(seat)`` (the same dict the terminal and the web
client get), so it holds nothing the seat may not know. The conventions
(values in [0, 1], seats relative to the observer, unknown names skipped)
are those of :mod:`bestiary.agents.features`.

Fields, in order (``d`` cards, ``k`` collecting keys, ``g`` ban groups,
``P`` seats):

==================  =========  ==============================================
phase               8          discard/attack/duel/impatient/claim/declare/over/other
turn, dealer        2P         whose turn, who dealt (relative one-hot)
to_act              P          seats this seat knows owe a decision
progress            3          round/rounds, turns/80, stock/d
hand                d          cards in my hand
hand_keys           k          my hand's count per collecting key /8
drawn               d          cards I drew this turn (may be tabled)
hand_counts         P          cards in hand per seat /9
tables              P*d        tabled sets per seat
discards, top       2d         the whole discard pile, its top card
set_aside           d          proud monsters set aside (all seats)
bans                P*g        groups each seat may no longer collect
claims, skips       2P         claims this round /8, turns to skip /3
scores              P          points /30
can_win             1
claim               3+2d+P+2k  open?, decided?, the card, discarder, my keys,
                               the key I claimed, cards I keep, cards to drop /8
duel                5+2P       open?, ties/5, my choice (3), attacker, target
attack              1          I must choose an aggressive target
peek                d          cards seen on top of the stock (honest)
seen_hands          P*d        hands seen through a claimed honest monster
present             P          only with ``max_players``: 1 per seat at the table
==================  =========  ==============================================

``P`` is the table's seats, or ``max_players`` when given: every per-seat
block is then laid out for ``max_players`` seats, the seats the table lacks
stay zero after the real ones (still counted from the observer), and the
``present`` bits at the end say which blocks are real, so one policy reads
every table size with the same vector length.

``public_scores`` gives each seat's points as every seat sees them (the
``score`` reward of :mod:`bestiary.rl`); ``score_scale`` is 10 points.

``encode_state_sparse(state, seat)`` gives the same vector as
``encode(state.view(seat))`` as its non-zero entries only (positions and
values), read from ``view.encoder_view``: the entries of the seat's view
the encoder uses, built alone, cards as deck indices. It is the batched
environment's hot path (a few dozen non-zero entries out of some 3,500; no
full view, no dense list); tests/rl/test_sparse_encoding.py checks it equals
the dense encoding.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, NamedTuple

from ...agents.features import Layout, SparseRow, Writer, index_of, sparse_of
from ...engine.protocol import State
from ...engine.ruleset import Ruleset
from .cards import Deck
from .rules import TaxonomyRules, TaxonomyState
from .view import encoder_view

PHASES = ("discard", "attack", "duel", "impatient", "claim", "declare", "over")
RPS = ("rock", "paper", "scissors")


# Where one field's entries go, by deck index (a card, key or group): its
# positions list's ``__getitem__``, so a set of them is ``map(put, items)``.
Put = Callable[[int], int]


class _DeckPositions(NamedTuple):
    """Where the cards, keys and groups of one deck go in one encoding, field
    by field (per relative seat where the field has a block per seat)."""

    hand: Put
    hand_keys: list[int]
    drawn: Put
    tables: list[Put]
    discards: Put
    discard_top: Put
    set_aside: Put
    bans: list[Put]
    claim_card: Put
    claim_keys: Put
    claim_key: Put
    claim_kept: Put
    peek: Put
    seen_hands: list[Put]


def _lookup(index: Mapping[str, int], names: Sequence[str]) -> list[int] | None:
    """Each name's position in ``index`` as ``Writer.names`` finds it (the
    exact spelling, else casefolded); None if one has none."""
    out = []
    for name in names:
        i = index.get(name)
        if i is None:
            i = index.get(name.casefold())
            if i is None:
                return None
        out.append(i)
    return out


def _names(cards: Any) -> list[Any]:
    """Card dicts (or bare names) -> names."""
    return [c.get("name") if isinstance(c, dict) else c for c in cards or ()]


class Observer:
    """Encodes views of one table size and ruleset into ``size`` floats."""

    #: The ``score`` reward's unit: a margin of 10 points counts 1.
    score_scale = 10.0
    #: The points change during the game (at each round's end).
    running_score = True
    #: The view entries ``public_scores`` reads (every seat sees them alike).
    score_fields = frozenset({"scores"})

    def __init__(self, players: int, rules: Ruleset, max_players: int | None = None) -> None:
        assert isinstance(rules, TaxonomyRules)
        if max_players is not None and max_players < players:
            raise ValueError(f"max_players must be at least the table's {players} seats")
        deck = rules.deck()
        p = players if max_players is None else max_players
        d, k, g = deck.size, deck.num_keys, len(deck.group_names)
        self.players = players
        self.padded = max_players is not None
        self.d, self.g, self.p, self.k = d, g, p, k
        self.card = index_of(deck.names)
        self.key = index_of(deck.key_names)
        self.group = index_of(deck.group_names)
        self.layout = Layout(
            players,
            [
                ("phase", len(PHASES) + 1),
                ("turn", p),
                ("dealer", p),
                ("to_act", p),
                ("progress", 3),
                ("hand", d),
                ("hand_keys", k),
                ("drawn", d),
                ("hand_counts", p),
                ("tables", p * d),
                ("discards", d),
                ("discard_top", d),
                ("set_aside", d),
                ("bans", p * g),
                ("claims", p),
                ("skips", p),
                ("scores", p),
                ("can_win", 1),
                ("claim", 3 + 2 * d + p + 2 * k),
                ("duel", 5 + 2 * p),
                ("attack", 1),
                ("peek", d),
                ("seen_hands", p * d),
                *([("present", p)] if self.padded else []),
            ],
        )
        self.size = self.layout.size
        # The sparse encoder's positions: each field's offset, and each phase's
        # one-hot slot (anything else: the last one).
        at = self.layout.at
        self._phase = {name: at["phase"] + i for i, name in enumerate(PHASES)}
        self._phase_other = at["phase"] + len(PHASES)
        self._present = [at["present"] + r for r in range(players)] if self.padded else []
        # _rel[me][s]: seat s counted from seat me (Writer.rel).
        self._rel = [[(s - me) % players for s in range(players)] for me in range(players)]
        # _key_share[n]: a collecting key held n times (hand_keys: n/8, clipped;
        # no hand holds more cards than the deck).
        self._key_share = [min(1.0, max(0.0, 1.0 / (8 / max(1, n)))) for n in range(d + 1)]
        # _seat_at[field][me]: the positions of a one-per-seat field, seat by seat.
        self._seat_at = {
            field: [[at[field] + r for r in rel] for rel in self._rel]
            for field in ("hand_counts", "claims", "skips", "scores")
        }
        # Per deck met: where its cards, keys and groups go in this encoding.
        self._decks: dict[int, tuple[Deck, _DeckPositions | None]] = {}

    def encode(self, view: Mapping[str, Any]) -> list[float]:
        w = self.layout.writer(view.get("seat"))
        d = self.d
        w.one_hot("phase", PHASES, view.get("phase"))
        w.seat("turn", view.get("turn"))
        w.seat("dealer", view.get("dealer"))
        for s in view.get("to_act") or ():
            w.seat("to_act", s)
        w.scalar("progress", view.get("round"), max(1, int(view.get("rounds") or 1)))
        w.scalar("progress", view.get("turns"), 80, 1)
        w.scalar("progress", view.get("stock"), d, 2)
        w.names("hand", self.card, _names(view.get("hand")))
        for key, n in (view.get("hand_keys") or {}).items():
            w.names("hand_keys", self.key, [key], cap=8 / max(1, int(n)))
        w.names("drawn", self.card, view.get("drawn") or ())
        w.per_seat("hand_counts", view.get("hand_counts"), 9)
        for s, sets in enumerate(view.get("tables") or ()):
            r = w.rel(s)
            for st in sets if r is not None else ():
                w.names("tables", self.card, _names(st.get("cards")), block=(r or 0) * d)
        w.names("discards", self.card, _names(view.get("discards")))
        w.names("discard_top", self.card, _names([view.get("discard_top")]))
        for aside in view.get("set_aside") or ():
            w.names("set_aside", self.card, _names(aside))
        for s, bans in enumerate(view.get("bans") or ()):
            r = w.rel(s)
            if r is not None:
                w.names("bans", self.group, bans, block=r * self.g)
        w.per_seat("claims", view.get("claims"), 8)
        w.per_seat("skips", view.get("skips"), 3)
        w.per_seat("scores", view.get("scores"), 30)
        w.flag("can_win", view.get("can_win"))
        self._claim(w, view.get("claim"))
        self._duel(w, view.get("duel"))
        w.flag("attack", view.get("attack"))
        peek = view.get("peek")
        if isinstance(peek, Mapping):
            w.names("peek", self.card, _names(peek.get("cards")))
        for s, cards in (view.get("seen_hands") or {}).items():
            r = w.rel(int(s)) if str(s).isdigit() else None
            if r is not None:
                w.names("seen_hands", self.card, _names(cards), block=r * d)
        if self.padded:
            for r in range(self.players):
                w.set("present", r)
        return w.out

    def public_scores(self, view: Mapping[str, Any]) -> list[float] | None:
        """Each seat's points so far, as the view shows them to everyone."""
        scores = view.get("scores")
        if not isinstance(scores, list) or len(scores) != self.players:
            return None
        return [float(x) for x in scores]

    def encode_state_sparse(self, state: State, seat: int) -> SparseRow:
        """``encode(state.view(seat))`` by its non-zero entries, read from
        ``encoder_view`` (what the encoder uses of the seat's view, nothing
        more) and written straight to lists of positions."""
        if (
            type(state) is TaxonomyState  # exactly: a subclass may view differently
            and state.players == self.players
            and type(seat) is int
            and 0 <= seat < self.players
        ):
            where = self._positions(state.deck)
            if where is not None:
                return self._sparse(encoder_view(state, seat), where)
        # Not a seat's view of this table size, or a deck whose names this
        # encoding cannot tell apart: the dense encoder decides.
        return sparse_of(self.encode(state.view(seat)))

    def _positions(self, deck: Deck) -> _DeckPositions | None:
        """Where each card, key and group of ``deck`` goes (found by name, as
        ``Writer.names`` finds it), built once per deck; None unless every
        name has a position of its own (then a set of them is a set of
        positions, with no counts to add up)."""
        hit = self._decks.get(id(deck))
        if hit is None or hit[0] is not deck:
            hit = self._decks[id(deck)] = (deck, self._deck_positions(deck))
        return hit[1]

    def _deck_positions(self, deck: Deck) -> _DeckPositions | None:
        cards = _lookup(self.card, deck.names)
        keys = _lookup(self.key, deck.key_names)
        groups = _lookup(self.group, deck.group_names)
        if cards is None or keys is None or groups is None:
            return None
        if any(len(set(found)) < len(found) for found in (cards, keys, groups)):
            return None
        at, d, k, n, p, g = self.layout.at, self.d, self.k, self.players, self.p, self.g

        def put(field: str, block: int = 0, of: list[int] = cards) -> Put:
            return [at[field] + block + x for x in of].__getitem__

        return _DeckPositions(
            hand=put("hand"),
            hand_keys=[at["hand_keys"] + x for x in keys],
            drawn=put("drawn"),
            tables=[put("tables", r * d) for r in range(n)],
            discards=put("discards"),
            discard_top=put("discard_top"),
            set_aside=put("set_aside"),
            bans=[put("bans", r * g, groups) for r in range(n)],
            claim_card=put("claim", 2),
            claim_keys=put("claim", 2 + d + p, keys),
            claim_key=put("claim", 2 + d + p + k, keys),
            claim_kept=put("claim", 2 + d + p + 2 * k),
            peek=put("peek"),
            seen_hands=[put("seen_hands", r * d) for r in range(n)],
        )

    def _sparse(self, ev: Mapping[str, Any], where: _DeckPositions) -> SparseRow:
        """``encode``'s entries from an encoder view, field by field with the
        same arithmetic: values clipped to [0, 1], zeros left out, a card,
        key or group set to 1 however often it appears."""
        at, n = self.layout.at, self.players
        me = ev["seat"]
        rel = self._rel[me]  # rel[s]: seat s counted from me
        ones = [self._phase.get(ev["phase"], self._phase_other)]
        add, ext = ones.append, ones.extend
        idx: list[int] = []
        values: list[float] = []
        for field in ("turn", "dealer"):
            s = ev[field]
            if isinstance(s, int) and 0 <= s < n:
                add(at[field] + rel[s])
        b = at["to_act"]
        ext([b + rel[s] for s in ev["to_act"]])
        b = at["progress"]
        for i, x in enumerate(
            (ev["round"] / max(1, int(ev["rounds"] or 1)), ev["turns"] / 80, ev["stock"] / self.d)
        ):
            if x > 0.0:
                idx.append(b + i)
                values.append(x if x < 1.0 else 1.0)
        ext(map(where.hand, ev["hand"]))
        hand_keys = ev["hand_keys"]
        idx.extend(map(where.hand_keys.__getitem__, hand_keys))
        values.extend(map(self._key_share.__getitem__, hand_keys.values()))
        ext(map(where.drawn, ev["drawn"]))
        for s, sets in enumerate(ev["tables"]):
            put = where.tables[rel[s]]
            for cards in sets:
                ext(map(put, cards))
        ext(map(where.discards, ev["discards"]))
        if ev["discard_top"] is not None:
            add(where.discard_top(ev["discard_top"]))
        for aside in ev["set_aside"]:
            ext(map(where.set_aside, aside))
        for s, bans in enumerate(ev["bans"]):
            ext(map(where.bans[rel[s]], bans))
        for field, cap in (("hand_counts", 9), ("claims", 8), ("skips", 3), ("scores", 30)):
            if not any(ev[field]):
                continue  # most of the game for all but hand_counts
            for i, v in zip(self._seat_at[field][me], ev[field], strict=True):
                if v > 0:
                    x = v / cap
                    idx.append(i)
                    values.append(x if x < 1.0 else 1.0)
        if ev["can_win"]:
            add(at["can_win"])
        if ev["claim"] is not None:
            self._sparse_claim(ev["claim"], where, rel, ones, idx, values)
        duel = ev["duel"]
        if duel is not None:
            b, p = at["duel"], self.p
            add(b)
            if duel["ties"] > 0:
                x = duel["ties"] / 5
                idx.append(b + 1)
                values.append(x if x < 1.0 else 1.0)
            if duel["your_choice"] in RPS:
                add(b + 2 + RPS.index(duel["your_choice"]))
            for block, s in ((5, duel["attacker"]), (5 + p, duel["target"])):
                if isinstance(s, int) and 0 <= s < n:
                    add(b + block + rel[s])
        if ev["attack"]:
            add(at["attack"])
        if ev["peek"] is not None:
            ext(map(where.peek, ev["peek"]))
        for s, cards in ev["seen_hands"].items():
            ext(map(where.seen_hands[rel[s]], cards))
        ext(self._present)
        return SparseRow(ones, idx, values)

    def _sparse_claim(
        self,
        claim: Mapping[str, Any],
        where: _DeckPositions,
        rel: list[int],
        ones: list[int],
        idx: list[int],
        values: list[float],
    ) -> None:
        """The ``claim`` field of :meth:`_sparse` (an open claim window)."""
        b, d, p, k = self.layout.at["claim"], self.d, self.p, self.k
        ones.append(b)
        if claim["decided"]:
            ones.append(b + 1)
        ones.append(where.claim_card(claim["card"]))
        s = claim["discarder"]
        if isinstance(s, int) and 0 <= s < self.players:
            ones.append(b + 2 + d + rel[s])
        ones.extend(map(where.claim_keys, claim["keys"]))
        if claim["key"] is not None:
            ones.append(where.claim_key(claim["key"]))
        ones.extend(map(where.claim_kept, claim["kept"]))
        if claim["to_keep"] > 0:
            x = min(claim["to_keep"], 8) / 8
            idx.append(b + 2 + 2 * d + p + 2 * k)
            values.append(x if x < 1.0 else 1.0)

    def _claim(self, w: Writer, claim: Any) -> None:
        if not isinstance(claim, Mapping):
            return
        d, p = self.d, self.p
        w.set("claim", 0)
        w.flag("claim", claim.get("decided"), 1)
        w.names("claim", self.card, _names([claim.get("card")]), block=2)
        w.seat("claim", claim.get("discarder"), block=2 + d)
        w.names("claim", self.key, claim.get("keys") or (), block=2 + d + p)
        # Choosing the laid set (keep <card>): the key claimed, the cards kept so far
        # and how many of the key's cards in hand must still be dropped.
        k = self.k
        chosen = claim.get("key")
        if chosen is not None:
            w.names("claim", self.key, [chosen], block=2 + d + p + k)
        w.names("claim", self.card, claim.get("kept") or (), block=2 + d + p + 2 * k)
        to_keep = claim.get("to_keep")
        if isinstance(to_keep, int):
            w.scalar("claim", min(to_keep, 8), 8, 2 + 2 * d + p + 2 * k)

    def _duel(self, w: Writer, duel: Any) -> None:
        if not isinstance(duel, Mapping):
            return
        w.set("duel", 0)
        w.scalar("duel", duel.get("ties"), 5, 1)
        choice = duel.get("your_choice")
        if choice in RPS:
            w.set("duel", 2 + RPS.index(choice))
        w.seat("duel", duel.get("attacker"), block=5)
        w.seat("duel", duel.get("target"), block=5 + self.p)
