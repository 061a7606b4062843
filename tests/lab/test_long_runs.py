"""Long lab runs (issue 28, point 4: "SIGTERM on `simulate --out` exits 143,
keeps nothing of up to 30 s of games and prints two BrokenPipeError
tracebacks with `--workers 2` (the README says a kill keeps the finished
games); `-n 100000000` builds its whole to-do list first and dies with
MemoryError")."""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from pathlib import Path

import pyarrow.parquet as pq

from bestiary.lab.runs import RunConfig, play_rows

# The console script beside the interpreter (a real process: signals, exit code).
BESTIARY = str(Path(sys.executable).with_name("bestiary"))


def _simulate(out: Path, games: int) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [BESTIARY, "simulate", "meat", "--seats", "random,random",
         "-n", str(games), "--workers", "2", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip


def test_sigterm_keeps_the_finished_games_quietly_and_the_run_resumes(tmp_path: Path) -> None:
    out = tmp_path / "long.parquet"
    proc = _simulate(out, 10_000_000)
    # The pool's workers start once the run (and its SIGTERM handler) is set
    # up; on a loaded machine the imports alone can take seconds.
    children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children")
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and len(children.read_text().split()) < 2:
        time.sleep(0.2)
    time.sleep(4)  # some games played, far from a 30 s checkpoint
    proc.send_signal(signal.SIGTERM)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 128 + signal.SIGTERM, stderr
    assert "Traceback" not in stderr and "Error" not in stderr, stderr
    assert "run the same command again to resume" in stderr
    indexes = set(pq.read_table(out, columns=["index"]).column("index").to_pylist())
    kept = len(indexes)
    assert kept > 0, stdout
    # Resumed with a smaller -n: nothing the file holds is played again. Two
    # workers finish their chunks out of order, so the kept games need not be
    # games 0..kept-1; the gaps below the last kept game are what is left to play.
    upto = max(indexes) + 1
    done = subprocess.run(
        [BESTIARY, "simulate", "meat", "--seats", "random,random",
         "-n", str(upto), "--out", str(out)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert f"{upto} games ({upto - kept} played now" in done.stdout
    final = pq.read_table(out, columns=["index"]).column("index").to_pylist()
    assert sorted(final) == list(range(upto))  # each game once, none twice


def test_the_games_of_a_huge_run_are_not_listed_before_the_first_one_is_played() -> None:
    """A hundred million indexes, read lazily: the first batch comes at once."""
    config = RunConfig("meat", ("random", "random"), 0, "", {}, False)
    taken: list[int] = []

    def indexes() -> object:
        for i in range(100_000_000):
            taken.append(i)
            yield i

    batches = play_rows(config, indexes(), workers=1, count=100_000_000)  # type: ignore[arg-type]
    first = next(iter(batches))
    assert len(first) >= 1 and len(taken) <= 64  # one chunk was read, not the whole run
