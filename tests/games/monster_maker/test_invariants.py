"""Invariants over whole games: cards conserved, hand limits, hidden information
never leaks, determinism; card files; the bot; the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bestiary.agents.base import AgentContext
from bestiary.cli import app
from bestiary.engine import BadCardFile, BadOptions, Rng
from bestiary.games.monster_maker import GAME
from bestiary.games.monster_maker.battle import Member, strengths, win_chance
from bestiary.games.monster_maker.bots import HeuristicAgent
from bestiary.games.monster_maker.cards import DATA, load_cardset
from bestiary.games.monster_maker.rules import MonsterMakerState
from bestiary.sim.runner import play_game


def _deck_cards(st: MonsterMakerState) -> list[int]:
    """Every Monster Maker card of the current dungeon, wherever it lies."""
    cards = st.deck + st.discard + [c for h in st.hands for c in h]
    cards += [c for o in st.out for c in o] + [c for b in st.back for c in b]
    cards += [m for m in st.monster if m >= 0] + st.party + [s for s in st.spell_of if s >= 0]
    cards += [x for x in (st.charmed, st.trap) if x >= 0]
    return cards


def _treasures(st: MonsterMakerState) -> list[int]:
    held = [t for h in st.held for t in h] + [t for b in st.banked for t in b]
    return st.treasure_pile + held + st.removed


def _random_game(seed: int, players: int, **opts: object) -> MonsterMakerState:
    st = GAME.new(players, seed=seed, options=opts)
    assert isinstance(st, MonsterMakerState)
    return st


@pytest.mark.parametrize("players", [2, 4, 6])
def test_cards_conserved_and_hand_limit_hold(players: int) -> None:
    """Nothing is created or lost; "You may not have 8 or more cards at the end of
    your turn"."""
    for seed in range(2):
        st = _random_game(seed, players)
        st.quiet()
        rng = Rng(seed)
        full = sorted(st.cs.deck())
        n_treasures = len(st.cs.treasures)
        while not st.over:
            seat = st.to_act()[0]
            legal = st.legal(seat)
            st.apply(seat, legal[rng.randrange(len(legal))])
            if st.over:
                break
            assert sorted(_deck_cards(st)) == full
            assert sorted(_treasures(st)) == list(range(n_treasures))
            if st.turn != seat:  # the turn ended
                assert len(st.hands[seat]) <= st.rules.hand_limit


def test_views_and_events_never_show_other_hands_or_hidden_treasure() -> None:
    """Hidden information: hands and un-OPEN treasures belong to their owner."""
    st = _random_game(3, 4)
    rng = Rng(3)
    steps = 0
    while not st.over and steps < 3000:
        seat = st.to_act()[0]
        if steps % 13 == 0:
            for other in range(4):
                v = st.view(other)
                for s in range(4):
                    if s == other:
                        continue
                    p = v["players"][s]
                    hidden = [st.cs.treasures[t].name for t in st.held[s] if t not in st.shown[s]]
                    assert p["hidden_treasures"] == len(hidden)
                    assert not set(hidden) & set(p["open_treasures"])
                assert v["hand"] == sorted(st.cs.cards[c].name for c in st.hands[other])
                spectator = st.view(None)
                assert spectator["hand"] is None and spectator["my_treasures"] is None
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
        steps += 1
    for viewer in range(4):
        for e in st.events_since(0, viewer):
            if e.kind in ("drew", "dealt") and e.data.get("seat") != viewer:
                assert "card" not in e.data and "cards" not in e.data
            if e.kind == "treasure" and e.data["seat"] != viewer and not e.data.get("open"):
                assert "treasure" not in e.data


def test_determinize_resamples_hidden_cards_only() -> None:
    """determinize keeps what the seat knows and reshuffles the rest."""
    st = _random_game(4, 4)
    rng = Rng(1)
    for _ in range(60):
        seat = st.to_act()[0]
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
    seat = st.to_act()[0]
    changed = False
    for k in range(5):
        det = st.determinize(seat, Rng(k))
        assert det.view(seat) == st.view(seat)
        assert sorted(_deck_cards(det)) == sorted(_deck_cards(st))
        changed |= any(det.hands[s] != st.hands[s] for s in range(4) if s != seat)
    assert changed


