"""The Lab page's API: runs in the background, their reports, comparisons.

``lab_router(engine, data_dir)`` is an :class:`APIRouter` the app includes.
A run is a row of the ``lab_runs`` table in the server's own database
(progress, status) and a Parquet file ``<data_dir>/lab/runs/<id>.parquet``.
Card files come only from ``<data_dir>/lab/cards/``: a client names one of
the files listed there, never a path. Runs play one after another in one
background thread (the server's cores belong to its players first).

When the app stops, a run in progress saves its games and goes back to
``queued``; when the router is created again (the server restarts) every
queued or running run is resumed from its file.
"""

from __future__ import annotations

import json
import re
import secrets
import threading
import time
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, FastAPI, HTTPException, Query, Request
from fastapi.responses import FileResponse, HTMLResponse
from pydantic import BaseModel, Field

from ..engine.errors import BestiaryError
from ..engine.registry import game_ids, get_game
from ..i18n import N_, core, from_accept_language, normalize, use_language

_ = core.gettext

WEB = Path(__file__).resolve().parent.parent / "web"
CARD_SUFFIXES = (".toml", ".csv")
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._ -]{0,99}$")
_ID = re.compile(r"^[a-f0-9]{12}$")
# A run's status, as an error message names it (the page shows its own words).
STATUS = {
    "queued": N_("queued"),
    "running": N_("running"),
    "done": N_("done"),
    "failed": N_("failed"),
}

