"""``bestiary rl``: the research benchmark (``evaluate``) and decision datasets
(``dataset``); the protocol is in docs/LEADERBOARD.md, the schema in docs/RL.md."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from ..engine.errors import BestiaryError
from ..engine.protocol import Game
from ..engine.registry import get_game
from ..i18n import N_, core
from .common import (
    JsonOpt,
    OptionOpt,
    VariantOpt,
    allow_local_imports,
    check_workers,
    emit_json,
    err,
    esc,
    fail,
    guarded,
    options_of,
    out,
    split_seats,
)

_ = core.gettext

app = typer.Typer(
    help=N_("Reinforcement learning: the benchmark protocol and datasets of decisions."),
    no_args_is_help=True,
)


def _players(game: Game, players: int | None) -> int:
    count = players or game.default_players
    if count not in game.allowed_players():
        fail(
            _("{game} is played by {allowed} players, not {players}").format(
                game=game.id,
                allowed=", ".join(map(str, game.allowed_players())),
                players=count,
            )
        )
    return count


@app.command(
    help=N_(
        "Play an agent against the fixed opponent pool on the protocol's seeds and "
        "print its win share against each (Wilson 95%) and the mean over the pool."
    )
)
def evaluate(
    agent: Annotated[
        str, typer.Argument(help=N_("the agent spec to evaluate (or module:Agent of your own)"))
    ],
    game_id: Annotated[str, typer.Option("--game", "-g", help=N_("game id"))],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help=N_("seats (default: the game's)"))
    ] = None,
    games: Annotated[
        int,
        typer.Option(
            "--games", "-n", help=N_("games against each pool member (the full protocol: 1200)")
        ),
    ] = 60,
    seed: Annotated[
        int, typer.Option(help=N_("seed of the first game (the protocol's: 10000)"))
    ] = 10_000,
    pool: Annotated[
        str,
        typer.Option(help=N_("pool members to play, comma-separated (default: all of them)")),
    ] = "",
    variant: VariantOpt = None,
    option: OptionOpt = None,
    workers: Annotated[
        int, typer.Option(help=N_("processes to use (results do not depend on it)"))
    ] = 1,
    as_json: JsonOpt = False,
) -> None:
    from ..rl.evaluate import evaluate as run
    from ..rl.evaluate import opponent_pool

    game = guarded(lambda: get_game(game_id))
    opts = options_of(option, None)
    count = _players(game, players)
    if games < 1:
        fail(_("--games must be at least 1"))
    check_workers(workers)
    members = opponent_pool(game, count)
    if pool.strip():
        wanted = [p.strip() for p in pool.split(",") if p.strip()]
        unknown = [p for p in wanted if p not in members]
        if unknown:
            fail(
                _("{name} is not in the pool; choose from: {choices}").format(
                    name=unknown[0], choices=", ".join(members)
                )
            )
        members = {p: members[p] for p in wanted}
    allow_local_imports()
    try:
        result = run(
            game, agent, count, games, seed, members, variant, opts, workers,
            progress=None if as_json or not err.is_terminal else _progress(),
        )  # fmt: skip
    except BestiaryError as exc:
        fail(str(exc))
    if as_json:
        emit_json(result.to_json())
        return
    table = Table(
        title=_("{agent} at {game}, {players} seats; games per opponent: {games}").format(
            agent=esc(agent), game=esc(game.id), players=count, games=games
        )
    )
    for col in (_("opponent"), _("spec"), _("wins"), _("win share"), _("Wilson 95%"), _("seconds")):
        table.add_column(col, justify="left" if col in (_("opponent"), _("spec")) else "right")
    for p in result.pairings:
        table.add_row(
            esc(p.name), esc(p.spec), f"{p.wins:g}", f"{p.share:.3f}",
            f"{p.low:.3f}–{p.high:.3f}", f"{p.seconds:.1f}",
        )  # fmt: skip
    out.print(table)
    out.print(
        esc(_("mean win share over the pool: {mean:.3f} (fair share {fair:.3f})")).format(
            mean=result.mean_share, fair=result.fair_share
        ),
        highlight=False,
    )
    if result.interrupted:
        fail(_("interrupted: the pool was not played in full"), code=130)


def _progress() -> Callable[[str, int], None]:
    def show(name: str, n: int) -> None:
        if n % 10 == 0:
            err.print(
                esc(_("{opponent}: games played: {n}").format(opponent=name, n=n)), highlight=False
            )

    return show


@app.command(
    help=N_(
        "Play games and write one Parquet row per decision: what the acting seat saw "
        "(observation and view), its legal actions, the action and the final rewards."
    )
)
def dataset(
    game_id: Annotated[str, typer.Argument(help=N_("game id (see `bestiary games`)"))],
    agents: Annotated[
        str,
        typer.Option(help=N_("agent specs, comma-separated: one for every seat, or one per seat")),
    ],
    out_file: Annotated[Path, typer.Option("--out", help=N_("the Parquet file to write"))],
    games: Annotated[int, typer.Option("--games", "-n", help=N_("how many games"))] = 10,
    players: Annotated[
        int | None,
        typer.Option("--players", "-p", help=N_("seats (default: one per spec, or the game's)")),
    ] = None,
    seed: Annotated[int, typer.Option(help=N_("seed of the first game"))] = 0,
    variant: VariantOpt = None,
    option: OptionOpt = None,
) -> None:
    from ..rl.dataset import write

    game = guarded(lambda: get_game(game_id))
    opts = options_of(option, None)
    specs = split_seats(agents)
    if not specs:
        fail(_("--agents needs at least one agent spec"))
    if len(specs) == 1:
        specs = specs * _players(game, players)
    elif players is not None and players != len(specs):
        fail(
            _("--players {players} but {n} agent specs; give one spec or one per seat").format(
                players=players, n=len(specs)
            )
        )
    if games < 1:
        fail(_("--games must be at least 1"))
    if out_file.exists() and out_file.is_dir():
        fail(_("{path} is a folder; --out names the file to write").format(path=out_file))
    allow_local_imports()
    try:
        rows = write(out_file, game, specs, games, seed, variant, opts)
    except BestiaryError as exc:
        fail(str(exc))
    except OSError as exc:
        fail(_("cannot write {path}: {error}").format(path=out_file, error=exc.strerror or exc))
    out.print(
        esc(_("written to {path}: decisions: {rows}, games: {games}")).format(
            rows=rows, games=games, path=esc(out_file)
        ),
        highlight=False,
    )
