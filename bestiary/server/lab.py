"""The Lab page's API: runs in the background, their reports, comparisons.

``lab_router(engine, data_dir, token=...)`` is an :class:`APIRouter` the app
includes only when the operator turns the lab on (``bestiary serve --lab``);
otherwise it includes :func:`lab_off_router`, which says so. Every lab
request then needs the operator's token: ``Authorization: Bearer TOKEN``, or
the cookie ``POST /api/lab/session`` sets for the page (its iframes and links
cannot send a header). A lab run is long work on the server's cores, so it
is bounded as tables are: the seats are the bots a table may seat
(``bots.check_spec``: levels, the game's bots, bounded ismcts), a run asks
for at most ``max_games`` games, and one client (its address) holds at most
``runs_per_client`` queued or running runs.

A run is a row of the ``lab_runs`` table in the server's own database
(progress, status) and a Parquet file ``<data_dir>/lab/runs/<id>.parquet``.
Card files come only from ``<data_dir>/lab/cards/``: a client names one of
the files listed there, never a path. Runs play one after another, each in a
child process of its own (the server's cores belong to its players first,
and a game in the middle of a long search can be stopped at once).

``POST /api/lab/runs/{id}/cancel`` stops a run: the games it finished stay
in its file, and it never starts again. When the app stops (SIGTERM), the
run in progress is interrupted (SIGINT to its process: it saves its finished
games and ends within ``STOP_SECONDS``) and goes back to ``queued``; when
the router is created again (the server restarts) every queued or running
run is resumed from its file.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import secrets
import select
import signal
import subprocess
import sys
import threading
import time
import tomllib
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi import APIRouter, Depends, FastAPI, HTTPException, Query, Request, Response
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse
from pydantic import BaseModel, Field

from ..engine.errors import BadAgentSpec, BestiaryError
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
    "cancelled": N_("cancelled"),
}
OPEN = ("queued", "running")  # a run that is still to play (resumed at a restart)
STOP_SECONDS = 5.0  # a run's process saves its games and ends within this, or is killed
COOKIE = "bestiary_lab"
NAME_LENGTH = 100

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
    # queued, running, done, failed, cancelled
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("error", sa.Text, nullable=True),
    sa.Column("games_per_second", sa.Float, nullable=True),
    sa.Column("created", sa.DateTime(timezone=True), nullable=False),
    # the address that asked for the run (its quota key); never shown
    sa.Column("client", sa.String(80), nullable=True),
    # the name the designer gave the run (the page names an unnamed one by its settings)
    sa.Column("name", sa.String(NAME_LENGTH), nullable=True),
    # what the row plays: "run" (games to a run file; NULL in older databases),
    # "tune" (the tuner's steps) or "ab" (a sequential A/B test)
    sa.Column("kind", sa.String(8), nullable=True),
    # a tune's or an A/B test's request (JSON, as the client sent it; no paths)
    sa.Column("config", sa.Text, nullable=True),
    # a finished tune's or A/B test's answer (JSON: TuneResult / ABResult.to_json())
    sa.Column("result", sa.Text, nullable=True),
)
KINDS = ("run", "tune", "ab")
PROBE_GAMES = 4  # games of random bots that list a game's metrics for the tuner


class NewRun(BaseModel):
    game: str = Field(max_length=64)
    seats: list[str] = Field(min_length=1, max_length=6)
    variant: str = Field("", max_length=64)
    options: dict[str, str | int | float | bool] = Field(default_factory=dict, max_length=20)
    cards: str = Field("", max_length=100)
    games: int = Field(100, ge=1)
    seed: int = Field(0, ge=0, le=2**31 - 1)
    name: str = Field("", max_length=NAME_LENGTH)


class NewTune(BaseModel):
    """``bestiary tune`` from the web: one integer field of one card of a lab
    card file (TOML), searched over ``range`` until ``target`` is reached."""

    game: str = Field(max_length=64)
    seats: list[str] = Field(min_length=1, max_length=6)
    variant: str = Field("", max_length=64)
    options: dict[str, str | int | float | bool] = Field(default_factory=dict, max_length=20)
    cards: str = Field(max_length=100)  # a TOML file of the lab folder
    field: str = Field(max_length=200)  # CARD.FIELD, e.g. "Kat z Wieży.passive.amount"
    range: str = Field(max_length=40)  # A..B
    target: str = Field(max_length=300)  # METRIC=VALUE, e.g. "seat0_win=0.5"
    games_per_step: int = Field(100, ge=1)
    seed: int = Field(0, ge=0, le=2**31 - 1)
    name: str = Field("", max_length=NAME_LENGTH)


class NewAB(BaseModel):
    """``bestiary ab`` from the web: versions A and B differ in their card file."""

    game: str = Field(max_length=64)
    seats: list[str] = Field(min_length=1, max_length=6)
    variant: str = Field("", max_length=64)
    options: dict[str, str | int | float | bool] = Field(default_factory=dict, max_length=20)
    cards_a: str = Field("", max_length=100)  # "": the shipped cards
    cards_b: str = Field("", max_length=100)
    metric: str = Field("seat0_win", max_length=40)
    alpha: float = Field(0.05, gt=0, lt=1)
    margin: float = Field(0.0, ge=0, le=1)
    batch: int = Field(100, ge=1)  # games a side between two looks
    budget: int = Field(1000, ge=1)  # the most games a side
    seed: int = Field(0, ge=0, le=2**31 - 1)
    name: str = Field("", max_length=NAME_LENGTH)


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

    def job_dir(self, run_id: str) -> Path:
        """A tune's folder: each step's card file and run file (resumed from there)."""
        return self.runs / run_id

    def scrub(self, text: str) -> str:
        """An error message without the server's folders (a file keeps its name)."""
        for folder in (self.cards, self.runs, self.root):
            text = text.replace(str(folder) + os.sep, "").replace(str(folder), "lab")
        return text


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


def _session_value(token: str) -> str:
    """The page's cookie: derived from the token, so the token itself is not
    sent with every request (and a cookie from another token does not pass)."""
    return hashlib.sha256(b"bestiary lab session\0" + token.encode()).hexdigest()


