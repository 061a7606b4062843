"""``bestiary games``, ``cards`` and ``score``: what the registry holds, card lists,
and each game's scoring tool."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.table import Table
from typer.core import TyperCommand

if TYPE_CHECKING:
    from typer._click import Context, HelpFormatter

from ..engine.errors import BadInput, BestiaryError
from ..engine.protocol import Game
from ..engine.record import parse_json
from ..engine.registry import all_games, game_ids, get_game
from ..engine.ruleset import Ruleset
from ..i18n import N_, core
from .common import (
    CardsOpt,
    GameArg,
    JsonOpt,
    OptionOpt,
    VariantOpt,
    emit_json,
    esc,
    fail,
    guarded,
    options_of,
    out,
    warn_broken_games,
)

_ = core.gettext


# --------------------------------------------------------------------------- games
def games(as_json: JsonOpt = False) -> None:
    """List the games, their variants, options and bots."""
    warn_broken_games()
    infos = []
    for gid in game_ids():
        try:
            infos.append(get_game(gid).info())
        except BestiaryError as exc:
            infos.append({"id": gid, "error": str(exc)})
    if as_json:
        emit_json({"games": infos})
        return
    table = Table(title=esc(_("Games")))
    for col in (_("id"), _("title"), _("players"), _("variants"), _("bots")):
        table.add_column(esc(col))
    for info in infos:
        if "error" in info:
            table.add_row(esc(info["id"]), f"[red]{esc(info['error'])}[/]", "", "", "")
            continue
        table.add_row(
            esc(info["id"]),
            esc(info["title"]),
            ",".join(map(str, info["players"])),
            esc(", ".join(info["variants"])),
            esc(", ".join(info["agents"])),
        )
    out.print(table)


# --------------------------------------------------------------------------- cards
def cards(
    game_id: GameArg,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    cards_file: CardsOpt = None,
    export: Annotated[
        Path | None,
        typer.Option(
            "--export", help=N_("write the shipped card file here, to edit (use: --cards)")
        ),
    ] = None,
    file_: Annotated[
        str, typer.Option("--file", help=N_("with --export: which file (cards, treasures, …)"))
    ] = "cards",
    force: Annotated[
        bool, typer.Option(help=N_("with --export: overwrite an existing file"))
    ] = False,
    as_json: JsonOpt = False,
) -> None:
    """List a game's cards, or export the shipped card file to edit (--export).

    For taxonomy the list also shows the collecting keys and orphans."""
    if export is not None:
        from .lab import export_cards

        export_cards(game_id, export, file_, force)
        return
    game = guarded(lambda: get_game(game_id))
    opts = options_of(option, cards_file)
    rules = guarded(lambda: game.ruleset(variant, opts))
    catalog = guarded(lambda: game.catalog(rules))
    if catalog is None:
        fail(_("{game} has no card list").format(game=game_id))
    if as_json:
        emit_json(catalog)
    else:
        out.print(game.render_catalog(catalog))


# --------------------------------------------------------------------------- score
def has_score_tool(game: Game) -> bool:
    """Whether ``bestiary score`` works for ``game``: its ``score_tool`` hook,
    asked about an empty payload, answers or refuses it rather than returning
    None (what a game without a tool returns)."""
    try:
        return game.score_tool({}, game.ruleset()) is not None
    except BestiaryError:
        return True  # it read the payload and said what is wrong with it: a tool
    except Exception:  # a broken tool is still a tool (and will say so when used)
        return True


def games_with_score_tool() -> list[str]:
    return [g.id for g in all_games() if has_score_tool(g)]


def expected_shape(game: Game, rules: Ruleset) -> str:
    """The input the game's tool expects, in its own words: the docstring of its
    ``score_tool`` and what it says about an empty payload."""
    parts = []
    doc = type(game).score_tool.__doc__
    if doc and doc != Game.score_tool.__doc__:
        parts.append(" ".join(doc.replace("``", "").split()))
    try:
        game.score_tool({}, rules)
    except BestiaryError as exc:
        parts.append(str(exc))
    except Exception:  # the tool's own failure is reported when it runs on real input
        pass
    return "; ".join(p.rstrip(". ") for p in parts) or _("a JSON object (see the game's RULES.md)")


def fail_with_shape(message: str, game: Game, rules: Ruleset) -> None:
    from .common import err

    word = _("error:")
    err.print(f"[bold red]{esc(word)}[/] {esc(message)}", highlight=False, soft_wrap=True)
    err.print(
        esc(_("{game} expects: {shape}").format(game=game.id, shape=expected_shape(game, rules))),
        highlight=False,
        soft_wrap=True,
    )
    raise typer.Exit(2)


class ScoreCommand(TyperCommand):
    """Its help lists the games with a scoring tool, found in the registry when asked."""

    def format_help(self, ctx: Context, formatter: HelpFormatter) -> None:
        warn_broken_games()
        base = getattr(self, "_base_help", None) or self.help or ""
        self._base_help = base
        tools = ", ".join(games_with_score_tool()) or _("none installed")
        more = _("Games with a scoring tool: {games}.").format(games=escape(tools))
        self.help = f"{base}\n\n{more}"
        super().format_help(ctx, formatter)


def score(
    game_id: GameArg,
    variant: VariantOpt = None,
    option: OptionOpt = None,
    cards_file: CardsOpt = None,
) -> None:
    """Score with a game's own scoring tool (JSON on stdin, JSON on stdout).

    Malformed input exits with code 2 and the shape the game expects.
    Example: echo '{"hand": [...]}' | bestiary score taxonomy
    """
    game = guarded(lambda: get_game(game_id))
    opts = options_of(option, cards_file)
    rules = guarded(lambda: game.ruleset(variant, opts))
    if not has_score_tool(game):
        fail(
            _("{game} has no scoring tool; games with one: {games}").format(
                game=game_id, games=", ".join(games_with_score_tool()) or _("none")
            )
        )
    if sys.stdin.isatty():
        fail_with_shape(_("give the input as JSON on stdin"), game, rules)
    payload = _read_payload(game, rules)
    v = payload.get("variant", variant)
    if v is not None and not isinstance(v, str):
        fail(_("'variant' must be a string"))
    rules = guarded(lambda: game.ruleset(v, opts))
    try:
        result = game.score_tool(payload, rules)
    except BadInput as exc:
        fail_with_shape(str(exc), game, rules)
    except BestiaryError as exc:
        fail(str(exc))
    emit_json(result)


def _read_payload(game: Game, rules: Ruleset) -> dict[str, Any]:
    try:
        raw = sys.stdin.read()
    except UnicodeDecodeError:
        fail_with_shape(_("the input is not UTF-8 text"), game, rules)
    if not raw.strip():
        fail_with_shape(_("no input on stdin"), game, rules)
    try:
        payload = parse_json(raw)
    except BadInput as exc:
        fail_with_shape(_("stdin: {error}").format(error=exc), game, rules)
    if not isinstance(payload, dict):
        fail_with_shape(_("the input must be a JSON object"), game, rules)
    return payload
