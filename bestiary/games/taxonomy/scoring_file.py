"""Loading and validating a scoring table file (``data/scoring.toml``, or a
designer's own with ``-o scoring=FILE``).

Like a card file, a bad table raises :class:`BadCardFile` naming the file;
unlike a card file's first-error stop, every problem of the table is
reported at once (a designer fixes them in one pass). The table is cached
per path and modification time, so a match loads it once.
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from ...engine.errors import BadCardFile
from ...i18n import domain
from .cards import DATA, modified, read_text
from .scoring import Band, ScoringTable

_ = domain("taxonomy", __file__)

DEFAULT_SCORING = DATA / "scoring.toml"

# section -> its keys (every one required)
LAYOUT: dict[str, tuple[str, ...]] = {
    "method": ("four_four", "five_three", "eight"),
    "four": ("sizes", "orphans"),
    "five_three": ("three",),
    "eight": ("sizes", "orphans"),
}
BAND_KEYS = ("up_to", "points")


def load_scoring(path: str = "") -> ScoringTable:
    """The scoring table of a file ("" = the shipped data/scoring.toml); cached."""
    p = path or str(DEFAULT_SCORING)
    return _load(p, modified(p))


@lru_cache(maxsize=8)
def _load(path: str, mtime: float) -> ScoringTable:
    text = read_text(path, _("scoring table"))
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise BadCardFile(path, None, _("not TOML: {error}").format(error=exc)) from None
    return parse_scoring(data, path)


def parse_scoring(data: Mapping[str, Any], path: str) -> ScoringTable:
    """The table of a parsed TOML document; every problem at once in one BadCardFile."""
    problems: list[str] = []
    _check_layout(data, problems)
    sections = {name: data.get(name) for name in LAYOUT}
    method = _as_dict(sections["method"])
    four = _as_dict(sections["four"])
    eight = _as_dict(sections["eight"])
    five_three = _as_dict(sections["five_three"])
    rows = {key: _triple(method.get(key), f"method.{key}", problems) for key in LAYOUT["method"]}
    four_sizes = _bands(four.get("sizes"), "four.sizes", problems)
    eight_sizes = _bands(eight.get("sizes"), "eight.sizes", problems)
    four_orphans = _int(four.get("orphans"), "four.orphans", problems)
    eight_orphans = _int(eight.get("orphans"), "eight.orphans", problems)
    three = _int(five_three.get("three"), "five_three.three", problems)
    if problems:
        raise BadCardFile(path, None, "; ".join(problems))
    return ScoringTable(
        method_four_four=rows["four_four"],
        method_five_three=rows["five_three"],
        method_eight=rows["eight"],
        four_sizes=four_sizes,
        four_orphans=four_orphans,
        three_of_five_three=three,
        eight_sizes=eight_sizes,
        eight_orphans=eight_orphans,
    )


def _as_dict(value: object) -> Mapping[str, Any]:
    return value if isinstance(value, Mapping) else {}


def _check_layout(data: Mapping[str, Any], problems: list[str]) -> None:
    unknown = sorted(set(data) - set(LAYOUT))
    if unknown:
        problems.append(
            _("unknown section(s) {unknown}; sections: {sections}").format(
                unknown=", ".join(unknown), sections=", ".join(LAYOUT)
            )
        )
    for section, keys in LAYOUT.items():
        body = data.get(section)
        if body is None:
            problems.append(
                _("missing section [{section}] (keys: {keys})").format(
                    section=section, keys=", ".join(keys)
                )
            )
            continue
        if not isinstance(body, Mapping):
            problems.append(
                _("{section} must be a section [{section}] with {keys}").format(
                    section=section, keys=", ".join(keys)
                )
            )
            continue
        extra = sorted(set(body) - set(keys))
        if extra:
            problems.append(
                _("[{section}] has unknown key(s) {extra}; keys: {keys}").format(
                    section=section, extra=", ".join(extra), keys=", ".join(keys)
                )
            )
        for key in keys:
            if key not in body:
                problems.append(_("[{section}] lacks {key}").format(section=section, key=key))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(value: object, where: str, problems: list[str]) -> int:
    if value is None:
        return 0  # reported as missing by _check_layout
    if not _is_int(value):
        problems.append(
            _("{where} must be a whole number of points, not {value!r}").format(
                where=where, value=value
            )
        )
        return 0
    assert isinstance(value, int)
    return value


def _triple(value: object, where: str, problems: list[str]) -> tuple[int, int, int]:
    if value is None:
        return (0, 0, 0)
    if not isinstance(value, list) or len(value) != 3 or not all(_is_int(v) for v in value):
        problems.append(
            _(
                "{where} must list the points for 0, 1 and 2 claims (three whole numbers), "
                "not {value!r}"
            ).format(where=where, value=value)
        )
        return (0, 0, 0)
    return (value[0], value[1], value[2])


def _bands(value: object, where: str, problems: list[str]) -> tuple[Band, ...]:
    """Size bands: ``[{up_to = 4, points = 3}, ..., {points = 0}]``, bounds
    increasing, the last one without ``up_to`` (it takes every larger key)."""
    if value is None:
        return ()
    if not isinstance(value, list) or not value:
        problems.append(
            _("{where} must be a list of {{up_to = N, points = P}} bands").format(where=where)
        )
        return ()
    bands: list[Band] = []
    last_bound = 0
    for i, raw in enumerate(value, 1):
        if not isinstance(raw, Mapping):
            problems.append(
                _("{where} band {i} must be {{up_to = N, points = P}}, not {raw!r}").format(
                    where=where, i=i, raw=raw
                )
            )
            continue
        extra = sorted(set(raw) - set(BAND_KEYS))
        if extra:
            problems.append(
                _("{where} band {i} has unknown key(s) {extra}; keys: {keys}").format(
                    where=where, i=i, extra=", ".join(extra), keys=", ".join(BAND_KEYS)
                )
            )
        points = raw.get("points")
        if not _is_int(points):
            problems.append(
                _("{where} band {i} needs points = a whole number").format(where=where, i=i)
            )
            points = 0
        raw_bound = raw.get("up_to")
        up_to = raw_bound if _is_int(raw_bound) else None
        final = i == len(value)
        if final and raw_bound is not None:
            problems.append(
                _("{where}: the last band takes every larger key, so it has no up_to").format(
                    where=where
                )
            )
        elif not final and (up_to is None or up_to <= last_bound):
            problems.append(
                _(
                    "{where} band {i} needs up_to = a whole number above {bound} "
                    "(bands go from small keys to large)"
                ).format(where=where, i=i, bound=last_bound)
            )
        elif up_to is not None:
            last_bound = up_to
        assert isinstance(points, int)
        bands.append(Band(None if final else up_to, points))
    return tuple(bands)