def _bearer(request: Request) -> str | None:
    auth = request.headers.get("authorization", "")
    scheme, _sep, value = auth.partition(" ")
    return value.strip() if scheme.lower() == "bearer" and value.strip() else None


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def lab_off_router(asked: bool = False) -> APIRouter:
    """The lab when the operator has not turned it on: the page (which says
    so) and, for every lab API path, a 404 that says how to turn it on."""
    router = APIRouter()

    def off(request: Request, lang: str | None) -> JSONResponse:
        with use_language(_language(request, lang)):
            detail = _(
                "the lab is off on this server; its operator turns it on with "
                "bestiary serve --lab (or BESTIARY_LAB=1)"
            )
        return JSONResponse({"detail": detail, "lab": "off"}, status_code=404)

    @router.get("/api/lab/status", summary="Whether this server's lab is on")
    def status() -> dict[str, Any]:
        return {"enabled": False, "token_required": False, "signed_in": False}

    @router.api_route(
        "/api/lab/{rest:path}",
        methods=["GET", "POST", "DELETE"],
        include_in_schema=False,
    )
    def anything(rest: str, request: Request, lang: str | None = LangQuery) -> JSONResponse:
        return off(request, lang)

    @router.get("/lab", include_in_schema=False)
    def lab_page() -> FileResponse:
        return FileResponse(WEB / "lab.html")

    return router


def _add_new_columns(engine: sa.Engine) -> None:
    """Databases made before runs had a client, a name, a kind (tune, A/B) and
    its config and result get the column (nullable)."""
    columns = {c["name"] for c in sa.inspect(engine).get_columns("lab_runs")}
    for name, kind in (
        ("client", "VARCHAR(80)"),
        ("name", f"VARCHAR({NAME_LENGTH})"),
        ("kind", "VARCHAR(8)"),
        ("config", "TEXT"),
        ("result", "TEXT"),
    ):
        if name not in columns:
            with engine.begin() as c:
                c.execute(sa.text(f"ALTER TABLE lab_runs ADD COLUMN {name} {kind}"))


def must_be_done(run_id: str, r: dict[str, Any]) -> None:
    """409 with the job's status in words unless it is done (a report, a run file
    or a result asks for a finished job)."""
    if r["status"] != "done":
        word = STATUS.get(r["status"])
        status = _(word) if word else r["status"]
        raise HTTPException(
            409,
            _("run {id} is not done yet (its status: {status})").format(id=run_id, status=status),
        )


