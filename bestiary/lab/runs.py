"""Runs as data: play games in parallel and keep one row per game in Parquet.

``run_to_parquet(config, path, games)`` makes ``path`` hold games 0..games-1
of the run ``config``: a new file is created, an interrupted run is resumed
(the games already in the file are not played again) and a finished one is
extended with fresh seeds when ``games`` is larger. Game ``i`` is seeded
``config.seed + i`` and seated by ``i`` alone, so the rows are the same for
every worker count and for the local pool and Ray (``backend="ray"``).

The file is rewritten atomically (temporary file, then rename) every
``checkpoint_seconds`` and at the end, so a kill loses at most that much.
"""

from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import signal
import tempfile
import time
from collections.abc import Callable, Generator, Iterable, Iterator, Mapping
from contextlib import closing
from dataclasses import asdict, dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from ..engine.errors import BadInput, BestiaryError
from ..engine.registry import get_game
from ..i18n import core
from ..sim.pool import stream
from ..sim.runner import check_seats, play_game
from .rows import game_row
from .schema import ROW, SCHEMA_VERSION, meta_of, with_meta

BACKENDS = ("local", "ray")
Progress = Callable[[int], None]
Batches = Generator[list[dict[str, Any]], None, None]


@dataclass(frozen=True)
class RunConfig:
    """What decides a run's rows (picklable; stored in the file's metadata)."""

    game: str
    seats: tuple[str, ...]
    seed: int = 0
    variant: str = ""
    options: Mapping[str, Any] = field(default_factory=dict)
    rotate: bool = False

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["seats"] = list(self.seats)
        d["options"] = dict(self.options)
        return d

    def seats_of(self, index: int) -> list[str]:
        """Game ``index``'s seats: with ``rotate`` the list turns by one each game."""
        if not self.rotate:
            return list(self.seats)
        k = index % len(self.seats)
        return list(self.seats[k:] + self.seats[:k])


def cards_hash(game_id: str, variant: str, options: Mapping[str, Any]) -> str:
    """sha256 over the card files an option names ("" when the shipped cards are used),
    so two runs of different card files never look like one."""
    game = get_game(game_id)
    rules = game.ruleset(variant or None, options)
    h = hashlib.sha256()
    used = False
    for name in sorted(type(rules).path_fields()):
        value = getattr(rules, name, "")
        if value:
            used = True
            h.update(name.encode() + b"\0" + Path(value).read_bytes() + b"\0")
    return h.hexdigest()[:16] if used else ""


def card_file_path(game_id: str, field: str, value: str) -> Path | None:
    """The file a path option names, or the shipped one when it names none."""
    from .cards import SHIPPED

    return Path(value) if value else SHIPPED.get((game_id, field))


def kept_files(game_id: str, variant: str, options: Mapping[str, Any]) -> dict[str, str]:
    """The text of every card file a run plays with, kept in the run's metadata
    so that a comparison can say card by card what changed (``cardiff.py``)."""
    game = get_game(game_id)
    rules = game.ruleset(variant or None, options)
    out = {}
    for option in sorted(type(rules).path_fields()):
        path = card_file_path(game_id, option, getattr(rules, option, "") or "")
        if path is not None and path.is_file():
            out[option] = path.read_text(encoding="utf-8-sig")
    return out


@dataclass(frozen=True)
class _Job:
    config: RunConfig
    cards_hash: str
    indexes: tuple[int, ...]
    allow_import: bool = False  # module:object agent specs (the CLI only, never the server)
    # Ray only: the card files the options name, as (option, file name, bytes).
    files: tuple[tuple[str, str, bytes], ...] = ()


def _card_files(config: RunConfig) -> tuple[tuple[str, str, bytes], ...]:
    """The files the run's options name (``--cards kat.toml``), sent with every
    Ray job: a worker runs in another folder, often on another machine, where
    that path names no file or another one."""
    rules = get_game(config.game).ruleset(config.variant or None, config.options)
    paths = type(rules).path_fields()
    return tuple(
        (key, Path(str(value)).name, Path(str(value)).read_bytes())
        for key, value in sorted(config.options.items())
        if value and key.replace("-", "_") in paths
    )


