"""Card files without Python: export the shipped set in its editable format,
and list every problem of a designer's file at once.

The games' loaders stop at the first bad row (Monster Maker's lists them
all). To list every problem anyway, :func:`validate` loads the file, sets
aside the row (CSV) or the table (TOML) the error names by its line, and
loads again, until the file loads or no line is named. The file itself is
never changed: the retries read a temporary copy.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

from ..engine.errors import BadInput, BestiaryError
from ..engine.registry import get_game
from ..i18n import core

_GAMES = Path(__file__).resolve().parent.parent / "games"

# (game, option naming a file) -> the shipped file in that format.
SHIPPED: dict[tuple[str, str], Path] = {
    ("meat", "cards"): _GAMES / "meat" / "data" / "cards.toml",
    ("monster-maker", "cards"): _GAMES / "monster_maker" / "data" / "deck.csv",
    ("monster-maker", "treasures"): _GAMES / "monster_maker" / "data" / "treasures.csv",
    ("monster-maker", "prizes"): _GAMES / "monster_maker" / "data" / "prizes.csv",
    ("taxonomy", "cards"): _GAMES / "taxonomy" / "data" / "monsters.csv",
    ("taxonomy", "scoring"): _GAMES / "taxonomy" / "data" / "scoring.toml",
    ("teratozoic", "cards"): _GAMES / "teratozoic" / "data" / "cards.csv",
}
MAX_PROBLEMS = 200
_LINE = re.compile(r"\bline (\d+)\b")


def file_options(game_id: str) -> list[str]:
    get_game(game_id)  # unknown game: the registry's clear error
    return sorted(field for g, field in SHIPPED if g == game_id)


def shipped(game_id: str, field: str = "cards") -> Path:
    if (game_id, field) not in SHIPPED:
        allowed = ", ".join(file_options(game_id)) or "none"
        raise BadInput(f"{game_id} has no {field} file; files it takes: {allowed}")
    return SHIPPED[(game_id, field)]


def export(game_id: str, dest: str | Path, field: str = "cards", force: bool = False) -> Path:
    """Copy the shipped ``field`` file of ``game_id`` to ``dest`` (the format to edit)."""
    src = shipped(game_id, field)
    out = Path(dest)
    if out.exists() and not force:
        raise BadInput(f"{out} exists; choose another name or pass --force to overwrite it")
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(src, out)
    except OSError as exc:  # a folder that cannot be made, a full or read-only disk...
        raise BadInput(
            core.gettext("cannot write {path}: {reason}").format(
                path=out, reason=exc.strerror or type(exc).__name__
            )
        ) from None
    return out


def _load(game_id: str, field: str, path: Path, variant: str | None) -> str | None:
    game = get_game(game_id)
    try:
        game.new(min(game.allowed_players()), seed=0, variant=variant, options={field: str(path)})
    except BestiaryError as exc:
        return str(exc)
    return None


def _block(lines: list[str], n: int, toml: bool) -> range:
    """Line numbers (1-based) to set aside for a problem on line ``n``."""
    if not toml:
        return range(n, n + 1)
    start = n
    while start > 1 and not lines[start - 1].lstrip().startswith("["):
        start -= 1
    end = n + 1
    while end <= len(lines) and not lines[end - 1].lstrip().startswith("["):
        end += 1
    return range(start, end)


def validate(
    game_id: str, path: str | Path, field: str = "cards", variant: str | None = None
) -> list[str]:
    """Every problem of the file (empty: it loads). Messages name the file's own lines."""
    shipped(game_id, field)
    src = Path(path)
    if not src.is_file():
        raise BadInput(f"{src} does not exist (or is not a file)")
    raw = src.read_bytes()
    toml = src.suffix.lower() == ".toml"
    problems: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp) / src.name
        work.write_bytes(raw)
        try:
            lines = raw.decode("utf-8-sig").split("\n")
        except UnicodeDecodeError:
            lines = []
        while len(problems) < MAX_PROBLEMS:
            message = _load(game_id, field, work, variant)
            if message is None:
                break
            message = message.replace(str(work), str(src))
            found = [int(m) for m in _LINE.findall(message)]
            if len(found) != 1 or not lines or found[0] > len(lines):
                # a whole-file problem, or the loader listed them all itself
                if problems and not found:
                    message += " (this may follow from the rows set aside above)"
                problems.append(message)
                break
            problems.append(message)
            for k in _block(lines, found[0], toml):
                # Commented out, not removed, so the line numbers stay the file's own.
                lines[k - 1] = "# " + lines[k - 1]
            work.write_text("\n".join(lines), encoding="utf-8")
    return problems
