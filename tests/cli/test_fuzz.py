"""Fuzzing the command line: whatever a user types, pipes or points it at, ``bestiary``
answers with a result or a clean error (exit 0, 1 or 2) and never a traceback.

Each example is one in-process invocation (CliRunner): a command with random
arguments and options, ``-o`` values, stdin for ``score`` and ``play``, and
bad files for ``--cards`` and ``replay``. Work per example is kept small
(one or two games, the toy game or random bots) so the whole test runs in
seconds. The test counts the invocations (printed with ``-s``).
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from pathlib import Path

import typer
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bestiary.cli import app
from bestiary.engine import register
from bestiary.sim.runner import play_game

from ..engine.toygame import GAME

register(GAME)
runner = CliRunner()
COMMAND = typer.main.get_command(app)  # built once: Typer's runner rebuilds it per call
TOY_RECORD = play_game(GAME, ["random", "random"], seed=3, record=True).record.to_json()  # type: ignore[union-attr]
EXAMPLES = 300
CLEAN_EXITS = {0, 1, 2}

GAMES = ["toy", "taxonomy", "teratozoic", "meat", "monster-maker", "chess", "", "[/red]", "tóy"]
FAST_GAMES = ["toy", "taxonomy", "monster-maker", "meat", "chess", "[b]"]
AGENTS = [
    "random",
    "heuristic",
    "human",
    "ismcts:iterations=2",
    "ismcts:iterations=-1",
    "ismcts:iterations=x",
    "ismcts:fast",
    "random:speed=9",
    "[/red]",
    ":",
    "tests.cli.bots:FirstLegal",
    "tests.cli.bots:NOT_AN_AGENT",
    "tests.cli.bots:NoAct",
    "tests.cli.bots:",
    "json:dumps",
    "no_such_module_xyz:Bot",
]
OPTION_NAMES = ["tricks", "high_wins", "rounds", "peek", "cards", "max_rounds", "advanced", "nope"]

# Text that Rich, JSON, CSV and TOML parsers each find awkward.
nasty = st.sampled_from(
    ["[/red]", "[bold]", "[", "]", "\\", '"', "'", "\x00", "é", "—", "\n", ",", "=", ":", "{", "["]
)
text = st.lists(st.one_of(nasty, st.text(max_size=6)), max_size=6).map("".join)
small_int = st.integers(-3, 40)
option_value = st.one_of(text, small_int.map(str), st.sampled_from(["true", "no", "1e999", ""]))
option_pair = st.one_of(
    st.builds(lambda n, v: f"{n}={v}", st.sampled_from(OPTION_NAMES), option_value),
    text,
)


def deep(opener: str, closer: str, depth: int) -> str:
    return opener * depth + closer * depth


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | text,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(text, inner, max_size=4),
    max_leaves=12,
)
payloads = st.one_of(
    json_values.map(json.dumps),
    st.dictionaries(
        st.sampled_from(["hand", "cards", "gene_pool", "placements", "variant", "exposed", "x"]),
        json_values,
        max_size=3,
    ).map(json.dumps),
    st.builds(lambda d: deep("[", "]", d), st.integers(50, 50_000)),
    st.builds(lambda d: '{"hand": ' + deep("[", "]", d) + "}", st.integers(50, 50_000)),
    st.just("9" * 5000),
    text,
)
file_bodies = st.one_of(
    st.binary(max_size=200),
    text,
    payloads,
    st.builds(lambda d: "a = " + deep("[", "]", d), st.integers(10, 5000)),
    st.just("name,type,family\n" + "x,y\n" * 3),
    st.just('[[card]]\nname = "[/red]"\n'),
)
json_flag = st.sampled_from([[], ["--json"]])


class Files:
    """Bad files, written into one temporary directory per example."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.n = 0

    def write(self, body: str | bytes) -> str:
        self.n += 1
        path = self.root / f"f{self.n}"
        if isinstance(body, bytes):
            path.write_bytes(body)
        else:
            path.write_text(body, encoding="utf-8", errors="surrogatepass")
        return str(path)

    def choose(self, kind: str, body: str | bytes) -> str:
        if kind == "missing":
            return str(self.root / "missing.json")
        if kind == "directory":
            return str(self.root)
        return self.write(body)


file_choice = st.tuples(st.sampled_from(["file", "file", "missing", "directory"]), file_bodies)
Invocation = tuple[list[str], str]
Builder = Callable[[Files], Invocation]


def options(pairs: list[str]) -> list[str]:
    return [arg for p in pairs for arg in ("-o", p)]