def test_same_seed_same_game() -> None:
    a = play_game(GAME, ["heuristic"] * 3, seed=9)
    b = play_game(GAME, ["heuristic"] * 3, seed=9)
    assert a.result.to_json() == b.result.to_json() and a.decisions == b.decisions


def test_clone_is_independent() -> None:
    st = _random_game(1, 3)
    c = st.clone()
    seat = c.to_act()[0]
    c.apply(seat, c.legal(seat)[0])
    assert st.view(seat) != c.view(seat) or st.event_count() != c.event_count()
    assert st.hands is not c.hands and st.hands[0] is not c.hands[0]


def test_bad_card_file_names_the_line(tmp_path: Path) -> None:
    text = (DATA / "deck.csv").read_text().replace("Orc,monster,1,11,human", "Orc,monster,1,11,elf")
    bad = tmp_path / "deck.csv"
    bad.write_text(text)
    with pytest.raises(BadCardFile) as err:
        load_cardset(str(bad))
    line = next(i + 1 for i, t in enumerate(text.splitlines()) if t.startswith("Orc,"))
    assert err.value.line == line and "monster type 'elf'" in str(err.value)
    with pytest.raises(BadCardFile):
        GAME.new(3, seed=1, options={"cards": str(bad)})


def test_bad_treasure_weapon_user(tmp_path: Path) -> None:
    text = (
        (DATA / "treasures.csv").read_text().replace("Fighter Elf,,no\nSword", "Paladin,,no\nSword")
    )
    bad = tmp_path / "t.csv"
    bad.write_text(text)
    with pytest.raises(BadCardFile, match="Paladin"):
        load_cardset("", str(bad))


def test_the_21_treasures_of_the_appendix() -> None:
    """Appendix C: 21 treasure cards, the six OPEN ones first, then eight weapons;
    appendix B names exactly twenty monsters."""
    cs = load_cardset()
    assert len(cs.treasures) == 21
    opened = {t.name for t in cs.treasures if t.open}
    assert opened == {
        "Royal Princess",
        "Secret Door",
        "Pile of Gold Coins",
        "Holy Coffin",
        "Statue of Goddess",
        "Statue of Hero",
    }
    assert sum(1 for t in cs.treasures if t.weapon) == 8
    assert sum(1 for c in cs.cards if c.kind == "monster") == 20


def test_bad_option_is_refused() -> None:
    with pytest.raises(BadOptions, match="choices"):
        GAME.new(3, seed=1, options={"detour_edition": 3})


def test_exact_odds() -> None:
    """The odds are exact: a Fighter (3D+3) reaches 12 or more when 3D >= 9,
    which is 160 of 216 rolls; nobody fighting has no chance."""
    rules = GAME.ruleset()
    cs = load_cardset()
    table = strengths(cs, rules)  # type: ignore[arg-type]
    fighter = cs.by_name["fighter"].index
    assert win_chance(cs, rules, table, [], 1) == 0.0  # type: ignore[arg-type]
    p = win_chance(cs, rules, table, [Member(fighter)], 12)  # type: ignore[arg-type]
    assert abs(p - 160 / 216) < 1e-12


def test_heuristic_beats_random() -> None:
    """The heuristic bot must beat random clearly (the report measures 500 games)."""
    wins = 0.0
    games = 16
    for g in range(games):
        seats = ["random"] * 3
        seats.insert(g % 4, "heuristic")
        out = play_game(GAME, seats, seed=100 + g)
        if g % 4 in out.result.winners:
            wins += 1 / len(out.result.winners)
    assert wins / games >= 0.6


def test_heuristic_only_chooses_legal_moves_under_house_rules() -> None:
    st = GAME.new(3, seed=4, variant="house", options={"spell_strength": "replaces"})
    bots = [HeuristicAgent(seed=i) for i in range(3)]
    st.quiet()
    while not st.over:
        seat = st.to_act()[0]
        move = bots[seat].act(AgentContext(st, seat, Rng(seat)))
        assert move in st.legal(seat)
        st.apply(seat, move)


def test_cli_cards_and_play() -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["cards", "monster-maker", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["totals"]["treasures"] == 21 and data["totals"]["monster"] == 20
    res = runner.invoke(
        app, ["play", "monster-maker", "--seats", "heuristic,heuristic", "--seed", "2"]
    )
    assert res.exit_code == 0, res.output
    assert "Monster Maker" in res.stdout and "Game over" in res.stdout
