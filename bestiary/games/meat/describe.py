"""One English log line per event (``describe_event``)."""

from __future__ import annotations

from bestiary.engine import Event

from .cards import LANES


def _slot(slot: object) -> str:
    if not isinstance(slot, int) or slot < 0:
        return "nothing"
    seat, lane = divmod(slot, 3)
    return f"seat {seat}'s {LANES[lane]}"


def _aim(slot: object) -> str:
    """`` → seat 1's front`` for a chosen target; nothing for untargeted cards."""
    return f" → {_slot(slot)}" if isinstance(slot, int) and slot >= 0 else ""


def _seats(order: object) -> str:
    """``[1, 0]`` -> ``seat 1, then seat 0``: an order in words, not a list."""
    if isinstance(order, list | tuple):
        return ", then ".join(f"seat {s}" for s in order)
    return str(order)


def _per_team(values: object) -> str:
    if isinstance(values, list | tuple):
        return ", ".join(f"team {t} {v}" for t, v in enumerate(values))
    return str(values)


def _numbers(values: object) -> str:
    if isinstance(values, list | tuple):
        return " + ".join(map(str, values))
    return str(values)


def describe(e: Event) -> str:
    d = e.data
    k = e.kind
    src = f" ({d['source']})" if d.get("source") else ""
    if k == "rolled":
        rolls = ", ".join(f"seat {s}: {'/'.join(map(str, r))}" for s, r in d["rolls"].items())
        return f"Dice for {d['why']}: {rolls} → {_seats(d['order'])}"
    if k == "leader":
        return f"Seat {d['seat']} takes the leader {d['leader']}"
    if k == "round":
        tel = d["telestarion"]
        if isinstance(tel, list | tuple):
            tel = ", ".join(f"seat {s} {v}" for s, v in enumerate(tel))
        return f"— Round {d['round']}: Telestarion for the round: {tel} —"
    if k == "draft_row":
        return f"Draft: {', '.join(d['cards'])}"
    if k == "drafted":
        return f"Seat {d['seat']} drafts {d['card']} for {d['paid']}"
    if k == "to_graveyard":
        return f"Left in the draft, to the creature graveyard: {', '.join(d['cards'])}"
    if k == "drew":
        return f"Seat {d['seat']} draws {d['count']} {d['deck']} card(s)"
    if k == "drew_cards":
        return f"  (seat {d['seat']} drew {', '.join(d['cards'])})"
    if k == "deck_rebuilt":
        return f"The {d['deck']} deck is rebuilt from its graveyard ({d['size']} cards)"
    if k == "discarded":
        return f"Seat {d['seat']} discards {d['card']} (hand limit)"
    if k == "tactics":
        return "Tactics: place creatures and destiny cards face down"
    if k == "placing":
        return f"  (seat {d['seat']} places {d['card']} on the {d['lane']})"
    if k == "setting":
        return f"  (seat {d['seat']} sets {d['card']} face down)"
    if k == "ready":
        return f"Seat {d['seat']} is ready"
    if k == "face_down":
        lanes = ", ".join(d["lanes"]) or "no lane"
        return f"Seat {d['seat']}: creatures on {lanes}, {d['destiny']} destiny card(s) face down"
    if k == "window":
        return f"INSTANT window ({d['what']})"
    if k == "revealed":
        return "All cards are turned face up"
    if k == "reveal_ability":
        return f"REVEAL: {d['card']} on {_slot(d['slot'])}"
    if k == "paid":
        return f"Seat {d['seat']} pays {d['cost']} for {d['card']}"
    if k == "unpaid":
        return f"Seat {d['seat']} cannot pay for {d['card']}: it goes to the graveyard"
    if k == "activation":
        return f"Activation: team {d['first_team']} acts first"
    if k == "ability":
        return f"Seat {d['seat']}: ♦ {d['card']} ({d['lane']}){_aim(d['target'])}"
    if k == "cast":
        return f"Seat {d['seat']} casts {d['card']}{_aim(d['target'])}"
    if k == "resolved":
        return f"{d['card']} resolves{_aim(d['target'])}"
    if k == "fizzled":
        return f"{d['card']} lost its target and fizzles"
    if k == "countered":
        return f"{d['card']} cancels {d['spell']}"
    if k == "attached":
        return f"Seat {d['seat']} fuses {d['card']} with {_slot(d['target'])}"
    if k == "fired":
        return f"Seat {d['seat']}'s {d['card']} fires"
    if k == "passed":
        return f"Seat {d['seat']} passes"
    if k == "damaged":
        tox = " (TOXIN)" if d.get("toxin") else ""
        victim = f"{d['card']} ({_slot(d['slot'])})" if d.get("card") else _slot(d["slot"])
        if d.get("source"):  # the battle reads as who hit whom
            return f"{d['source']} deals {d['amount']}{tox} to {victim}"
        return f"{victim} takes {d['amount']}{tox}"
    if k == "buffed":
        return f"{_slot(d['slot'])} gets {d['attack']:+d}/{d['defence']:+d}{src}"
    if k == "granted":
        return f"{_slot(d['slot'])} gains {d['keyword']}{src}"
    if k == "healed":
        return f"{_slot(d['slot'])} heals {d['amount']}{src}"
    if k == "destroyed":
        return f"{_slot(d['slot'])} is destroyed{src}"
    if k == "moved":
        return f"Seat {d['seat']}: creature moves {LANES[d['src']]} → {LANES[d['dest']]}{src}"
    if k == "returned":
        if "card" not in d:
            return f"The face-down creature on {_slot(d['slot'])} returns to its owner's hand"
        return f"{d['card']} returns to its owner's hand"
    if k == "returned_card":
        return f"  (it was {d['card']})"
    if k == "died":
        return f"{d['card']} ({_slot(d['slot'])}) dies"
    if k == "gain":
        return f"Seat {d['seat']} gains {d['amount']} Telestarion{src}"
    if k == "vitality":
        return f"Team {d['team']} vitality {d['delta']:+d} → {d['vitality']}{src}"
    if k == "battle":
        return "Battle!"
    if k == "summary":
        if d["winner"] < 0:
            return (
                f"Round drawn (creatures left: {_per_team(d['alive'])}; "
                f"defence: {_per_team(d['defence'])})"
            )
        bonus = f" +{d['bonus']}" if d.get("bonus") else ""
        return (
            f"Team {d['winner']} wins the round (creatures left: {_per_team(d['alive'])}); "
            f"damage dice {_numbers(d['dice'])}{bonus}"
        )
    if k == "game_over":
        w = d["winner"]
        return "The game ends in a draw" if w < 0 else f"Team {w} wins the game"
    parts = " ".join(f"{a}={b}" for a, b in d.items())
    return f"{k} {parts}".strip()