@st.composite
def invocations(draw: st.DrawFn) -> Builder:
    command = draw(st.sampled_from(["games", "play", "simulate", "replay", "cards", "score",
                                    "bench", "help"]))  # fmt: skip
    game = draw(st.sampled_from(GAMES))
    opts = options(draw(st.lists(option_pair, max_size=2)))
    flag = draw(json_flag)
    cards = draw(st.one_of(st.none(), file_choice))

    def cards_args(files: Files) -> list[str]:
        return ["--cards", files.choose(*cards)] if cards else []

    if command == "games":
        return lambda files: (["games", *flag], "")
    if command == "help":
        sub = draw(st.sampled_from(["score", "simulate", "play", "bench", "replay"]))
        return lambda files: ([sub, "--help"], "")
    if command == "play":
        seats = ",".join(draw(st.lists(st.sampled_from(AGENTS), min_size=1, max_size=3)))
        play_game = draw(st.sampled_from(FAST_GAMES))
        seed = draw(st.integers(-5, 10**12))
        stdin = "\n".join(draw(st.lists(st.one_of(text, small_int.map(str)), max_size=8)))
        record = draw(st.sampled_from(["none", "file", "directory", "missing-dir"]))

        def play(files: Files) -> Invocation:
            rec = {
                "none": [],
                "file": ["--record", str(files.root / "rec.json")],
                "directory": ["--record", str(files.root)],
                "missing-dir": ["--record", str(files.root / "no" / "rec.json")],
            }[record]
            args = ["play", play_game, "--seats", seats, "--seed", str(seed), *opts, *flag, *rec]
            return args, stdin

        return play
    if command == "simulate":
        seats = ",".join(draw(st.lists(st.sampled_from(AGENTS), min_size=1, max_size=3)))
        extra = draw(st.lists(st.sampled_from(["--rotate", "--keep-going"]), max_size=2))
        numbers = [
            "-n", str(draw(st.integers(-1, 2))),
            "--workers", str(draw(st.sampled_from([-1, 0, 1, 1000]))),
            "--seed", str(draw(st.integers(-(10**6), 10**6))),
        ]  # fmt: skip
        sim_game = draw(st.sampled_from(FAST_GAMES))
        return lambda files: (
            ["simulate", sim_game, "--seats", seats, *numbers, *extra, *opts, *flag],
            "",
        )
    if command == "replay":
        source = draw(st.sampled_from(["bad", "mutated"]))
        body = draw(file_choice)
        field = draw(st.sampled_from(["game", "players", "seed", "variant", "moves", "seats",
                                      "options", "result", "format"]))  # fmt: skip
        value = draw(json_values)
        seat = draw(st.sampled_from([[], ["--seat", "0"], ["--seat", "-1"], ["--seat", "99"]]))

        def replay(files: Files) -> Invocation:
            if source == "bad":
                path = files.choose(*body)
            else:
                record = dict(TOY_RECORD)
                record[field] = value
                path = files.write(json.dumps(record))
            return ["replay", path, *seat, *flag], ""

        return replay
    if command == "cards":
        return lambda files: (["cards", game, *opts, *cards_args(files), *flag], "")
    if command == "score":
        stdin = draw(payloads)
        return lambda files: (["score", game, *opts, *cards_args(files)], stdin)
    bench_game = draw(st.sampled_from(["toy", "chess", "[/red]"]))
    players = draw(st.sampled_from([[], ["--players", "0"], ["--players", "2"]]))
    seconds = draw(st.sampled_from(["0.001", "0", "-1", "1e9", "nan"]))
    return lambda files: (
        ["bench", bench_game, "--seconds", seconds, "--repeats", "1", *players, *opts,
         *cards_args(files), *flag],
        "",
    )  # fmt: skip


def check(args: list[str], stdin: str) -> None:
    res = runner.invoke(COMMAND, args, input=stdin)
    crashed = res.exception is not None and not isinstance(res.exception, SystemExit)
    assert not crashed, f"{args!r} with stdin {stdin[:200]!r} raised {res.exception!r}"
    assert res.exit_code in CLEAN_EXITS, (args, res.exit_code, res.output[-500:])
    assert "Traceback" not in res.output
    if res.stderr.startswith("error:"):
        # A clean error is one line (a hint of the expected shape may follow it).
        assert len(res.stderr.strip().splitlines()) <= 2, res.stderr


def test_no_input_makes_the_cli_print_a_traceback() -> None:
    fuzzed = 0

    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
        database=None,
    )
    @given(invocations())
    def one(build: Builder) -> None:
        nonlocal fuzzed
        with tempfile.TemporaryDirectory() as tmp:
            check(*build(Files(Path(tmp))))
        fuzzed += 1

    one()
    print(f"fuzzed CLI inputs: {fuzzed}")  # the figure quoted in the report (pytest -s)
    assert fuzzed >= EXAMPLES


def test_a_card_file_nested_thousands_deep_is_a_clean_error(tmp_path: Path) -> None:
    """Found by hand next to the fuzz: TOML parsers recurse once per level."""
    deep_toml = tmp_path / "deep.toml"
    deep_toml.write_text("a = " + deep("[", "]", 5000) + "\n")
    res = runner.invoke(COMMAND, ["cards", "meat", "--cards", str(deep_toml)])
    assert res.exception is None or isinstance(res.exception, SystemExit)
    assert res.exit_code == 2 and "nested too deeply" in res.stderr
