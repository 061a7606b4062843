"""A designer's card file (`-o cards=FILE`): read with or without a BOM, and
every malformed file gives one clear engine error naming the file — never a
traceback from deep inside the loader."""

from __future__ import annotations

import copy
import json
import re
import tomllib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from bestiary.engine import BadCardFile, BestiaryError, Rng
from bestiary.games.meat import GAME
from bestiary.games.meat.cards import DEFAULT_PATH, CardSet, load_cards

SHIPPED = DEFAULT_PATH.read_text(encoding="utf-8")


def _write(tmp_path: Path, text: str | bytes, name: str = "cards.toml") -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    return str(path)


def _error(path: str) -> str:
    with pytest.raises(BadCardFile) as info:
        load_cards(path)
    msg = str(info.value)
    assert "\n" not in msg and msg.startswith(path), msg
    return msg


def test_a_byte_order_mark_is_read(tmp_path: Path) -> None:
    path = _write(tmp_path, "\ufeff" + SHIPPED)
    cs = load_cards(path)
    assert [d.name for d in cs.defs] == [d.name for d in load_cards().defs]


def test_a_file_that_is_not_utf8_names_the_file_and_the_line(tmp_path: Path) -> None:
    path = _write(tmp_path, SHIPPED.encode("cp1250", errors="replace"))
    msg = _error(path)
    assert "not UTF-8" in msg and re.search(r"line \d+", msg)


@pytest.mark.parametrize(
    ("change", "expect"),
    [
        (lambda t: '[creature]\nname = "Akolita"\n', "[[creature]] tables"),
        (lambda t: "creature = 5\n", "'creature' is an integer"),
        (lambda t: t.replace('name = "Akolita"', 'name = ["Akolita"]'), "'name'"),
        (lambda t: t.replace('en = "Acolyte"\n', ""), "'en'"),
        (lambda t: t.replace("cost = 0", 'cost = "0"', 1), "'cost' must be an integer"),
        (lambda t: t.replace('keywords = ["CHALLENGE"]', "keywords = [[1]]"), "keyword"),
        (lambda t: t.replace('keywords = ["CHALLENGE"]', 'keywords = "CHALLENGE"'), "list"),
        (lambda t: t.replace('faction = "Natura"', "faction = 3", 1), "'faction'"),
        (lambda t: t + "\nleader = [1, 2]\n", "leader"),
        (lambda t: t.replace('rarity = "common"', "rarity = true", 1), "'rarity'"),
        (lambda t: t.replace('name = "Bober"', 'name = "  "'), "blank"),
        (lambda t: t + '\n[[destiny]]\nname = "x"\nen = "x"\nkind = "spell"\n', "rarity"),
    ],
)
def test_a_file_of_the_wrong_shape_gives_a_clear_error(
    tmp_path: Path, change: object, expect: str
) -> None:
    assert callable(change)
    text = change(SHIPPED)
    assert text != SHIPPED
    msg = _error(_write(tmp_path, text))
    assert expect in msg


def test_a_match_with_a_bad_file_fails_before_it_starts(tmp_path: Path) -> None:
    path = _write(tmp_path, b"\xff\xfe garbage")
    with pytest.raises(BadCardFile, match="not UTF-8"):
        GAME.ruleset(None, {"cards": path})  # refused with the options
    with pytest.raises(BadCardFile, match="not UTF-8"):
        GAME.new(2, seed=0, options={"cards": path})


def test_an_edited_file_is_read_again(tmp_path: Path) -> None:
    path = _write(tmp_path, SHIPPED)
    first = load_cards(path)
    assert load_cards(path) is first  # cached while the file is unchanged
    _write(tmp_path, SHIPPED.replace('name = "Bober"', 'name = "Bóbr"'))
    assert "Bóbr" in [d.name for d in load_cards(path).defs]


