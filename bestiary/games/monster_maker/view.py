"""What one seat may see of a Monster Maker table: its own hand and hidden
treasures; of the others only counts, OPEN treasures and what is on the table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .board import MonsterMakerBoard
from .phases import OUT, PROMPTS, STATUS


# ------------------------------------------------------------ information
def build_view(self: MonsterMakerBoard, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` may know it (None: a spectator). Others' hands and
    un-OPEN treasures appear only as counts. ``hand_labels`` / ``hand_cards``
    give the seat's cards with strengths under the rules in force (Sleep
    errata); ``players[s].rolled`` what each banked dice treasure rolled;
    ``victory`` how the result is counted; ``final`` the result with every
    seat's gold breakdown."""
    cs = self.cs
    cn, tn = cs.card_names, cs.treasure_names
    v: dict[str, Any] = {
        "dungeon": self.dungeon,
        "treasure_room": self.room,
        "turn": self.turn,
        "phase": self.phase,
        "endgame": self.endgame,
        "draw_pile": len(self.deck),
        "discard_pile": [cn[c] for c in self.discard],
        "treasure_pile": len(self.treasure_pile),
        "prize_pile": len(self.prize_pile),
        "players": _players(self, cn, tn),
        "trap": cn[self.trap] if self.trap >= 0 else None,
        "to_lose": self.to_lose if self.phase == "trap" else 0,
        "battle": _battle(self, cn, tn),
        "fallen": [cn[c] for c in self.fallen],
        "charmed": cn[self.charmed] if self.charmed >= 0 else None,
        "seat": seat,
        # Who owes a decision now, and what the seat is asked (as in the
        # other games' views; "" when it is not this seat's decision).
        "to_act": list(self.to_act()),
        "prompt": PROMPTS.get(self.phase, "") if seat in self.to_act() else "",
        "hand": sorted(cn[c] for c in self.hands[seat]) if seat is not None else None,
        # Labels and strengths under the rules in force (the Sleep errata).
        "hand_labels": sorted(cs.cards[c].label(self.strength[c]) for c in self.hands[seat])
        if seat is not None
        else None,
        "hand_cards": hand_cards(self, seat) if seat is not None else None,
        "victory": self.rules.victory,
        "my_treasures": [tn[t] for t in self.held[seat]] if seat is not None else None,
        "final": self.final,
    }
    if self.rules.traps_face_up:
        trap = set(cs.of_kind["trap"])
        d = self.deck
        v["traps_in_draw_pile_at"] = [
            len(d) - 1 - i for i in range(len(d) - 1, -1, -1) if d[i] in trap
        ]
    return v


def _players(self: MonsterMakerBoard, cn: Sequence[str], tn: Sequence[str]) -> list[dict[str, Any]]:
    """Every seat as all may see it: its road, monster, counts and open treasures."""
    cs = self.cs
    cards = cs.cards
    rolled, worthless = self.gold_rolled, self.worthless
    players = []
    for s in range(self.players):
        held, banked = self.held[s], self.banked[s]
        status, monster = self.status[s], self.monster[s]
        open_now = self.shown[s]
        shown = [tn[t] for t in held if t in open_now]
        beast = cards[monster] if monster >= 0 else None
        players.append(
            {
                "seat": s,
                "status": STATUS[status],
                "corridors_out": [cards[c].value for c in self.out[s]],
                "distance_out": self.dist_out[s],
                "corridors_back": [cards[c].value for c in self.back[s]],
                "distance_back": self.dist_back[s],
                "return_target": self.target(s) if status != OUT else None,
                "monster": cn[monster] if beast is not None else None,
                "monster_strength": beast.value if beast is not None else None,
                "monster_type": (beast.mtype or None) if beast is not None else None,
                "hand_size": len(self.hands[s]),
                "open_treasures": shown,
                "hidden_treasures": len(held) - len(shown),
                "secret_door_waiting": self.door_open[s],
                "battle_penalty": self.battle_penalty(s),
                "banked": [tn[t] for t in banked],
                # What each dice-valued banked treasure rolled (once, kept).
                "rolled": [[tn[t], rolled[t]] for t in banked if t in rolled],
                "worthless": [tn[t] for t in banked + held if t in worthless],
                "prizes": [cs.prizes[p].name for p in self.prizes[s]],
                "dungeon_wins": self.dungeon_wins[s],
            }
        )
    return players


def _battle(self: MonsterMakerBoard, cn: Sequence[str], tn: Sequence[str]) -> list[dict[str, Any]]:
    """The party in battle: each card with its spell and weapon."""
    return [
        {
            "card": cn[c],
            "spell": cn[self.spell_of[i]] if self.spell_of[i] >= 0 else None,
            "weapon": tn[self.weapon_of[i]] if self.weapon_of[i] >= 0 else None,
        }
        for i, c in enumerate(self.party)
    ]


def _names(self: MonsterMakerBoard) -> tuple[tuple[str, ...], tuple[str, ...]]:
    return self.cs.card_names, self.cs.treasure_names


# How ``partial_view`` builds each of its entries (by the code ``build_view`` uses).
_PARTS: dict[str, Callable[[MonsterMakerBoard, int], Any]] = {
    "seat": lambda self, seat: seat,
    "treasure_room": lambda self, seat: self.room,
    "phase": lambda self, seat: self.phase,
    "endgame": lambda self, seat: self.endgame,
    "players": lambda self, seat: _players(self, *_names(self)),
    "battle": lambda self, seat: _battle(self, *_names(self)),
    "hand": lambda self, seat: sorted(self.cs.card_names[c] for c in self.hands[seat]),
    "my_treasures": lambda self, seat: [self.cs.treasure_names[t] for t in self.held[seat]],
    "draw_pile": lambda self, seat: len(self.deck),
}


#: The entries of a seat's view that ``partial_view`` builds without the rest
#: (what the heuristic bot reads: its ``lite`` playouts ask for these).
PARTIAL_FIELDS = frozenset(_PARTS)


def partial_view(self: MonsterMakerBoard, seat: int, fields: frozenset[str]) -> dict[str, Any]:
    """The entries ``fields`` of ``build_view(self, seat)``: those of
    ``PARTIAL_FIELDS`` built here alone by the same code (the whole view costs a
    fifth of a search playout's time), any other through the whole view."""
    if not fields <= PARTIAL_FIELDS or not 0 <= seat < self.players:
        whole = build_view(self, seat)
        return {k: whole[k] for k in fields if k in whole}
    return {f: _PARTS[f](self, seat) for f in fields}


def hand_cards(self: MonsterMakerBoard, seat: int) -> list[dict[str, Any]]:
    """The seat's hand as data for the web page, strengths as the rules roll them."""
    out = []
    for c in sorted(self.hands[seat], key=lambda c: self.cs.cards[c].name):
        card = self.cs.cards[c]
        st = self.strength[c]
        out.append(
            {
                "name": card.name,
                "kind": card.kind,
                "value": card.value if card.kind in ("corridor", "monster") else None,
                "strength": str(st) if st is not None else None,
                "type": card.mtype or None,
                "abilities": sorted(card.abilities),
            }
        )
    return out
