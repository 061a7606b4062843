"""Datasets of decisions for offline learning (``bestiary rl dataset``).

One Parquet row per decision, holding only what the acting seat knew when it
chose: its observation vector and its view (the environments' encoding), its
legal action indices, then the action it took, and, filled in when the game
ends, every seat's reward. Nothing else: never another seat's hidden cards
(``tests/rl/test_protocol.py`` builds rows in two states the seat cannot tell
apart and finds them identical). The schema is in docs/RL.md ("Datasets").

Game ``i`` of a run is dealt with seed ``seed + i`` and its agents are seeded
as in ``bestiary simulate``, so the same agents and seed give the same games
there. Writing needs pyarrow (``pip install 'bestiary[lab]'``).

:func:`load` returns NumPy arrays (:class:`Dataset`). For PyTorch,
``torch.utils.data.TensorDataset(torch.from_numpy(d.observation),
torch.from_numpy(d.action))`` (masks per batch with ``d.masks(rows)``); for
JAX, ``jax.numpy.asarray(d.observation)``. This module imports neither.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..agents.base import AgentContext, make_agent
from ..engine.errors import BestiaryError
from ..engine.protocol import Action, Game, State
from ..engine.rng import Rng
from .aec import win_rewards
from .encoding import Observer, observer_for

FORMAT = "bestiary-dataset/1"
#: The columns, in order (docs/RL.md describes each).
COLUMNS = (
    "game",
    "seed",
    "step",
    "seat",
    "agent",
    "observation",
    "view",
    "legal",
    "action",
    "action_text",
    "reward",
    "rewards",
)


def need_pyarrow() -> Any:
    """pyarrow, or a one-line error saying how to install it."""
    try:
        import pyarrow
        import pyarrow.parquet  # the submodule must load too
    except ImportError:
        raise BestiaryError(
            "datasets are Parquet files and need pyarrow: pip install 'bestiary[lab]'"
        ) from None
    return pyarrow


def view_json(view: Mapping[str, Any]) -> str:
    """The seat's view as JSON text (keys sorted, so equal views give equal text)."""
    return json.dumps(view, sort_keys=True, default=str, ensure_ascii=False)


def decision_row(state: State, seat: int, observer: Observer) -> tuple[list[float], str, list[int]]:
    """What ``seat`` knows when it decides: its encoded view, its view as JSON
    and its legal indices (sorted). Built from ``state.view(seat)`` and
    ``state.legal(seat)`` only."""
    view = state.view(seat)
    legal = sorted(state.action_index(a) for a in state.legal(seat))
    return observer.encode(view), view_json(view), legal


def play_rows(
    game: Game,
    specs: Sequence[str],
    seed: int,
    index: int,
    observer: Observer,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    max_decisions: int = 1_000_000,
) -> dict[str, list[Any]]:
    """One game (seed ``seed``, the ``index``-th of its run) as columns."""
    players = len(specs)
    state = game.new(players, seed=seed, variant=variant, options=options)
    state.quiet()
    # The seeds of bestiary.sim.runner.play_game: the same games as `simulate`.
    agents = [
        make_agent(game, spec, seed * 1009 + i + 1, allow_import=True)
        for i, spec in enumerate(specs)
    ]
    rngs = [Rng(seed * 7919 + i + 13) for i in range(players)]
    cols: dict[str, list[Any]] = {c: [] for c in COLUMNS}
    step = 0
    while not state.over:
        owed = state.to_act()
        if not owed:
            raise BestiaryError(f"{game.id}: no seat to act but the game is not over")
        seat = owed[0]
        observation, view, legal = decision_row(state, seat, observer)
        action: Action = agents[seat].act(AgentContext(state, seat, rngs[seat]))
        cols["game"].append(index)
        cols["seed"].append(seed)
        cols["step"].append(step)
        cols["seat"].append(seat)
        cols["agent"].append(specs[seat])
        cols["observation"].append(observation)
        cols["view"].append(view)
        cols["legal"].append(legal)
        cols["action"].append(state.action_index(action))
        cols["action_text"].append(str(action))
        state.apply(seat, action)
        step += 1
        if step > max_decisions:
            raise BestiaryError(f"{game.id}: no end after {max_decisions} decisions (seed {seed})")
    rewards = win_rewards(state)
    cols["rewards"] = [rewards] * step
    cols["reward"] = [rewards[s] for s in cols["seat"]]
    return cols


