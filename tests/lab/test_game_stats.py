"""The games' lab statistics (games/<id>/stats.py) against what the rules and
the results say, and Ludii's lead changes against hand-counted examples."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest

from bestiary.engine.registry import get_game
from bestiary.lab.rows import lead_changes
from bestiary.lab.runs import RunConfig, play_rows, read_run
from bestiary.sim.runner import play_game


def test_lead_changes_and_the_decided_round_by_hand() -> None:
    # leaders after each round: seat 0, seat 1, seat 0, seat 0 -> two changes;
    # the winner (seat 0) leads alone from round 3 to the end.
    running = [[1, 0], [1, 2], [3, 2], [4, 2]]
    assert lead_changes(running, [0, 1], [0]) == (2, 3)
    # a tied lead changes nothing; decided in the last round
    assert lead_changes([[0, 0], [1, 1], [2, 1]], [0, 1], [0]) == (0, 3)
    # teams: seats 0 and 2 play for team 0; the best member's score is the side's
    running4 = [[0, 3, 5, 1], [0, 6, 5, 1], [0, 6, 9, 1]]
    assert lead_changes(running4, [0, 1, 0, 1], [0, 2]) == (2, 3)
    # a shared win has no single winner to be clear; no running scores: nothing
    assert lead_changes([[1, 1]], [0, 1], [0, 1]) == (0, None)
    assert lead_changes([], [0, 1], [0]) == (None, None)


def _lab(game_id: str, seats: tuple[str, ...], seed: int, **options: Any) -> Any:
    o = play_game(get_game(game_id), list(seats), seed, None, options, lab=True)
    assert o.lab is not None
    return o


def _by(items: list[dict[str, Any]], kind: str) -> list[dict[str, Any]]:
    return [i for i in items if i["kind"] == kind]


@pytest.mark.parametrize("seed", [1, 2])
def test_taxonomy_patterns_points_natures_and_collecting(seed: int) -> None:
    o = _lab("taxonomy", ("heuristic",) * 3, seed)
    lab, stats = o.lab, o.result.stats
    patterns = _by(lab.items, "pattern")
    assert [p["name"] for p in patterns] == stats["round_outcome"]
    # the points of the rounds each seat won are its score, round by round
    points: defaultdict[int, float] = defaultdict(float)
    for p in patterns:
        if p["seat"] >= 0:
            points[p["seat"]] += p["value"]
    assert [points[s] for s in range(3)] == o.result.scores
    assert lab.running[-1] == o.result.scores and len(lab.running) == stats["rounds"]
    assert lab.stats["stock_ran_out"] == stats["no_winner_rounds"]
    natures = _by(lab.items, "nature")
    assert sum(n["value"] for n in natures) == lab.stats["natures_fired"] > 0
    assert {n["name"] for n in natures} <= {
        "aggressive",
        "cheerful",
        "mean",
        "proud",
        "honest",
        "impatient",
    }
    # every round won with sets: each winning key was held (>= 4) so it is a success
    attempts = _by(lab.items, "collecting")
    assert len(attempts) == lab.stats["collecting_attempts"]
    successes = sum(a["value"] for a in attempts)
    won_rounds = sum(1 for p in patterns if p["seat"] >= 0)
    assert won_rounds <= successes <= 2 * won_rounds  # 4+4 / 5+3: two keys; 8: one


def test_monster_maker_homes_deaths_treasures_and_running_gold() -> None:
    o = _lab("monster-maker", ("heuristic",) * 4, 5)
    lab, stats = o.lab, o.result.stats
    homes = lab.stats["home_dungeons"]
    assert sum(homes) == round(stats["home_per_dungeon"] * stats["dungeons"])
    assert len(lab.stats["home_turns"]) == sum(homes)
    assert all(0 < t <= stats["turns"] for t in lab.stats["home_turns"])
    assert [i["value"] for i in _by(lab.items, "got home")] == homes
    assert [i["value"] for i in _by(lab.items, "died")] == lab.stats["deaths"]
    assert len(lab.stats["death_causes"]) == sum(lab.stats["deaths"])
    # banked treasure and prize values add up to each seat's gold, the game's score
    gold: Counter[int] = Counter()
    for i in _by(lab.items, "treasure") + _by(lab.items, "prize"):
        gold[i["seat"]] += i["value"]
    assert [gold[s] for s in range(4)] == stats["gold"]
    assert len(lab.running) == stats["dungeons"] and lab.running[-1] == o.result.scores
    steps = zip(lab.running, lab.running[1:], strict=False)
    assert all(a <= b for r0, r1 in steps for a, b in zip(r0, r1, strict=True))  # gold only grows


def test_meat_picks_plays_and_vitality() -> None:
    o = _lab("meat", ("heuristic", "heuristic"), 4)
    lab, stats = o.lab, o.result.stats
    for kind, key in (("picked", "cards_picked"), ("played", "cards_played")):
        per_seat = [sum(i["value"] for i in _by(lab.items, kind) if i["seat"] == s) for s in (0, 1)]
        assert per_seat == lab.stats[key]
    assert [i["name"] for i in _by(lab.items, "leader")] == stats["player_leaders"]
    assert len(lab.running) == stats["rounds"] and lab.running[-1] == o.result.scores


def test_meat_picks_are_the_draft_moves() -> None:
    game = get_game("meat")
    o = play_game(game, ["random", "random"], 9, record=True, lab=True)
    assert o.record is not None and o.lab is not None
    drafted = Counter(m for _, m in _moves(o.record) if m.startswith("draft "))
    picked = sum(i["value"] for i in _by(o.lab.items, "picked"))
    assert picked == sum(drafted.values()) > 0


def _moves(record: Any) -> list[tuple[int, str]]:
    data = record.to_json() if hasattr(record, "to_json") else record
    return [(int(m[0]), str(m[1])) for m in data["moves"]]


def test_teratozoic_eras_gene_pool_and_monsters() -> None:
    o = _lab("teratozoic", ("heuristic", "heuristic"), 2)
    lab, stats = o.lab, o.result.stats
    gens = stats["generations"]
    assert sum(lab.stats["era_lengths"]) == gens
    assert sum(i["value"] for i in _by(lab.items, "era")) == gens
    pool = _by(lab.items, "gene pool")
    assert [p["name"] for p in pool] == [f"generation {g:02d}" for g in range(1, gens + 1)]
    assert sum(lab.stats["generations_won"]) == gens
    assert lab.stats["monster_sizes"] and min(lab.stats["monster_sizes"]) >= 1
    assert lab.running == []  # no running score: no lead changes


def test_taxonomy_rows_do_not_depend_on_worker_count() -> None:
    cfg = RunConfig("taxonomy", ("heuristic", "random", "random"), seed=5, rotate=True)
    one = sorted((r for b in play_rows(cfg, range(3)) for r in b), key=lambda r: r["index"])
    two = sorted(
        (r for b in play_rows(cfg, range(3), workers=2, chunk=1) for r in b),
        key=lambda r: r["index"],
    )
    assert one == two
    assert [r["seats"][0] for r in one] == ["heuristic", "random", "random"]


def test_every_game_writes_its_statistics_into_the_run(game_runs: dict[str, Path]) -> None:
    kinds = {
        "taxonomy": {"pattern", "round_end", "nature", "collecting"},
        "monster-maker": {"got home", "died", "treasure", "prize"},
        "meat": {"leader", "faction", "picked", "played"},
        "teratozoic": {"era", "gene pool", "took", "kept"},
    }
    for game, path in game_runs.items():
        rows = read_run(path).to_pylist()
        assert all(r["error"] is None for r in rows), game
        got = {i["kind"] for r in rows for i in r["items"]}
        assert kinds[game] <= got, game
        assert all(r["branching"] >= 1 for r in rows)
        assert all(json.loads(r["stats"]) for r in rows)
        has_running = game != "teratozoic"
        assert all((r["lead_changes"] is not None) == has_running for r in rows), game


def test_an_items_win_share_splits_a_tie_like_the_seats_share() -> None:
    from bestiary.engine.protocol import Result
    from bestiary.lab.metrics import all_metrics
    from bestiary.lab.rows import game_row
    from bestiary.lab.runs import rows_table
    from bestiary.sim.runner import LabData

    cfg = RunConfig("taxonomy", ("random",) * 3, seed=0)
    rows = []
    for i, winners in enumerate(([0, 1], [2])):  # a tie of seats 0 and 1, then seat 2 alone
        items = [{"kind": "nature", "name": "mean", "seat": s, "value": 1} for s in range(3)]
        rows.append(
            game_row(
                index=i,
                seed=i,
                game_id="taxonomy",
                variant="",
                options_json="{}",
                cards_hash="",
                seats=["random"] * 3,
                result=Result([1.0, 1.0, 1.0], winners, {}),
                decisions=10,
                teams=[0, 1, 2],
                lab=LabData(2.0, {}, items, []),
            )
        )
    ms = all_metrics(rows_table(cfg, rows))
    assert [ms[f"seat{s}_win"].k for s in range(3)] == [0.5, 0.5, 1.0]
    mean = ms["item:nature:mean"]
    assert (mean.k, mean.n) == (2.0, 6)  # 0.5 + 0.5 + 1: one win per game, as the seats'
    assert ms["item:nature:mean:rate"].value == 1.0
    assert ms["branching"].value == 2.0