def _written(files: tuple[tuple[str, str, bytes], ...]) -> dict[str, str]:
    """The job's card files written on this machine (once: a folder per content),
    as option -> path here."""
    out = {}
    for key, name, data in files:
        folder = Path(tempfile.gettempdir(), "bestiary-cards", hashlib.sha256(data).hexdigest())
        path = folder / name
        if not path.is_file():
            folder.mkdir(parents=True, exist_ok=True)
            part = folder / f".{name}.{os.getpid()}"
            part.write_bytes(data)
            os.replace(part, path)
        out[key] = str(path)
    return out


def _play(job: _Job) -> list[dict[str, Any]]:
    cfg = job.config
    game = get_game(cfg.game)
    options_json = json.dumps(dict(cfg.options), sort_keys=True)
    options = {**cfg.options, **_written(job.files)}  # the row keeps the run's paths
    rows = []
    for i in job.indexes:
        seats = cfg.seats_of(i)
        seed = cfg.seed + i
        result, decisions, lab, error = None, 0, None, None
        try:
            o = play_game(
                game,
                seats,
                seed,
                cfg.variant or None,
                options,
                allow_import=job.allow_import,
                lab=True,
            )
            result, decisions, lab = o.result, o.decisions, o.lab
        except Exception as exc:  # one broken game must not lose the run; its row says why
            error = f"{type(exc).__name__}: {exc}"
        rows.append(
            game_row(
                index=i,
                seed=seed,
                game_id=cfg.game,
                variant=cfg.variant,
                options_json=options_json,
                cards_hash=job.cards_hash,
                seats=seats,
                result=result,
                decisions=decisions,
                teams=game.teams(len(seats)) or list(range(len(seats))),
                lab=lab,
                error=error,
            )
        )
    return rows


def _chunks(indexes: Iterable[int], size: int) -> Iterator[tuple[int, ...]]:
    """The indexes in tuples of ``size``, made as they are asked for (a run of
    a hundred million games must not list them first)."""
    it = iter(indexes)
    while chunk := tuple(islice(it, size)):
        yield chunk


def _worker_init() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent alone handles Ctrl-C
    # A forked worker inherits the parent's SIGTERM handler (the CLI turns it
    # into KeyboardInterrupt); the pool stops its workers with SIGTERM, which
    # must end them quietly, not print a traceback from inside a game.
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _local(jobs: Iterable[_Job], workers: int) -> Batches:
    if workers <= 1:
        for job in jobs:
            yield _play(job)
        return
    pool = multiprocessing.get_context("spawn" if os.name == "nt" else "fork").Pool(
        workers, initializer=_worker_init
    )
    try:
        yield from stream(pool, _play, jobs, window=workers * 4)
    finally:
        pool.terminate()
        pool.join()


def _connect(ray: Any, address: str) -> None:
    """Join the running cluster at ``address``; a failure says what to fix, not
    Ray's traceback (docs/LAB.md, "Running on a Ray cluster")."""
    # AuthenticationError: RAY_AUTH_MODE=token but no token here (older Ray lacks the class).
    refused = getattr(ray.exceptions, "AuthenticationError", ConnectionError)
    try:
        ray.init(address=address, include_dashboard=False, log_to_driver=False)
    except (ConnectionError, refused) as exc:
        # Ray turns token authentication on for a cluster whose head has a token
        # (~/.ray/auth_token, made by any earlier local ray.init), but never for
        # a client that names an --address: that client must opt in itself.
        why = f"{exc} {exc.__cause__ or ''}".lower()
        if "authenticat" in why or "authtoken" in why:
            hint = (
                "the cluster uses token authentication: set RAY_AUTH_MODE=token here and "
                "give this machine the cluster's token (a copy of the head's "
                "~/.ray/auth_token, or RAY_AUTH_TOKEN_PATH or RAY_AUTH_TOKEN)"
            )
        else:
            hint = (
                "is it running (`ray start --head --port=PORT` on the head node), "
                "is the address HOST:PORT of its head, and is the port open?"
            )
        raise BadInput(f"cannot join the Ray cluster at {address}: {hint}") from None