def lab_router(
    engine: sa.Engine,
    data_dir: Path,
    *,
    token: str,
    max_games: int = 10_000,
    max_iterations: int = 2000,
    max_seconds: float = 5.0,
    runs_per_client: int = 3,
    client_of: Callable[[Request], str] = _address,
    workers: int = 1,
) -> APIRouter:
    """The lab API under ``/api/lab`` and the page at ``/lab``; every API
    path but ``/api/lab/status`` needs ``token`` (see the module's docstring).
    ``max_iterations``/``max_seconds``: the search bounds of a table's bots
    (``Limits``); ``client_of``: a request's quota key (default: its address)."""
    if not token:
        raise ValueError("the lab needs its operator's token")
    metadata.create_all(engine, checkfirst=True)
    _add_new_columns(engine)
    folders = LabFolders(data_dir)
    pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="lab-run")
    reports_lock = threading.Lock()
    stopping = threading.Event()
    cancelled: set[str] = set()  # runs told to stop for good
    session = _session_value(token)

    def signed_in(request: Request) -> bool:
        given = _bearer(request)
        if given is not None:
            return secrets.compare_digest(given.encode(), token.encode())
        cookie = request.cookies.get(COOKIE)
        return cookie is not None and secrets.compare_digest(cookie.encode(), session.encode())

    def operator(request: Request, lang: str | None = LangQuery) -> None:
        """Every lab request but the status: the operator's token, or 401."""
        if signed_in(request):
            return
        with use_language(_language(request, lang)):
            detail = _(
                "the lab needs its operator's token (Authorization: Bearer TOKEN); "
                "bestiary serve printed it when it started"
            )
        raise HTTPException(401, detail, headers={"WWW-Authenticate": "Bearer"})

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        stopping.set()  # the run in progress saves its games and stops within STOP_SECONDS
        pool.shutdown(wait=True, cancel_futures=True)

    router = APIRouter(lifespan=lifespan)
    guarded = APIRouter(dependencies=[Depends(operator)])

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

    def update_open(run_id: str, **values: Any) -> None:
        """Update a run unless it was cancelled meanwhile (a cancel stands)."""
        with engine.begin() as c:
            c.execute(
                sa.update(lab_runs)
                .where(lab_runs.c.id == run_id, lab_runs.c.status.in_(OPEN))
                .values(**values)
            )

    def play(run_id: str, cfg: dict[str, Any], games: int, kind: str = "run") -> None:
        if stopping.is_set() or run_id in cancelled:
            return  # still queued: resumed at the next start (or cancelled for good)
        update_open(run_id, status="running")
        where = folders.job_dir(run_id) if kind == "tune" else folders.run_file(run_id)
        job = {"kind": kind, "config": cfg, "path": str(where), "games": games, "workers": workers}
        try:
            outcome = _play_in_child(
                job,
                stop=lambda: stopping.is_set() or run_id in cancelled,
                progress=lambda done: update_open(run_id, done=done),
            )
        except Exception as exc:  # the run's process could not start or talk
            outcome = {"error": f"{type(exc).__name__}: {exc}"}
        if run_id in cancelled:
            update(run_id, done=outcome.get("total", 0))  # its status says cancelled already
        elif "error" in outcome:  # the run failed, the server did not: say why on the page
            error = folders.scrub(str(outcome["error"]))
            update_open(run_id, status="failed", error=error[:500])
        elif kind != "run":  # a tune or an A/B test: done with its answer, or resumed later
            if "result" in outcome:
                update_open(
                    run_id,
                    status="done",
                    done=outcome.get("total", 0),
                    result=json.dumps(outcome["result"]),
                    games_per_second=round(float(outcome.get("games_per_second", 0.0)), 2),
                )
            else:
                update_open(run_id, status="queued", done=outcome.get("total", 0))
        elif outcome.get("interrupted") or outcome.get("total", 0) < games:
            update_open(run_id, status="queued", done=outcome.get("total", 0))  # resumed later
        else:
            update_open(
                run_id,
                status="done",
                done=outcome["total"],
                games_per_second=round(float(outcome["games_per_second"]), 2),
            )

    def resume_unfinished() -> None:
        with engine.connect() as c:
            rows = (
                c.execute(
                    sa.select(lab_runs)
                    .where(lab_runs.c.status.in_(OPEN))
                    .order_by(lab_runs.c.created)
                )
                .mappings()
                .all()
            )
        for r in rows:
            kind = r["kind"] or "run"
            if kind != "run":
                try:
                    cfg, _cap = job_config(kind, json.loads(r["config"] or "{}"))
                except (BestiaryError, HTTPException, ValueError) as exc:
                    detail = exc.detail if isinstance(exc, HTTPException) else str(exc)
                    update(r["id"], status="failed", error=f"cannot resume: {detail}"[:500])
                    continue
                update(r["id"], status="queued")
                pool.submit(play, r["id"], cfg, r["games"], kind)
                continue
            try:
                req = NewRun(
                    game=r["game"],
                    seats=json.loads(r["seats"]),
                    variant=r["variant"],
                    options=json.loads(r["options"]),
                    cards=r["cards"],
                    games=r["games"],
                    seed=r["seed"],
                    name=r["name"] or "",
                )
                if req.games > max_games:
                    raise BadAgentSpec(f"{req.games} games (this server's bound: {max_games})")
                cfg = run_config(req)
            except (BestiaryError, HTTPException, ValueError) as exc:
                # e.g. its card file was removed, or its bots are beyond today's bounds
                detail = exc.detail if isinstance(exc, HTTPException) else str(exc)
                update(r["id"], status="failed", error=f"cannot resume: {detail}"[:500])
                continue
            update(r["id"], status="queued")  # before it is queued: play() marks it running
            pool.submit(play, r["id"], cfg, r["games"])

    @router.get("/api/lab/status", summary="Whether the lab is on and needs a token")
    def status(request: Request) -> dict[str, Any]:
        return {"enabled": True, "token_required": True, "signed_in": signed_in(request)}

    @guarded.post("/api/lab/session", summary="Sign this browser in (a cookie for the lab)")
    def sign_in(request: Request, response: Response) -> dict[str, Any]:
        """Called with the token in the Authorization header: the page's
        reports and downloads (frames and links) then carry a cookie."""
        response.set_cookie(
            COOKIE,
            session,
            httponly=True,
            samesite="strict",
            secure=request.url.scheme == "https",
            path="/",
        )
        return {"signed_in": True}

    @guarded.delete("/api/lab/session", summary="Sign this browser out")
    def sign_out(response: Response) -> dict[str, Any]:
        response.delete_cookie(COOKIE, path="/")
        return {"signed_in": False}

    @guarded.get("/api/lab/games", summary="Games, variants, options and bots for the lab")
    def games() -> dict[str, Any]:
        out = []
        for gid in game_ids():
            try:
                out.append(get_game(gid).info())
            except BestiaryError:
                continue
        return {"games": out, "max_games": max_games, "max_iterations": max_iterations}

    @guarded.get("/api/lab/cards", summary="Card files in the server's lab folder")
    def cards() -> dict[str, Any]:
        return {"files": folders.card_files()}

    @guarded.post("/api/lab/runs", summary="Start a run in the background")
    def start(req: NewRun, request: Request, lang: str | None = LangQuery) -> dict[str, Any]:
        with use_language(_language(request, lang)):
            return start_run(req, client_of(request))

    def start_run(req: NewRun, client: str) -> dict[str, Any]:
        lab_ready()
        if req.games > max_games:
            raise HTTPException(422, _("games must be between 1 and {most}").format(most=max_games))
        try:
            cfg = run_config(req)
        except BestiaryError as exc:  # a bad game, seat or option: say which, as the app does
            raise HTTPException(400, str(exc)) from None
        values = {
            "game": req.game,
            "variant": req.variant,
            "seats": json.dumps(req.seats),
            "options": json.dumps(req.options, sort_keys=True),
            "cards": req.cards,
            "seed": req.seed,
            "games": req.games,
            "name": _run_name(req.name),
            "kind": "run",
        }
        return queue(values, cfg, client)

    def queue(values: dict[str, Any], cfg: dict[str, Any], client: str) -> dict[str, Any]:
        """Insert a row (a run, a tune, an A/B test) within the client's quota
        and queue it; 429, and nothing stored, when the quota is full."""
        run_id = secrets.token_hex(6)
        with engine.begin() as c:
            held = c.execute(
                sa.select(sa.func.count())
                .select_from(lab_runs)
                .where(lab_runs.c.client == client, lab_runs.c.status.in_(OPEN))
            ).scalar_one()
            if held >= runs_per_client:
                raise HTTPException(
                    429,
                    _(
                        "you already have as many runs queued or running as the limit "
                        "allows ({n}); wait for one to end or cancel it before starting another"
                    ).format(n=runs_per_client),
                )
            c.execute(
                sa.insert(lab_runs).values(
                    id=run_id,
                    done=0,
                    status="queued",
                    created=datetime.now(UTC),
                    client=client[:80],
                    **values,
                )
            )
        pool.submit(play, run_id, cfg, values["games"], values["kind"])
        return row(run_id)

    def lab_ready() -> None:
        missing = _missing_lab_packages()
        if missing:
            raise HTTPException(
                503,
                _(
                    "the lab needs its extra on the server: pip install 'bestiary[lab]' "
                    "({missing} missing)"
                ).format(missing=", ".join(missing)),
            )

    # -- the tuner and the A/B test ----------------------------------------------
    probe_lock = threading.Lock()
    probed: dict[tuple[Any, ...], list[str]] = {}

    def game_metrics(base: dict[str, Any], players: int) -> list[str]:
        """The metrics a run of this game (and card file) reports: read from
        a few games of random bots (kept for the next request)."""
        from ..lab.metrics import all_metrics
        from ..lab.runs import RunConfig, play_rows, rows_table

        cards = base["options"].get("cards")
        stamp = Path(cards).stat().st_mtime_ns if cards else 0
        options = json.dumps(base["options"], sort_keys=True)
        key = (base["game"], base["variant"], options, players, stamp)
        with probe_lock:
            if key not in probed:
                cfg = RunConfig(
                    base["game"], ("random",) * players, 0, base["variant"], base["options"]
                )
                try:
                    rows = [r for b in play_rows(cfg, range(PROBE_GAMES)) for r in b]
                    with reports_lock:
                        probed[key] = sorted(all_metrics(rows_table(cfg, rows)))
                except Exception:  # a game random bots cannot play: the general metrics
                    return []
            return probed[key]

    def tune_card_file(name: str) -> tuple[Path, str]:
        if not name:
            raise HTTPException(
                400, _("the tuner needs a card file of the lab folder (a TOML file)")
            )
        path = folders.card_path(name)
        if path.suffix.lower() != ".toml":
            raise HTTPException(
                400,
                _("the tuner edits TOML card files; {name} is not one").format(name=repr(name)),
            )
        return path, path.read_text(encoding="utf-8-sig")

    def tune_config(req: NewTune) -> tuple[dict[str, Any], int]:
        """The child's job for a tune and the most games it may play; an
        HTTPException (4xx, saying what is allowed) for a bad range, target,
        field or metric."""
        from ..lab.tune import set_field, steps

        lo, hi = _parse_range(req.range)
        metric, target = _parse_target(req.target)
        path, text = tune_card_file(req.cards)
        base = run_config(
            NewRun(
                game=req.game,
                seats=req.seats,
                variant=req.variant,
                options=req.options,
                cards=req.cards,
                seed=req.seed,
                games=1,
                name="",
            )
        )
        fields = tunable_fields(text)
        card, field = _resolve_field(req.field, fields)
        try:
            for value in (lo, hi):
                set_field(text, card, field, value)
        except BestiaryError as exc:
            raise HTTPException(400, folders.scrub(str(exc))) from None
        _check_tune_metric(metric, game_metrics(base, len(req.seats)), fields, len(req.seats))
        most = req.games_per_step * steps(lo, hi)
        if most > max_games:
            raise HTTPException(
                422,
                _(
                    "this tune may play up to {n} games ({per} a step, at most {steps} steps); "
                    "this server allows {most} games a job"
                ).format(n=most, per=req.games_per_step, steps=steps(lo, hi), most=max_games),
            )
        options = {k: v for k, v in base["options"].items() if k != "cards"}
        cfg = base | {
            "options": options,
            "cards_path": str(path),
            "field": f"{card}.{field}",
            "lo": lo,
            "hi": hi,
            "metric": metric,
            "target": target,
            "games_per_step": req.games_per_step,
        }
        return cfg, most

    def ab_config(req: NewAB) -> tuple[dict[str, Any], int]:
        """The child's job for an A/B test and the most games it may play (both
        versions); an HTTPException for a bad metric or two equal versions."""
        if req.cards_a == req.cards_b:
            raise HTTPException(
                400,
                _(
                    "versions A and B are the same: give B another card file than A "
                    "(or A another than the shipped cards)"
                ),
            )
        _check_ab_metric(req.metric, len(req.seats))
        a, b = (
            run_config(
                NewRun(
                    game=req.game,
                    seats=req.seats,
                    variant=req.variant,
                    options=req.options,
                    cards=cards,
                    seed=req.seed,
                    games=1,
                    name="",
                )
            )
            for cards in (req.cards_a, req.cards_b)
        )
        most = 2 * req.budget
        if most > max_games:
            raise HTTPException(
                422,
                _(
                    "an A/B test with a budget of {budget} games a side plays up to {n} games; "
                    "this server allows {most} games a job"
                ).format(budget=req.budget, n=most, most=max_games),
            )
        cfg = {
            "a": a,
            "b": b,
            "metric": req.metric,
            "alpha": req.alpha,
            "margin": req.margin,
            "batch": req.batch,
            "budget": req.budget,
        }
        return cfg, most

    def job_config(kind: str, request: dict[str, Any]) -> tuple[dict[str, Any], int]:
        try:
            if kind == "tune":
                return tune_config(NewTune.model_validate(request))
            return ab_config(NewAB.model_validate(request))
        except BestiaryError as exc:  # a bad game, seat or option: say which
            raise HTTPException(400, folders.scrub(str(exc))) from None

    def start_job(kind: str, req: NewTune | NewAB, client: str) -> dict[str, Any]:
        lab_ready()
        request = req.model_dump()
        cfg, most = job_config(kind, request)
        cards = req.cards if isinstance(req, NewTune) else req.cards_a
        values = {
            "game": req.game,
            "variant": req.variant,
            "seats": json.dumps(req.seats),
            "options": json.dumps(req.options, sort_keys=True),
            "cards": cards,
            "seed": req.seed,
            "games": most,
            "name": _run_name(req.name),
            "kind": kind,
            "config": json.dumps(request, sort_keys=True),
        }
        return queue(values, cfg, client)

    @guarded.get("/api/lab/tune/choices", summary="A card file's tunable fields and the metrics")
    def tune_choices(
        game: str,
        cards: str,
        request: Request,
        players: int = Query(2, ge=1, le=6),
        variant: str = Query("", max_length=64),
        lang: str | None = LangQuery,
    ) -> dict[str, Any]:
        """What the tune form offers: ``fields`` (CARD.FIELD, the card file's
        integer fields) and ``metrics`` (a run of this game reports them)."""
        with use_language(_language(request, lang)):
            lab_ready()
            _path, text = tune_card_file(cards)
            try:
                base = run_config(
                    NewRun(
                        game=game,
                        seats=["random"] * players,
                        variant=variant,
                        cards=cards,
                        games=1,
                        seed=0,
                        name="",
                    )
                )
            except BestiaryError as exc:
                raise HTTPException(400, folders.scrub(str(exc))) from None
            fields = tunable_fields(text)
            return {
                "fields": [f"{card}.{f}" for card, fs in fields.items() for f in fs],
                "metrics": game_metrics(base, players),
            }

    @guarded.post("/api/lab/tune", summary="Start a tune (bestiary tune) in the background")
    def start_tune(req: NewTune, request: Request, lang: str | None = LangQuery) -> dict[str, Any]:
        with use_language(_language(request, lang)):
            return start_job("tune", req, client_of(request))

    @guarded.post("/api/lab/ab", summary="Start a sequential A/B test in the background")
    def start_ab(req: NewAB, request: Request, lang: str | None = LangQuery) -> dict[str, Any]:
        with use_language(_language(request, lang)):
            return start_job("ab", req, client_of(request))

    @guarded.get("/api/lab/runs/{run_id}/result", response_class=HTMLResponse)
    def result(run_id: str, request: Request, lang: str | None = LangQuery) -> HTMLResponse:
        """A finished tune's curve and value, or an A/B test's decision."""
        with use_language(_language(request, lang)):
            r = row(run_id)
            if r["kind"] == "run":
                raise HTTPException(409, _("run {id} is a run: open its report").format(id=run_id))
            must_be_done(run_id, r)
            with reports_lock:  # matplotlib is not thread-safe
                page = _tune_html(r) if r["kind"] == "tune" else _ab_html(r)
        return HTMLResponse(page)

    def run_config(req: NewRun) -> dict[str, Any]:
        """The run's configuration (as :class:`RunConfig` fields), checked with
        the bounds of a table's bots; BestiaryError or HTTPException if not."""
        from ..sim.runner import check_seats
        from .bots import LEVELS, check_spec, level_spec

        game = get_game(req.game)
        seats = []
        for spec in req.seats:
            # a table's bounds: no module:object, a bounded search
            clean = check_spec(game, spec, max_iterations, None, max_seconds)
            seats.append(level_spec(game, clean, len(req.seats)) if clean in LEVELS else clean)
        check_seats(game, seats)
        type(game.ruleset(None)).refuse_paths(req.options)  # files only through `cards`
        options: dict[str, Any] = dict(req.options)
        if req.cards:
            options["cards"] = str(folders.card_path(req.cards))
        game.ruleset(req.variant or None, options)
        return {
            "game": req.game,
            "seats": seats,
            "seed": req.seed,
            "variant": req.variant,
            "options": options,
        }

    @guarded.get("/api/lab/runs", summary="Runs, newest first")
    def runs() -> dict[str, Any]:
        with engine.connect() as c:
            rows = c.execute(sa.select(lab_runs).order_by(lab_runs.c.created.desc()).limit(200))
            return {"runs": [_public(dict(r)) for r in rows.mappings()]}

    @guarded.get("/api/lab/runs/{run_id}", summary="One run and its progress")
    def one(run_id: str, request: Request, lang: str | None = LangQuery) -> dict[str, Any]:
        with use_language(_language(request, lang)):
            return row(run_id)

    @guarded.post("/api/lab/runs/{run_id}/cancel", summary="Stop a run for good")
    def cancel(run_id: str, request: Request, lang: str | None = LangQuery) -> dict[str, Any]:
        """The games it finished stay in its file; it does not start again,
        not even after a restart."""
        with use_language(_language(request, lang)):
            r = row(run_id)
            with engine.begin() as c:
                changed = c.execute(
                    sa.update(lab_runs)
                    .where(lab_runs.c.id == run_id, lab_runs.c.status.in_(OPEN))
                    .values(status="cancelled")
                ).rowcount
            if not changed:
                word = STATUS.get(r["status"])
                raise HTTPException(
                    409,
                    _("run {id} cannot be cancelled (its status: {status})").format(
                        id=run_id, status=_(word) if word else r["status"]
                    ),
                )
            cancelled.add(run_id)
            return row(run_id)

    def finished_file(run_id: str) -> Path:
        r = row(run_id)
        if r["kind"] != "run":
            raise HTTPException(
                409,
                _("{id} has no run file: it is a tune or an A/B test; open its result").format(
                    id=run_id
                ),
            )
        must_be_done(run_id, r)
        return folders.run_file(run_id)

    @guarded.get("/api/lab/runs/{run_id}/report", response_class=HTMLResponse)
    def report(run_id: str, request: Request, lang: str | None = LangQuery) -> HTMLResponse:
        from ..lab.report import report_html
        from ..lab.runs import read_run

        with use_language(_language(request, lang)):
            path = finished_file(run_id)
            title = row(run_id)["name"] or f"Lab run {run_id}"
        page = path.with_suffix(".html")
        with reports_lock:  # one report at a time: matplotlib is not thread-safe
            if not page.exists():
                page.write_text(report_html(read_run(path), title), encoding="utf-8")
        return HTMLResponse(page.read_text(encoding="utf-8"))

    @guarded.get("/api/lab/runs/{run_id}/download")
    def download(run_id: str, request: Request, lang: str | None = LangQuery) -> FileResponse:
        with use_language(_language(request, lang)):
            path = finished_file(run_id)
        return FileResponse(
            path,
            media_type="application/vnd.apache.parquet",
            filename=f"{run_id}.parquet",
        )

    @guarded.get("/api/lab/compare", response_class=HTMLResponse)
    def compare(a: str, b: str, request: Request, lang: str | None = LangQuery) -> HTMLResponse:
        from ..lab.compare import compare_html
        from ..lab.runs import read_run

        with use_language(_language(request, lang)):
            file_a, file_b = finished_file(a), finished_file(b)
            name_a = row(a)["name"] or f"run {a}"
            name_b = row(b)["name"] or f"run {b}"
        ta, tb = read_run(file_a), read_run(file_b)
        with reports_lock:
            return HTMLResponse(compare_html(ta, tb, name_a, name_b))

    @guarded.get("/api/lab/runs/{run_id}/report.html")
    def report_file(run_id: str, request: Request, lang: str | None = LangQuery) -> HTMLResponse:
        page = report(run_id, request, lang)
        page.headers["Content-Disposition"] = f'attachment; filename="lab-{run_id}.html"'
        return page

    @router.get("/lab", include_in_schema=False)
    def lab_page() -> FileResponse:
        return FileResponse(WEB / "lab.html")

    router.include_router(guarded)
    resume_unfinished()
    return router


