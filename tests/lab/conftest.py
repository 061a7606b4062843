"""Tiny runs shared by the lab tests (tens of games: CI time stays small)."""

from __future__ import annotations

from pathlib import Path

import pytest

from bestiary.lab.runs import RunConfig, run_to_parquet


@pytest.fixture(scope="session")
def meat_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("runs") / "meat.parquet"
    run_to_parquet(RunConfig("meat", ("heuristic", "random"), seed=1, rotate=True), path, 12)
    return path


@pytest.fixture(scope="session")
def meat_run_b(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("runs") / "meat_b.parquet"
    run_to_parquet(RunConfig("meat", ("random", "random"), seed=1, rotate=True), path, 12)
    return path


@pytest.fixture(scope="session")
def game_runs(tmp_path_factory: pytest.TempPathFactory, meat_run: Path) -> dict[str, Path]:
    """A few games of every game (two seats, one heuristic bot), for the game sections."""
    out = {"meat": meat_run}
    folder = tmp_path_factory.mktemp("games")
    for game in ("taxonomy", "monster-maker", "teratozoic"):
        path = folder / f"{game}.parquet"
        run_to_parquet(RunConfig(game, ("heuristic", "random"), seed=3, rotate=True), path, 4)
        out[game] = path
    return out