def write(
    path: Path,
    game: Game,
    specs: Sequence[str],
    games: int,
    seed: int = 0,
    variant: str | None = None,
    options: Mapping[str, Any] | None = None,
    progress: Callable[[int], None] | None = None,
) -> int:
    """Play ``games`` games and write their decisions to ``path`` (one row
    group per game); the number of rows. Bad specs or options fail before
    anything is written."""
    pa = need_pyarrow()
    import pyarrow.parquet as pq

    from ..sim.runner import check_seats

    if games < 1:
        raise BestiaryError(f"--games must be at least 1, not {games}")
    check_seats(game, specs, allow_import=True)
    players = len(specs)
    rules = game.ruleset(variant, options)
    try:
        observer = observer_for(game, players, rules)
    except NotImplementedError as exc:  # a game without observe.py has no dataset
        raise BestiaryError(str(exc)) from None
    meta = {
        "format": FORMAT,
        "game": game.id,
        "players": players,
        "variant": variant or game.default_variant,
        "options": dict(options or {}),
        "agents": list(specs),
        "seed": seed,
        "games": games,
        "num_actions": game.num_actions(players, rules),
        "observation_size": observer.size,
    }
    schema = pa.schema(
        [
            ("game", pa.int32()),
            ("seed", pa.int64()),
            ("step", pa.int32()),
            ("seat", pa.int8()),
            ("agent", pa.string()),
            ("observation", pa.list_(pa.float32(), observer.size)),
            ("view", pa.string()),
            ("legal", pa.list_(pa.int32())),
            ("action", pa.int32()),
            ("action_text", pa.string()),
            ("reward", pa.float32()),
            ("rewards", pa.list_(pa.float32(), players)),
        ],
        metadata={"bestiary": json.dumps(meta, default=str)},
    )
    rows = 0
    tmp = path.with_name(path.name + ".part")
    try:
        with pq.ParquetWriter(tmp, schema, compression="zstd") as writer:
            for i in range(games):
                cols = play_rows(game, specs, seed + i, i, observer, variant, options)
                writer.write_table(pa.table(cols, schema=schema))
                rows += len(cols["step"])
                if progress:
                    progress(1)
        tmp.replace(path)  # a finished file or none: never half a dataset under its name
    finally:
        tmp.unlink(missing_ok=True)
    return rows


@dataclass
class Dataset:
    """A dataset as NumPy arrays, one entry per decision (row)."""

    observation: npt.NDArray[np.float32]  # (rows, observation_size)
    action: npt.NDArray[np.int64]  # the index played
    legal: npt.NDArray[np.int64]  # every row's legal indices, concatenated
    legal_offsets: npt.NDArray[np.int64]  # row r's are legal[offsets[r]:offsets[r+1]]
    seat: npt.NDArray[np.int64]
    game: npt.NDArray[np.int64]
    seed: npt.NDArray[np.int64]
    step: npt.NDArray[np.int64]
    reward: npt.NDArray[np.float32]  # the acting seat's final reward
    rewards: npt.NDArray[np.float32]  # (rows, players): every seat's
    action_text: list[str]
    view: list[str]  # JSON
    agent: list[str]
    meta: dict[str, Any] = field(default_factory=dict)

    def __len__(self) -> int:
        return len(self.action)

    def legal_of(self, row: int) -> npt.NDArray[np.int64]:
        return self.legal[self.legal_offsets[row] : self.legal_offsets[row + 1]]

    def masks(
        self, rows: Sequence[int] | npt.NDArray[np.int64] | None = None
    ) -> npt.NDArray[np.bool_]:
        """Dense masks (len(rows), num_actions) for a batch of rows (all by
        default: mind Teratozoic's 74,212 actions a row)."""
        picked = np.arange(len(self)) if rows is None else np.asarray(rows, dtype=np.int64)
        out = np.zeros((len(picked), int(self.meta["num_actions"])), dtype=np.bool_)
        for k, r in enumerate(picked):
            out[k, self.legal_of(int(r))] = True
        return out


def load(path: str | Path) -> Dataset:
    """Read a dataset written by :func:`write` (``bestiary rl dataset``)."""
    need_pyarrow()
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except (OSError, ValueError) as exc:
        raise BestiaryError(f"{path} is not a readable Parquet dataset: {exc}") from None
    raw = (table.schema.metadata or {}).get(b"bestiary")
    meta = json.loads(raw) if raw else {}
    if meta.get("format") != FORMAT or set(COLUMNS) - set(table.column_names):
        raise BestiaryError(f"{path} is not a Bestiary dataset ({FORMAT})")
    n = table.num_rows

    def ints(name: str) -> npt.NDArray[np.int64]:
        return np.asarray(table.column(name).to_numpy(), dtype=np.int64)

    def flat(name: str) -> Any:
        return table.column(name).combine_chunks()

    legal = flat("legal")
    return Dataset(
        observation=np.asarray(flat("observation").flatten().to_numpy(), dtype=np.float32).reshape(
            n, int(meta["observation_size"])
        ),
        action=ints("action"),
        legal=np.asarray(legal.flatten().to_numpy(), dtype=np.int64),
        legal_offsets=np.asarray(legal.offsets.to_numpy(), dtype=np.int64)
        - int(legal.offsets[0].as_py()),
        seat=ints("seat"),
        game=ints("game"),
        seed=ints("seed"),
        step=ints("step"),
        reward=np.asarray(table.column("reward").to_numpy(), dtype=np.float32),
        rewards=np.asarray(flat("rewards").flatten().to_numpy(), dtype=np.float32).reshape(
            n, int(meta["players"])
        ),
        action_text=table.column("action_text").to_pylist(),
        view=table.column("view").to_pylist(),
        agent=table.column("agent").to_pylist(),
        meta=meta,
    )