metadata = sa.MetaData()
lab_runs = sa.Table(
    "lab_runs",
    metadata,
    sa.Column("id", sa.String(12), primary_key=True),
    sa.Column("game", sa.String(64), nullable=False),
    sa.Column("variant", sa.String(64), nullable=False, default=""),
    sa.Column("seats", sa.Text, nullable=False),  # JSON list of agent specs
    sa.Column("options", sa.Text, nullable=False),  # JSON, without the card file
    sa.Column("cards", sa.String(100), nullable=False, default=""),  # a lab folder file name
    sa.Column("seed", sa.Integer, nullable=False, default=0),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("done", sa.Integer, nullable=False, default=0),
    sa.Column("status", sa.String(16), nullable=False),  # queued, running, done, failed
    sa.Column("error", sa.Text, nullable=True),
    sa.Column("games_per_second", sa.Float, nullable=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
)


class NewRun(BaseModel):
    game: str = Field(max_length=64)
    seats: list[str] = Field(min_length=1, max_length=6)
    variant: str = Field("", max_length=64)
    options: dict[str, str | int | float | bool] = Field(default_factory=dict, max_length=20)
    cards: str = Field("", max_length=100)
    games: int = Field(100, ge=1)
    seed: int = Field(0, ge=0, le=2**31 - 1)


class LabFolders:
    def __init__(self, data_dir: Path) -> None:
        self.root = data_dir / "lab"
        self.cards = self.root / "cards"
        self.runs = self.root / "runs"
        for d in (self.cards, self.runs):
            d.mkdir(parents=True, exist_ok=True)

    def card_files(self) -> list[str]:
        return sorted(
            p.name
            for p in self.cards.iterdir()
            if p.is_file() and p.suffix.lower() in CARD_SUFFIXES
        )

    def card_path(self, name: str) -> Path:
        """The file ``name`` in the lab folder, only if it is listed there."""
        if not _NAME.match(name) or name not in self.card_files():
            raise HTTPException(
                404, _("no card file {name} in the lab folder").format(name=repr(name[:100]))
            )
        return self.cards / name

    def run_file(self, run_id: str) -> Path:
        return self.runs / f"{run_id}.parquet"


def _language(request: Request, lang: str | None) -> str:
    """The language of the messages a person reads: the page's (``?lang=``),
    else the browser's (``Accept-Language``), else English."""
    return normalize(lang) or from_accept_language(request.headers.get("accept-language"))


LangQuery = Query(None, max_length=20, description="language of error messages: en or pl")


def _missing_lab_packages() -> list[str]:
    """The lab's packages this server cannot import (the web extra does not
    bring them: `pip install 'bestiary[lab]'`). Looked up, not imported."""
    import importlib.util

    return [m for m in ("pyarrow", "duckdb", "matplotlib") if importlib.util.find_spec(m) is None]


def lab_router(
    engine: sa.Engine,
    data_dir: Path,
    *,
    max_games: int = 100_000,
    workers: int = 1,
) -> APIRouter:
    """The lab API under ``/api/lab`` and the page at ``/lab``."""
    metadata.create_all(engine, checkfirst=True)
    folders = LabFolders(data_dir)
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lab-run")
    reports_lock = threading.Lock()
    stopping = threading.Event()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        stopping.set()  # the run in progress saves its games at its next batch
        pool.shutdown(wait=True, cancel_futures=True)

    router = APIRouter(lifespan=lifespan)

    def row(run_id: str) -> dict[str, Any]:
        if not _ID.match(run_id):
            raise HTTPException(404, _("no such run"))
        with engine.connect() as c:
            r = c.execute(sa.select(lab_runs).where(lab_runs.c.id == run_id)).mappings().first()
        if r is None:
            raise HTTPException(404, _("no such run"))
        return _public(dict(r))

    def update(run_id: str, **values: Any) -> None:
        with engine.begin() as c:
            c.execute(sa.update(lab_runs).where(lab_runs.c.id == run_id).values(**values))

    def play(run_id: str, req: NewRun, options: dict[str, Any]) -> None:
        from ..lab.runs import RunConfig, run_to_parquet

        update(run_id, status="running")
        done = 0
        last = 0.0

        def progress(k: int) -> None:
            nonlocal done, last
            if stopping.is_set():
                raise KeyboardInterrupt  # run_to_parquet saves what is played and returns
            done += k
            now = time.monotonic()
            if now - last > 0.5:  # the database is not a progress bar: a write per half second
                last = now
                update(run_id, done=done)

        cfg = RunConfig(req.game, tuple(req.seats), req.seed, req.variant, options, rotate=True)
        try:
            res = run_to_parquet(
                cfg, folders.run_file(run_id), req.games, workers=workers, progress=progress
            )
        except Exception as exc:  # the run failed, the server did not: say why on the page
            update(run_id, status="failed", error=f"{type(exc).__name__}: {exc}"[:500])
            return
        if res.interrupted:
            update(run_id, status="queued", done=res.total)  # resumed at the next start
            return
        update(
            run_id, status="done", done=res.total, games_per_second=round(res.games_per_second, 2)
        )

    def resume_unfinished() -> None:
        with engine.connect() as c:
            rows = (
                c.execute(
                    sa.select(lab_runs)
                    .where(lab_runs.c.status.in_(("queued", "running")))
                    .order_by(lab_runs.c.created)
                )
                .mappings()
                .all()
            )
        for r in rows:
            req = NewRun(
                game=r["game"],
                seats=json.loads(r["seats"]),
                variant=r["variant"],
                options=json.loads(r["options"]),
                cards=r["cards"],
                games=r["games"],
                seed=r["seed"],
            )
            try:
                options = checked_options(req)
            except (BestiaryError, HTTPException) as exc:  # e.g. its card file was removed
                detail = exc.detail if isinstance(exc, HTTPException) else str(exc)
                update(r["id"], status="failed", error=f"cannot resume: {detail}"[:500])
                continue
            update(r["id"], status="queued")
            pool.submit(play, r["id"], req, options)

    @router.get("/api/lab/games", summary="Games, variants, options and bots for the lab")
    def games() -> dict[str, Any]:
        out = []
        for gid in game_ids():
            try:
                out.append(get_game(gid).info())
            except BestiaryError:
                continue
        return {"games": out, "max_games": max_games}

    @router.get("/api/lab/cards", summary="Card files in the server's lab folder")
    def cards() -> dict[str, Any]:
        return {"files": folders.card_files()}

    @router.post("/api/lab/runs", summary="Start a run in the background")
    def start(req: NewRun, request: Request, lang: str | None = LangQuery) -> dict[str, Any]:
        with use_language(_language(request, lang)):
            return start_run(req)

    def start_run(req: NewRun) -> dict[str, Any]:
        missing = _missing_lab_packages()
        if missing:
            raise HTTPException(
                503,
                _(
                    "the lab needs its extra on the server: pip install 'bestiary[lab]' "
                    "({missing} missing)"
                ).format(missing=", ".join(missing)),
            )
        if req.games > max_games:
            raise HTTPException(422, _("games must be between 1 and {most}").format(most=max_games))
        try:
            options = checked_options(req)
        except BestiaryError as exc:  # a bad game, seat or option: say which, as the app does
            raise HTTPException(400, str(exc)) from None
        run_id = secrets.token_hex(6)
        with engine.begin() as c:
            c.execute(
                sa.insert(lab_runs).values(
                    id=run_id,
                    game=req.game,
                    variant=req.variant,
                    seats=json.dumps(req.seats),
                    options=json.dumps(req.options, sort_keys=True),
                    cards=req.cards,
                    seed=req.seed,
                    games=req.games,
                    done=0,
                    status="queued",
                    created=datetime.now(UTC),
                )
            )
        pool.submit(play, run_id, req, options)
        return row(run_id)

    def checked_options(req: NewRun) -> dict[str, Any]:
        from ..sim.runner import check_seats

        game = get_game(req.game)
        check_seats(game, req.seats)  # no module:object specs: allow_import stays off
        type(game.ruleset(None)).refuse_paths(req.options)  # files only through `cards`
        options: dict[str, Any] = dict(req.options)
        if req.cards:
            options["cards"] = str(folders.card_path(req.cards))
        game.ruleset(req.variant or None, options)
        return options

    @router.get("/api/lab/runs", summary="Runs, newest first")
    def runs() -> dict[str, Any]:
        with engine.connect() as c:
            rows = c.execute(sa.select(lab_runs).order_by(lab_runs.c.created.desc()).limit(200))
            return {"runs": [_public(dict(r)) for r in rows.mappings()]}

    @router.get("/api/lab/runs/{run_id}", summary="One run and its progress")
    def one(run_id: str, request: Request, lang: str | None = LangQuery) -> dict[str, Any]:
        with use_language(_language(request, lang)):
            return row(run_id)

    def finished_file(run_id: str) -> Path:
        r = row(run_id)
        if r["status"] != "done":
            word = STATUS.get(r["status"])
            status = _(word) if word else r["status"]
            raise HTTPException(
                409,
                _("run {id} is not done yet (its status: {status})").format(
                    id=run_id, status=status
                ),
            )
        return folders.run_file(run_id)

    @router.get("/api/lab/runs/{run_id}/report", response_class=HTMLResponse)
    def report(run_id: str, request: Request, lang: str | None = LangQuery) -> HTMLResponse:
        from ..lab.report import report_html
        from ..lab.runs import read_run

        with use_language(_language(request, lang)):
            path = finished_file(run_id)
        page = path.with_suffix(".html")
        with reports_lock:  # one report at a time: matplotlib is not thread-safe
            if not page.exists():
                page.write_text(report_html(read_run(path), f"Lab run {run_id}"), encoding="utf-8")
        return HTMLResponse(page.read_text(encoding="utf-8"))

    @router.get("/api/lab/runs/{run_id}/download")
    def download(run_id: str, request: Request, lang: str | None = LangQuery) -> FileResponse:
        with use_language(_language(request, lang)):
            path = finished_file(run_id)
        return FileResponse(
            path,
            media_type="application/vnd.apache.parquet",
            filename=f"{run_id}.parquet",
        )

    @router.get("/api/lab/compare", response_class=HTMLResponse)
    def compare(a: str, b: str, request: Request, lang: str | None = LangQuery) -> HTMLResponse:
        from ..lab.compare import compare_html
        from ..lab.runs import read_run

        with use_language(_language(request, lang)):
            file_a, file_b = finished_file(a), finished_file(b)
        ta, tb = read_run(file_a), read_run(file_b)
        with reports_lock:
            return HTMLResponse(compare_html(ta, tb, f"run {a}", f"run {b}"))

    @router.get("/api/lab/runs/{run_id}/report.html")
    def report_file(run_id: str, request: Request, lang: str | None = LangQuery) -> HTMLResponse:
        page = report(run_id, request, lang)
        page.headers["Content-Disposition"] = f'attachment; filename="lab-{run_id}.html"'
        return page

    @router.get("/lab", include_in_schema=False)
    def lab_page() -> FileResponse:
        return FileResponse(WEB / "lab.html")

    resume_unfinished()
    return router


def _public(r: dict[str, Any]) -> dict[str, Any]:
    r["seats"] = json.loads(r["seats"])
    r["options"] = json.loads(r["options"])
    created = r["created"]
    r["created"] = created.isoformat() if created else None
    return r