def _run_name(text: str) -> str | None:
    """A run's name as the designer typed it: one line of printable text, or None."""
    name = " ".join("".join(ch if ch.isprintable() else " " for ch in text).split())
    return name or None


def _public(r: dict[str, Any]) -> dict[str, Any]:
    r.pop("client", None)  # someone's address: the quota's key, not the page's business
    r["seats"] = json.loads(r["seats"])
    r["options"] = json.loads(r["options"])
    r["kind"] = r.get("kind") or "run"
    r["config"] = json.loads(r["config"]) if r.get("config") else None
    r["result"] = json.loads(r["result"]) if r.get("result") else None
    created = r["created"]
    r["created"] = created.isoformat() if created else None
    r["progress"] = round(r["done"] / r["games"], 4) if r.get("games") else 0.0
    return r


# -- the tuner's and the A/B test's requests ---------------------------------------
_RANGE = re.compile(r"\s*(-?\d{1,6})\s*\.\.\s*(-?\d{1,6})\s*")
_SEAT_WIN = re.compile(r"seat(\d)_win")
# Metrics of a whole run, any game (their keys do not depend on what was played).
GENERAL_METRICS = ("decisive", "drawish", "margin", "score", "length_decisions")


def _parse_range(text: str) -> tuple[int, int]:
    m = _RANGE.fullmatch(text)
    if not m or int(m.group(1)) >= int(m.group(2)):
        raise HTTPException(
            400,
            _("the range {range} must be two whole numbers A..B with A < B (e.g. 0..10)").format(
                range=repr(text[:40])
            ),
        )
    return int(m.group(1)), int(m.group(2))


