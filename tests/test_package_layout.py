"""Every game package is cut the same way (docs/ADDING_A_GAME.md, "The
files"), so a reader who knows one knows all four, and its modules import
downward only (DESIGN.md: "Arrows point down only")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).parents[1] / "bestiary" / "games"
PACKAGES = ["meat", "monster_maker", "taxonomy", "teratozoic"]

#: The files every game package has (ADDING_A_GAME.md lists what each is for).
COMMON = [
    "__init__.py",
    "game.py",
    "ruleset.py",
    "phases.py",
    "cards.py",
    "actions.py",
    "board.py",
    "rules.py",
    "view.py",
    "observe.py",
    "render.py",
    "describe.py",
    "stats.py",
    "bots.py",
    "value.py",
    "RULES.md",
    "data/event_rules.toml",
]


def _imports(package: Path) -> dict[str, set[str]]:
    """Module -> the package's modules it imports (inside functions too)."""
    graph: dict[str, set[str]] = {}
    for f in package.glob("*.py"):
        deps = set()
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                if node.module:
                    deps.add(node.module.split(".")[0])
                else:  # from . import x
                    deps |= {alias.name for alias in node.names}
        graph[f.stem] = deps
    return graph


@pytest.mark.parametrize("package", PACKAGES)
def test_the_package_has_the_common_files(package: str) -> None:
    here = GAMES / package
    missing = [name for name in COMMON if not (here / name).is_file()]
    assert missing == []
    assert (here / "locale" / "pl" / "LC_MESSAGES" / f"{package}.po").is_file()


@pytest.mark.parametrize("package", PACKAGES)
def test_init_is_only_the_registry_entry(package: str) -> None:
    """``__init__.py``: ``GAME = <Name>Game()`` from game.py, nothing else."""
    tree = ast.parse((GAMES / package / "__init__.py").read_text(encoding="utf-8"))
    imports = [n for n in tree.body if isinstance(n, ast.ImportFrom)]
    assert [(n.module, n.level) for n in imports] == [("game", 1)]
    defined = {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets} - {
        "__all__"
    }
    assert defined == {"GAME"}
    assert not [n for n in tree.body if isinstance(n, ast.ClassDef | ast.FunctionDef)]


@pytest.mark.parametrize("package", PACKAGES)
def test_the_modules_import_downward_only(package: str) -> None:
    graph = _imports(GAMES / package)
    # Nothing imports the package's face or its Game (the what-if tool gets the
    # Game passed in), and the lower layers never import the State on top.
    for mod, deps in graph.items():
        if mod != "__init__":
            assert "__init__" not in deps and "game" not in deps, mod
    for low in ("phases", "ruleset", "board", "cards", "actions"):
        assert "rules" not in graph[low], f"{low}.py imports rules.py"

    def walk(mod: str, path: list[str]) -> None:
        for dep in graph.get(mod, set()):
            assert dep not in path, " -> ".join([*path, dep])
            walk(dep, [*path, dep])

    for mod in graph:
        walk(mod, [mod])