def _ray(jobs: Iterable[_Job], address: str | None, workers: int) -> Batches:
    try:
        import ray
    except ImportError:
        raise BadInput("--backend ray needs Ray: pip install 'bestiary[ray]'") from None
    started = not ray.is_initialized()
    if started:
        if address:
            _connect(ray, address)
        else:
            ray.init(num_cpus=max(workers, 1), include_dashboard=False, log_to_driver=False)
    try:
        remote = ray.remote(_play)
        source = iter(jobs)
        # A window of jobs in flight, topped up as results come (not all at once).
        # On a cluster it follows the cluster's CPUs, not this machine's --workers:
        # a 4-core head must not leave most of a 64-core cluster idle.
        slots = max(workers, int(ray.cluster_resources().get("CPU", 0)), 1)
        pending = [remote.remote(job) for job in islice(source, slots * 4)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            pending += [remote.remote(job) for job in islice(source, len(done))]
            for ref in done:
                yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()


def play_rows(
    config: RunConfig,
    indexes: Iterable[int],
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    chunk: int | None = None,
    allow_import: bool = False,
    count: int | None = None,
) -> Batches:
    """Rows of the games ``indexes`` of ``config``, in batches, in any order.
    With ``count`` (how many indexes there are) the indexes may be a lazy
    iterable, read only as the workers get to them."""
    if backend not in BACKENDS:
        raise BadInput(f"unknown backend {backend!r}; allowed: {', '.join(BACKENDS)}")
    game = get_game(config.game)
    check_seats(game, config.seats, allow_import)
    game.ruleset(config.variant or None, config.options)  # bad options fail before any game
    h = cards_hash(config.game, config.variant, config.options)
    if count is None:
        indexes = list(indexes)
        count = len(indexes)
    size = chunk or max(1, min(16, count // (max(workers, 1) * 8) or 1))
    files = _card_files(config) if backend == "ray" else ()
    jobs = (_Job(config, h, c, allow_import, files) for c in _chunks(indexes, size))
    if backend == "ray":
        return _ray(jobs, address, workers)
    return _local(jobs, workers)


def default_workers() -> int:
    return max(1, os.cpu_count() or 1)


# --------------------------------------------------------------------------- files
def read_run(path: str | Path) -> pa.Table:
    p = Path(path)
    if not p.is_file():
        raise BadInput(f"{p} is not a run file (make one with: bestiary simulate GAME --out {p})")
    try:
        table = pq.read_table(p)
    except (pa.ArrowInvalid, OSError) as exc:
        raise BadInput(f"{p} is not a Parquet run file: {exc}") from None
    version = run_meta(table).get("version")
    if version is None or not set(ROW.names) <= set(table.column_names):
        raise BadInput(
            f"{p} is a Parquet file but not a run file (no run configuration or missing "
            f"columns); make one with: bestiary simulate GAME --out {p.name}"
        )
    if version != SCHEMA_VERSION:
        raise BadInput(
            f"{p} was written by an older lab (run file version {version}; this lab reads "
            f"and writes version {SCHEMA_VERSION}): simulate it again into a new file"
        )
    return table


def read_played_run(path: str | Path) -> pa.Table:
    """:func:`read_run` for a report or a comparison: a run in which every game
    failed has nothing to measure, so it is an error that says why the games
    failed, not a page of zeros."""
    table = read_run(path)
    errors = table.column("error").drop_null()
    if len(errors) == table.num_rows:
        first = str(errors[0]) if len(errors) else ""
        raise BadInput(
            core.ngettext(
                "{path} holds no finished game: its {n} game failed ({error}); "
                "fix that and simulate again",
                "{path} holds no finished game: all {n} games failed (the first: {error}); "
                "fix that and simulate again",
                table.num_rows,
            ).format(path=Path(path).name, n=table.num_rows, error=first)
            if table.num_rows
            else core.gettext("{path} holds no game yet; simulate into it first").format(
                path=Path(path).name
            )
        )
    return table


def run_meta(table: pa.Table) -> dict[str, Any]:
    return meta_of(table.schema)


def _file_config(config: RunConfig, h: str) -> dict[str, Any]:
    return {
        "version": SCHEMA_VERSION,
        "config": config.to_json(),
        "cards_hash": h,
        "files": kept_files(config.game, config.variant, config.options),
    }


def _write(path: Path, table: pa.Table) -> None:
    tmp = path.with_name(path.name + ".tmp")
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, path)


@dataclass
class RunResult:
    path: Path
    played: int  # games played by this call
    total: int  # games in the file now
    failed: int  # rows with an error, in the whole file
    seconds: float
    interrupted: bool = False

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "path": str(self.path),
            "played": self.played,
            "total": self.total,
            "failed": self.failed,
            "seconds": round(self.seconds, 3),
            "games_per_second": round(self.games_per_second, 2),
            "interrupted": self.interrupted,
        }


def _existing(path: Path, want: dict[str, Any]) -> pa.Table | None:
    if not path.exists():
        return None
    table = read_run(path)
    have = run_meta(table)
    if have.get("config") != want["config"] or have.get("cards_hash") != want["cards_hash"]:
        raise BadInput(
            f"{path} holds a different run ({_describe(have)}); "
            f"write to another file or delete it to start again"
        )
    return table


def _describe(meta: Mapping[str, Any]) -> str:
    c = meta.get("config", {})
    parts = [str(c.get("game")), "seats " + ",".join(c.get("seats", [])), f"seed {c.get('seed')}"]
    if c.get("variant"):
        parts.append(f"variant {c['variant']}")
    if c.get("options"):
        parts.append("options " + json.dumps(c["options"], sort_keys=True))
    if meta.get("cards_hash"):
        parts.append(f"cards {meta['cards_hash']}")
    return ", ".join(parts)


def run_to_parquet(
    config: RunConfig,
    path: str | Path,
    games: int,
    *,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Progress | None = None,
    checkpoint_seconds: float = 30.0,
    allow_import: bool = False,
) -> RunResult:
    """Make ``path`` hold games ``0..games-1`` of ``config`` (resume, extend or create).

    Ctrl-C stops the run after saving the games finished so far
    (``interrupted`` is set); calling again with the same arguments resumes it.
    """
    if games < 1:
        raise BadInput("--games must be at least 1")
    p = Path(path)
    if p.parent and not p.parent.exists():
        p.parent.mkdir(parents=True, exist_ok=True)
    h = cards_hash(config.game, config.variant, config.options)
    meta = _file_config(config, h)
    old = _existing(p, meta)
    have = set(old.column("index").to_pylist()) if old is not None else set()
    todo_count = games - sum(1 for i in have if 0 <= i < games)
    todo = (i for i in range(games) if i not in have)  # lazy: -n may be huge
    schema = with_meta(ROW, meta)
    tables: list[pa.Table] = [old.cast(schema)] if old is not None else []
    fresh: list[dict[str, Any]] = []
    t0 = time.perf_counter()
    last = t0
    played = 0
    interrupted = False

    def flush() -> None:
        nonlocal fresh
        if fresh:
            tables.append(pa.Table.from_pylist(fresh, schema=schema))
            fresh = []
        if tables:
            merged = pa.concat_tables(tables).sort_by("index")
            tables[:] = [merged]
            _write(p, merged)

    try:
        if todo_count:
            batches = play_rows(
                config,
                todo,
                workers=workers,
                backend=backend,
                address=address,
                allow_import=allow_import,
                count=todo_count,
            )
            # closing: an interrupt stops the workers now, not when the generator is collected
            with closing(batches):
                for batch in batches:
                    fresh.extend(batch)
                    played += len(batch)
                    if progress:
                        progress(len(batch))
                    now = time.perf_counter()
                    if now - last >= checkpoint_seconds:
                        flush()
                        last = now
    except KeyboardInterrupt:
        interrupted = True
    seconds = time.perf_counter() - t0
    flush()
    if not tables:
        raise BestiaryError("no game was played")
    final = tables[0]
    failed = final.column("error").drop_null()
    return RunResult(p, played, final.num_rows, len(failed), seconds, interrupted)


def rows_table(config: RunConfig, rows: Iterable[dict[str, Any]]) -> pa.Table:
    """An in-memory run table (for arena and tests)."""
    h = cards_hash(config.game, config.variant, config.options)
    schema = with_meta(ROW, _file_config(config, h))
    return pa.Table.from_pylist(sorted(rows, key=lambda r: r["index"]), schema=schema)