def _parse_target(text: str) -> tuple[str, float]:
    """``METRIC=VALUE``; a share may be written as a percentage (60%)."""
    key, sep, raw = text.rpartition("=")
    raw = raw.strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        value = math.nan
    if not sep or not key.strip() or not math.isfinite(value):
        raise HTTPException(
            400,
            _(
                "the target {target} must be METRIC=VALUE, the value a number "
                "(e.g. seat0_win=0.5 or seat0_win=50%)"
            ).format(target=repr(text[:100])),
        )
    return key.strip(), value


def tunable_fields(text: str) -> dict[str, list[str]]:
    """The integer fields of each card of a TOML card file, by card name:
    ``attack``, and a number inside an inline table as ``passive.amount``."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise HTTPException(
            400, _("the card file is not valid TOML: {error}").format(error=exc)
        ) from None
    out: dict[str, list[str]] = {}
    for tables in data.values():
        if not isinstance(tables, list):
            continue
        for t in tables:
            if not isinstance(t, dict) or not isinstance(t.get("name"), str):
                continue
            fields = []
            for key, value in t.items():
                if isinstance(value, int) and not isinstance(value, bool):
                    fields.append(key)
                elif isinstance(value, dict):
                    fields += [
                        f"{key}.{leaf}"
                        for leaf, v in value.items()
                        if isinstance(v, int) and not isinstance(v, bool)
                    ]
            if fields:
                out.setdefault(t["name"], fields)
    return out


def _resolve_field(spec: str, fields: dict[str, list[str]]) -> tuple[str, str]:
    """``CARD.FIELD`` as (card, field) of the card file; the card's name may
    hold dots, so every split is tried. 400 with what is allowed if none fits."""
    parts = spec.split(".")
    names = {name.casefold(): name for name in fields}
    for i in range(len(parts) - 1, 0, -1):
        card = names.get(".".join(parts[:i]).strip().casefold())
        field = ".".join(parts[i:]).strip()
        if card is not None and field in fields[card]:
            return card, field
    for i in range(len(parts) - 1, 0, -1):
        card = names.get(".".join(parts[:i]).strip().casefold())
        if card is not None:  # the card is there, the field is not
            raise HTTPException(
                400,
                _("card {card} has no whole-number field {field}; its fields: {allowed}").format(
                    card=repr(card),
                    field=repr(".".join(parts[i:])),
                    allowed=", ".join(fields[card]),
                ),
            )
    shown = list(fields)[:15]
    raise HTTPException(
        400,
        _(
            "{spec} is not CARD.FIELD of a card in this file (e.g. {example}); its cards: {cards}"
        ).format(
            spec=repr(spec[:200]),
            example=next((f"{c}.{fs[0]}" for c, fs in fields.items()), "Card.attack"),
            cards=", ".join(shown) + (", …" if len(fields) > len(shown) else ""),
        ),
    )


def _check_tune_metric(
    metric: str, probed: list[str], fields: dict[str, list[str]], players: int
) -> None:
    """A metric the tuner can read: one a run of this game reports (``probed``),
    a seat's win share, or an item metric of a card of this file."""
    if metric in probed or metric in GENERAL_METRICS:
        return
    seat = _SEAT_WIN.fullmatch(metric)
    if seat and int(seat.group(1)) < players:
        return
    kinds = {k.split(":")[1] for k in probed if k.startswith("item:") and k.count(":") >= 2}
    cards = {name.casefold() for name in fields}
    if metric.startswith("item:"):
        _item, _sep, rest = metric.partition(":")
        kind, _sep, name = rest.partition(":")
        for suffix in ("", ":rate", ":share", ":value"):
            card = name[: len(name) - len(suffix)] if suffix and name.endswith(suffix) else name
            if (not suffix or name.endswith(suffix)) and kind in kinds and card.casefold() in cards:
                return
    word = metric.split(":")[-1].casefold()
    similar = [k for k in probed if word and word in k.casefold()][:6]
    raise HTTPException(
        400,
        _(
            "the tuner has no metric {metric} for this game; allowed: seat0_win … seat{last}_win "
            "(a seat's win share), {general}, or an item metric such as {example}"
        ).format(
            metric=repr(metric[:100]),
            last=players - 1,
            general=", ".join(GENERAL_METRICS),
            example=next((k for k in probed if k.startswith("item:")), "item:picked:CARD"),
        )
        + (" — " + _("similar: {names}").format(names=", ".join(similar)) if similar else ""),
    )


