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
import os
import re
import secrets
import select
import signal
import subprocess
import sys
import threading
import time
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
)


class NewRun(BaseModel):
    game: str = Field(max_length=64)
    seats: list[str] = Field(min_length=1, max_length=6)
    variant: str = Field("", max_length=64)
    options: dict[str, str | int | float | bool] = Field(default_factory=dict, max_length=20)
    cards: str = Field("", max_length=100)
    games: int = Field(100, ge=1)
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
    """Databases made before runs had a client or a name get the column (nullable)."""
    columns = {c["name"] for c in sa.inspect(engine).get_columns("lab_runs")}
    for name, kind in (("client", "VARCHAR(80)"), ("name", f"VARCHAR({NAME_LENGTH})")):
        if name not in columns:
            with engine.begin() as c:
                c.execute(sa.text(f"ALTER TABLE lab_runs ADD COLUMN {name} {kind}"))


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

    def play(run_id: str, cfg: dict[str, Any], games: int) -> None:
        if stopping.is_set() or run_id in cancelled:
            return  # still queued: resumed at the next start (or cancelled for good)
        update_open(run_id, status="running")
        try:
            outcome = _play_in_child(
                cfg,
                folders.run_file(run_id),
                games,
                workers,
                stop=lambda: stopping.is_set() or run_id in cancelled,
                progress=lambda done: update_open(run_id, done=done),
            )
        except Exception as exc:  # the run's process could not start or talk
            outcome = {"error": f"{type(exc).__name__}: {exc}"}
        if run_id in cancelled:
            update(run_id, done=outcome.get("total", 0))  # its status says cancelled already
        elif "error" in outcome:  # the run failed, the server did not: say why on the page
            update_open(run_id, status="failed", error=str(outcome["error"])[:500])
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
            cfg = run_config(req)
        except BestiaryError as exc:  # a bad game, seat or option: say which, as the app does
            raise HTTPException(400, str(exc)) from None
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
                    client=client[:80],
                    name=_run_name(req.name),
                )
            )
        pool.submit(play, run_id, cfg, req.games)
        return row(run_id)

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
    created = r["created"]
    r["created"] = created.isoformat() if created else None
    r["progress"] = round(r["done"] / r["games"], 4) if r.get("games") else 0.0
    return r


# -- a run's own process ---------------------------------------------------------
def _play_in_child(
    cfg: dict[str, Any],
    path: Path,
    games: int,
    workers: int,
    *,
    stop: Callable[[], bool],
    progress: Callable[[int], None],
) -> dict[str, Any]:
    """Play a run in a fresh interpreter (run_main), so that stopping it never
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
    job = {"config": cfg, "path": str(path), "games": games, "workers": workers}
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
                outcome = {"interrupted": True, "total": _rows_in(path)}
                break
            ready, _w, _x = select.select([fd], [], [], 0.1)
            if not ready:
                continue
            chunk = os.read(fd, 65536)
            if not chunk:  # the process ended without an outcome
                outcome = {"interrupted": interrupted_at is not None, "total": _rows_in(path)}
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
            outcome = {"interrupted": True, "total": _rows_in(path)}
    finally:
        if proc.poll() is None:
            try:
                proc.wait(STOP_SECONDS)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(5)
        proc.stdout.close()
    return outcome or {"error": "the run's process gave no outcome"}


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
    c = job["config"]
    cfg = RunConfig(
        c["game"], tuple(c["seats"]), c["seed"], c["variant"], c["options"], rotate=True
    )
    done = _rows_in(Path(job["path"]))  # a resumed run counts the games it already has

    def progress(k: int) -> None:
        nonlocal done
        done += k
        out.write(json.dumps({"done": done}) + "\n")

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