# -- fuzzing: mutated TOML loads cleanly or fails with an engine error ---------
_VALUES = [
    "5",
    "-3",
    "99",
    "1.5",
    "true",
    '""',
    '"x"',
    '"REFLEX"',
    "[]",
    "[1, 2]",
    '["a"]',
    "[[1]]",
    "{ a = 1 }",
    '{ do = "damage" }',
    '[{ do = "grant", keyword = ["REFLEX"] }]',
    '[{ do = "damage", amount = "2" }]',
    "1979-05-27",
]
_LINES = SHIPPED.splitlines()
_ASSIGN = [i for i, line in enumerate(_LINES) if re.match(r"\s*\w+\s*=", line)]


@hs.composite
def _mutated(draw: hs.DrawFn) -> str:
    lines = list(_LINES)
    for _ in range(draw(hs.integers(1, 4))):
        i = draw(hs.sampled_from(_ASSIGN))
        how = draw(hs.sampled_from(["value", "drop", "header", "dup"]))
        if how == "value":
            key = lines[i].split("=", 1)[0]
            lines[i] = f"{key}= {draw(hs.sampled_from(_VALUES))}"
        elif how == "drop":
            lines[i] = ""
        elif how == "header":
            j = draw(hs.integers(0, len(lines) - 1))
            lines[j] = draw(hs.sampled_from(["[creature]", "[[leader]]", "[destiny]", "[x]"]))
        else:
            lines.insert(i, lines[i])
    text = "\n".join(lines)
    if draw(hs.booleans()):
        text = "\ufeff" + text
    return text


def _toml(value: object) -> str:
    """A TOML inline value (enough for the card file's data)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    assert isinstance(value, dict)
    return "{ " + ", ".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in value.items()) + " }"


_SCALARS = hs.one_of(
    hs.integers(-30, 30), hs.booleans(), hs.sampled_from(["", "x", "REFLEX", "own", "damage"])
)
_KEYS = hs.sampled_from(["do", "to", "amount", "name", "kind", "a"])
_ANY = hs.recursive(
    _SCALARS,
    lambda inner: hs.lists(inner, max_size=3) | hs.dictionaries(_KEYS, inner, max_size=3),
    max_leaves=6,
)
_DATA = tomllib.loads(SHIPPED)


@hs.composite
def _reshaped(draw: hs.DrawFn) -> str:
    """The shipped data with a few values replaced or keys removed, anywhere."""
    data = copy.deepcopy(_DATA)
    for _ in range(draw(hs.integers(1, 3))):
        node: Any = data
        while True:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            if not keys:
                break
            key = draw(hs.sampled_from(keys))
            child = node[key]
            if isinstance(child, dict | list) and child and draw(hs.integers(0, 3)):
                node = child
                continue
            if isinstance(node, dict) and draw(hs.booleans()):
                del node[key]
            else:
                node[key] = draw(_ANY)
            break
    return "\n".join(f"{json.dumps(k)} = {_toml(v)}" for k, v in data.items()) + "\n"


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=_reshaped())
def test_reshaped_card_data_loads_or_fails_cleanly(tmp_path: Path, text: str) -> None:
    _load_or_fail_cleanly(_write(tmp_path, text))


@settings(
    max_examples=120, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(text=_mutated())
def test_fuzzed_card_files_load_or_fail_cleanly(tmp_path: Path, text: str) -> None:
    _load_or_fail_cleanly(_write(tmp_path, text))


def _load_or_fail_cleanly(path: str) -> None:
    try:
        cs = load_cards(path)
    except BestiaryError as exc:
        assert "\n" not in str(exc) and path in str(exc)
        return
    assert isinstance(cs, CardSet)
    # A file that loads must play: a few random moves of a real match.
    st = GAME.new(2, seed=1, options={"cards": path})
    rng = Rng(2)
    for _ in range(60):
        if st.over:
            break
        seat = st.to_act()[0]
        legal = st.legal(seat)
        st.apply(seat, legal[rng.randrange(len(legal))])