def _check_ab_metric(metric: str, players: int) -> None:
    """The A/B test tracks a share in [0, 1]: a seat's wins, decisive or drawn games."""
    seat = _SEAT_WIN.fullmatch(metric)
    if (seat and int(seat.group(1)) < players) or metric in ("decisive", "drawish"):
        return
    raise HTTPException(
        400,
        _(
            "the A/B test cannot follow the metric {metric}; allowed: seat0_win … "
            "seat{last}_win (a seat's win share), decisive, drawish"
        ).format(metric=repr(metric[:100]), last=players - 1),
    )


# -- a finished tune's or A/B test's page ---------------------------------------------
def _tune_html(r: dict[str, Any]) -> str:
    from ..lab import html as h
    from ..lab import plots

    res = r["result"]
    field, metric, target = res["field"], res["metric"], float(res["target"])
    curve = res["curve"]
    cfg = r["config"] or {}
    if res["found"] is None:
        lo, hi = _parse_range(cfg.get("range", "0..1"))
        answer = _(
            "The target {target:.3g} is not between the values at {lo} and {hi}: widen "
            "the range or check the metric."
        ).format(target=target, lo=lo, hi=hi)
    else:
        low, high = res["interval"] or (res["found"], res["found"])
        answer = _(
            "{field} = {found} brings {metric} nearest {target:.3g} (values not ruled "
            "out: {low}..{high})."
        ).format(field=field, found=res["found"], metric=metric, target=target, low=low, high=high)
    xs = [str(p["value"]) for p in curve]
    shown_target = _("target {target:.3g}").format(target=target)
    figure = plots.lines(
        xs,
        {
            metric: (
                [p["metric"] for p in curve],
                [p["low"] for p in curve],
                [p["high"] for p in curve],
            ),
            shown_target: ([target] * len(xs), [target] * len(xs), [target] * len(xs)),
        },
        _("{metric} by {field} (95% intervals)").format(metric=metric, field=field),
        xlabel=_("value of {field}").format(field=field),
        ylabel=metric,
    )
    alt = _(
        "{metric} at each value of {field} that was tried, with its 95% interval, "
        "and the target {target:.3g}"
    ).format(metric=metric, field=field, target=target)
    rows = [
        (p["value"], f"{p['metric']:.3g}", f"[{p['low']:.3g}, {p['high']:.3g}]", p["games"])
        for p in curve
    ]
    title = r["name"] or _("Tuning {field}").format(field=field)
    settings = _(
        "{game}, card file {cards}, seats {seats}; {n} games at each value, on the same seeds"
    ).format(
        game=r["game"], cards=r["cards"], seats=", ".join(r["seats"]), n=cfg.get("games_per_step")
    )
    return h.page(
        title,
        [
            h.section("found", _("The value found"), [h.para(answer), h.para(settings, "note")]),
            h.section(
                "curve",
                _("The curve"),
                [
                    h.img(figure, alt),
                    h.table([_("value"), _("metric"), _("95% interval"), _("games")], rows),
                ],
            ),
        ],
    )


