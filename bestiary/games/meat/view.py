"""What one seat may see: its own team's hands and face-down cards, the
public table, and nothing of the opponents' hidden cards.

"W ramach wewnętrznej współpracy członkowie drużyn mogą się komunikować ze
sobą, wymieniać informacje ... i pokazywać swoje karty" (teammates may show
each other their cards): a seat's view includes its whole team's secrets.
"""

from __future__ import annotations

from typing import Any, Protocol

from .cards import LANES, Ability, CardDef, CardSet, keyword_names
from .phases import (
    D_ARMED,
    D_DOWN,
    D_READY,
    D_UNPAID,
    P_DISCARD,
    P_PAY,
    P_TACTICS,
    P_WINDOW,
    PHASE_NAMES,
)


class MeatState(Protocol):
    """What a view reads of a match (``rules.MeatState`` is one): a protocol,
    so that rules.py imports this module and never the other way round."""

    players: int
    cs: CardSet
    defs: list[CardDef]
    kind: list[int]
    field: list[int]
    up: list[bool]
    dmg: list[int]
    atk_mod: list[int]
    def_mod: list[int]
    used: list[bool]
    attached_to: list[int]
    dfield: list[list[int]]
    dstat: list[int]
    hand: list[list[int]]
    tac_c: list[list[int]]
    tac_d: list[list[int]]
    tac_stage: list[int]
    dis_pick: list[list[int]]
    pay_pick: list[list[int]]
    phase: int
    round: int
    vit: list[int]
    vit_start: int
    tel: list[int]
    leader: list[int]
    row: list[int]
    order: list[int]
    drafted: list[list[int]]
    first_team: int
    passed: list[bool]
    stack: list[tuple[int, int, int, int]]
    win_kind: str
    cdeck: list[int]
    ddeck: list[int]
    cgrave: list[int]
    dgrave: list[int]
    winner_team: int

    @property
    def over(self) -> bool: ...
    def to_act(self) -> tuple[int, ...]: ...
    def team(self, t: int) -> list[int]: ...
    def name(self, iid: int) -> str: ...
    def attack(self, slot: int) -> int: ...
    def defence(self, slot: int) -> int: ...
    def keywords(self, slot: int) -> int: ...
    def ability_of(self, iid: int) -> Ability | None: ...


_DSTAT = {D_DOWN: "face down", D_READY: "paid", D_ARMED: "armed", D_UNPAID: "unpaid"}


def _creature(st: MeatState, slot: int, knows: bool) -> dict[str, Any] | None:
    iid = st.field[slot]
    if iid < 0:
        return None
    public = {
        "slot": slot,
        "lane": LANES[slot % 3],
        "face_up": st.up[slot],
        "damage": st.dmg[iid],
        "attack_mod": st.atk_mod[iid],
        "defence_mod": st.def_mod[iid],
    }
    if not st.up[slot] and not knows:
        return public
    d = st.defs[st.kind[iid]]
    ability = st.ability_of(iid)
    gear = [st.name(e) for e in st.cs.destiny_ids if st.attached_to[e] == iid]
    return {
        **public,
        "card": d.name,
        "en": d.en,
        "faction": d.faction,
        "attack": st.attack(slot),
        "defence": st.defence(slot),
        "keywords": keyword_names(st.keywords(slot)),
        "ability_used": st.used[iid],
        "ability_cost": ability.cost if ability else None,
        "equipment": gear,
    }


def build_view(st: MeatState, seat: int | None) -> dict[str, Any]:
    n = st.players
    team = None if seat is None else seat & 1
    mine = [s for s in range(n) if team is not None and (s & 1) == team]
    tactics = st.phase == P_TACTICS
    field = []
    for s in range(n):
        knows = s in mine
        row = [_creature(st, s * 3 + x, knows) for x in range(3)]
        destiny = []
        for iid in st.dfield[s]:
            stat = _DSTAT.get(st.dstat[iid], "")
            if stat == "face down" and not knows:
                destiny.append({"status": stat})
            else:
                destiny.append({"card": st.name(iid), "status": stat})
        field.append({"seat": s, "creatures": row, "destiny": destiny})
    hands: dict[str, list[str]] = {}
    pending: dict[str, Any] = {}
    # Choices made all at once (hand limit, paying) are the team's until every
    # player has chosen: opponents see only who still owes one (``to_act``).
    picks = st.dis_pick if st.phase == P_DISCARD else st.pay_pick if st.phase == P_PAY else None
    chosen: dict[str, list[str]] = {}
    for s in mine:
        hands[str(s)] = sorted(st.name(c) for c in st.hand[s])
        if picks is not None:
            chosen[str(s)] = [st.name(c) for c in picks[s]]
        if tactics:
            pending[str(s)] = {
                "creatures": [st.name(c) if c >= 0 else None for c in st.tac_c[s]],
                "destiny": [st.name(c) for c in st.tac_d[s]],
                "step": st.tac_stage[s],
            }
    return {
        "seat": seat,
        "team": team,
        "players": n,
        "teams": [st.team(0), st.team(1)],
        "opponent": None if seat is None else seat ^ 1,
        "round": st.round,
        "phase": PHASE_NAMES[st.phase],
        "to_act": list(st.to_act()),
        "vitality": list(st.vit),
        "vitality_start": st.vit_start,
        "telestarion": list(st.tel),
        "leaders": [st.cs.leaders[x].name if x >= 0 else None for x in st.leader],
        "hand_sizes": [len(h) for h in st.hand],
        "hands": hands,
        "tactics": pending,
        "chosen": chosen,
        "draft_row": [st.name(c) for c in st.row],
        "draft_order": list(st.order) if st.phase <= 1 else [],
        "drafted": [[st.name(c) for c in st.drafted[s]] for s in range(n)],
        "field": field,
        "first_team": st.first_team,
        "passed": list(st.passed),
        "stack": [
            {
                "seat": s,
                "card": st.name(c),
                "target": t,
                "target_card": st.name(tc) if tc >= 0 and t < 0 else None,
            }
            for s, c, t, tc in st.stack
        ],
        "window": st.win_kind if st.phase == P_WINDOW else None,
        "decks": {"creature": len(st.cdeck), "destiny": len(st.ddeck)},
        "graveyards": {
            "creature": [st.name(c) for c in st.cgrave],
            "destiny": [st.name(c) for c in st.dgrave],
        },
        "winner_team": st.winner_team if st.over else None,
    }