def _ab_html(r: dict[str, Any]) -> str:
    from ..lab import html as h
    from ..lab import plots

    res = r["result"]
    cfg = r["config"] or {}
    metric, alpha, margin = res["metric"], float(res["alpha"]), float(res["margin"])
    games = int(res["games"])
    verdict = {
        "up": _("B is higher: the change is real (error at most {alpha:.0%} over every look)."),
        "down": _("B is lower: the change is real (error at most {alpha:.0%} over every look)."),
        "same": _("No change larger than ±{margin:.1%} (error at most {alpha:.0%})."),
        "open": _("Not answered within the budget: no change found yet; play more games."),
    }[res["decision"]].format(alpha=alpha, margin=margin)
    means = core.ngettext(
        "{metric}: A {a:.1%}, B {b:.1%} over {n} game a side.",
        "{metric}: A {a:.1%}, B {b:.1%} over {n} games a side.",
        games,
    ).format(metric=metric, a=res["a"], b=res["b"], n=games)
    estimate = _(
        "B minus A: {diff:+.2f} pp; always-valid {level:.0%} interval [{low:+.2f}, {high:+.2f}] pp."
    ).format(diff=100 * res["diff"], level=1 - alpha, low=100 * res["low"], high=100 * res["high"])
    played = core.ngettext(
        "{n} game played in all (both versions).",
        "{n} games played in all (both versions).",
        2 * games,
    ).format(n=2 * games)
    versions = _("A: {a}; B: {b}; seats {seats}.").format(
        a=cfg.get("cards_a") or _("shipped cards"),
        b=cfg.get("cards_b") or _("shipped cards"),
        seats=", ".join(r["seats"]),
    )
    parts = [h.para(verdict), h.para(means), h.para(estimate), h.para(played), h.para(versions)]
    if res.get("failed_pairs"):
        parts.append(
            h.para(
                core.ngettext(
                    "{n} pair left out: one of its games failed.",
                    "{n} pairs left out: one of their games failed.",
                    int(res["failed_pairs"]),
                ).format(n=res["failed_pairs"]),
                "warn",
            )
        )
    looks = res["looks"]
    figure = plots.lines(
        [str(k["games"]) for k in looks],
        {
            _("B minus A"): (
                [100 * k["diff"] for k in looks],
                [100 * k["low"] for k in looks],
                [100 * k["high"] for k in looks],
            )
        },
        _("{metric}: B minus A, look by look").format(metric=metric),
        xlabel=_("games a side"),
        ylabel=_("difference (pp)"),
    )
    alt = _(
        "The difference B minus A in {metric} after each look, with its always-valid interval"
    ).format(metric=metric)
    rows = [
        (k["games"], f"{100 * k['diff']:+.2f}", f"[{100 * k['low']:+.2f}, {100 * k['high']:+.2f}]")
        for k in looks
    ]
    title = r["name"] or _("A/B test: {metric}").format(metric=metric)
    return h.page(
        title,
        [
            h.section("decision", _("The decision"), parts),
            h.section(
                "looks",
                _("Look by look"),
                [
                    h.img(figure, alt),
                    h.table(
                        [_("games a side"), _("difference (pp)"), _("always-valid interval")],
                        rows,
                    ),
                ],
            ),
        ],
    )


# -- a run's own process ---------------------------------------------------------
def _play_in_child(
    job: dict[str, Any],
    *,
    stop: Callable[[], bool],
    progress: Callable[[int], None],
) -> dict[str, Any]:
    """Play a run (or a tune, an A/B test: ``job["kind"]``) in a fresh
    interpreter (run_main), so that stopping it never
    waits for a game to end: when ``stop()`` turns true the process gets
    SIGINT, saves the games it finished and ends; after ``STOP_SECONDS`` it is
    killed (the file keeps what its last save held). ``progress(done)`` is
    called at most twice a second. The outcome: ``total``, ``interrupted``,
    ``games_per_second``, or ``error``."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    # Stopped before it is ready (SIGINT while importing): it ends quietly.
    code = (
        "import signal, sys; signal.signal(signal.SIGINT, lambda *a: sys.exit(130)); "
        "from bestiary.server.lab import run_main; run_main()"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        env=env,
        start_new_session=True,  # a Ctrl-C at the terminal reaches the server, which stops it
    )
    assert proc.stdin is not None and proc.stdout is not None
    kind, path = str(job.get("kind", "run")), Path(job["path"])
    outcome: dict[str, Any] | None = None
    fd = proc.stdout.fileno()
    try:
        proc.stdin.write((json.dumps(job) + "\n").encode())
        proc.stdin.close()
        interrupted_at: float | None = None
        last = 0.0
        pending = b""
        while outcome is None:
            if interrupted_at is None and stop():
                proc.send_signal(signal.SIGINT)
                interrupted_at = time.monotonic()
            if interrupted_at is not None and time.monotonic() - interrupted_at > STOP_SECONDS:
                proc.kill()
                outcome = {"interrupted": True, "total": _saved(kind, path)}
                break
            ready, _w, _x = select.select([fd], [], [], 0.1)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:  # the process ended without an outcome
                outcome = {"interrupted": interrupted_at is not None, "total": _saved(kind, path)}
                if interrupted_at is None:
                    outcome["error"] = f"the run's process ended (exit code {proc.wait(5)})"
                break
            *lines, pending = (pending + chunk).split(b"\n")
            for line in lines:
                msg = json.loads(line)
                if "done" not in msg:
                    outcome = msg
                    break
                now = time.monotonic()
                if now - last > 0.5:  # the database is not a progress bar
                    last = now
                    progress(int(msg["done"]))
        if interrupted_at is not None and outcome is not None and "error" in outcome:
            # stopped before its first game ended ("no game was played"): not a failure
            outcome = {"interrupted": True, "total": _saved(kind, path)}
    finally:
        if proc.poll() is None:
            try:
                proc.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        proc.stdout.close()
    return outcome or {"error": "the run's process gave no outcome"}


def _saved(kind: str, path: Path) -> int:
    """Games a job has kept: a run's in its file, a tune's in its steps' files
    (an A/B test keeps none: it starts again from its first game)."""
    if kind == "tune":
        return sum(_rows_in(p) for p in path.glob("*.parquet")) if path.is_dir() else 0
    return _rows_in(path) if kind == "run" else 0


def _rows_in(path: Path) -> int:
    """Games saved in a run file (0 if there is none yet)."""
    try:
        import pyarrow.parquet as pq

        return int(pq.read_metadata(path).num_rows)
    except Exception:
        return 0


def run_main() -> None:
    """Entry of a run's process: the job as one JSON line on stdin; JSON lines
    on stdout (``{"done": n}`` as games finish, then the outcome). SIGINT
    (sent by the server when it stops or the run is cancelled) ends it after
    saving the games it finished."""
    from ..lab.runs import RunConfig, run_to_parquet

    out = os.fdopen(os.dup(1), "w", buffering=1)
    _stop_with_parent()
    signal.signal(signal.SIGINT, signal.default_int_handler)  # from now on: save, then end
    os.dup2(2, 1)  # the games' own prints cannot garble the channel
    job = json.loads(sys.stdin.readline())
    kind = job.get("kind", "run")
    c = job["config"]
    done = _saved(kind, Path(job["path"]))  # a resumed job counts the games it already has

    def progress(k: int) -> None:
        nonlocal done
        done += k
        out.write(json.dumps({"done": done}) + "\n")

    if kind != "run":
        try:
            t0 = time.perf_counter()
            answer = _tune_job(job, progress) if kind == "tune" else _ab_job(job, progress)
            seconds = max(time.perf_counter() - t0, 1e-9)
            ended: dict[str, Any] = {
                "result": answer,
                "total": done,
                "games_per_second": done / seconds,
            }
        except KeyboardInterrupt:  # its steps so far are kept: resumed at the next start
            ended = {"interrupted": True, "total": done}
        except Exception as exc:
            ended = {"error": f"{type(exc).__name__}: {exc}"[:500]}
        out.write(json.dumps(ended) + "\n")
        out.close()
        return
    cfg = RunConfig(
        c["game"], tuple(c["seats"]), c["seed"], c["variant"], c["options"], rotate=True
    )
    try:
        res = run_to_parquet(
            cfg, Path(job["path"]), int(job["games"]), workers=job["workers"], progress=progress
        )
        outcome: dict[str, Any] = {
            "total": res.total,
            "interrupted": res.interrupted,
            "games_per_second": res.games_per_second,
        }
    except KeyboardInterrupt:  # between two saves: the file keeps its last one
        outcome = {"interrupted": True, "total": _rows_in(Path(job["path"]))}
    except Exception as exc:
        outcome = {"error": f"{type(exc).__name__}: {exc}"[:500]}
    out.write(json.dumps(outcome) + "\n")
    out.close()


def _tune_job(job: dict[str, Any], progress: Callable[[int], None]) -> dict[str, Any]:
    """A tune in the job's process: ``bestiary tune``'s own search, its steps
    in the job's folder (a step already played is read back at a resume)."""
    from ..lab.tune import tune

    c = job["config"]
    res = tune(
        c["game"],
        c["seats"],
        Path(c["cards_path"]),
        c["field"],
        int(c["lo"]),
        int(c["hi"]),
        c["metric"],
        float(c["target"]),
        int(c["games_per_step"]),
        Path(job["path"]),
        seed=int(c["seed"]),
        variant=c["variant"],
        options=c["options"],
        workers=int(job["workers"]),
        progress=progress,
        stop=lambda: False,  # SIGINT interrupts a step: the tune then ends, to resume
    )
    return res.to_json()


def _ab_job(job: dict[str, Any], progress: Callable[[int], None]) -> dict[str, Any]:
    """An A/B test in the job's process: ``bestiary ab``'s own test (it keeps
    no file: after a restart it plays again from its first game, on the same
    seeds, so it comes to the same answer)."""
    from ..lab.runs import RunConfig
    from ..lab.sequential import run_ab

    c = job["config"]
    a, b = c["a"], c["b"]
    res = run_ab(
        RunConfig(a["game"], tuple(a["seats"]), a["seed"], a["variant"], a["options"]),
        RunConfig(b["game"], tuple(b["seats"]), b["seed"], b["variant"], b["options"]),
        c["metric"],
        alpha=float(c["alpha"]),
        margin=float(c["margin"]),
        batch=int(c["batch"]),
        budget=int(c["budget"]),
        workers=int(job["workers"]),
        progress=lambda pairs: progress(2 * pairs),  # both versions' games
    )
    return res.to_json()


def _stop_with_parent() -> None:
    """A server killed outright (SIGKILL) cannot tell its run to stop: the run
    stops itself (as on SIGINT) when its parent is gone, so two processes
    never write one run file after a restart."""
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=watch, daemon=True, name="parent-watch").start()
