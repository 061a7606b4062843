"""``bestiary sweep``: one run per value of an option (or per card file), and a
page that plots each metric against the value.

Every value's run is an ordinary run file (``DIR/<option>=<value>.parquet``),
so any two can be compared, resumed or extended later. All values use the
same seeds: the differences between them come from the rule, not the deal.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa

from ..engine.errors import BadInput
from ..engine.registry import get_game
from ..i18n import core
from . import html as h
from . import plots
from .metrics import Metric, all_metrics
from .runs import RunConfig, read_run, run_to_parquet

# The metrics a sweep plots first (others follow, one plot per game statistic).
HEADLINE = ("seat", "decisive", "drawish", "margin", "length_")

_ = core.gettext


def parse_sweep(spec: str) -> tuple[str, list[str]]:
    """``"rounds=2,3,4"`` -> ``("rounds", ["2", "3", "4"])``."""
    if "=" not in spec:
        raise BadInput(f"sweep {spec!r} must be written name=value1,value2,... (e.g. rounds=2,3,4)")
    name, raw = spec.split("=", 1)
    values = [v.strip() for v in raw.split(",") if v.strip()]
    if not name.strip() or len(values) < 2:
        raise BadInput(f"sweep {spec!r} needs an option name and at least two values")
    return name.strip(), values


def _slug(value: str) -> str:
    return re.sub(r"[^A-Za-z0-9._-]+", "_", Path(value).stem if "/" in value else value)[:60]


def file_names(name: str, values: Sequence[str]) -> list[str]:
    """One run file name per value, all different: ``<option>=<value>.parquet``.

    Two card files of one name in different folders (``a/mine.toml``,
    ``b/mine.toml``) would both be ``cards=mine``; those get their folders in
    the name (``cards=a_mine``), and a short hash of the value if that still
    clashes, so every value keeps a run file of its own."""

    def unique(slugs: list[str], fallback: Callable[[str], str]) -> list[str]:
        clash = {s for s in slugs if slugs.count(s) > 1}
        return [fallback(v) if s in clash else s for s, v in zip(slugs, values, strict=True)]

    slugs = [_slug(v) for v in values]
    slugs = unique(
        slugs, lambda v: re.sub(r"[^A-Za-z0-9._-]+", "_", str(Path(v).with_suffix("")))[-60:]
    )
    slugs = unique(slugs, lambda v: f"{_slug(v)}-{hashlib.sha256(v.encode()).hexdigest()[:8]}")
    return [f"{_slug(name)}={s}.parquet" for s in slugs]


def run_sweep(
    game_id: str,
    seats: Sequence[str],
    name: str,
    values: Sequence[str],
    games: int,
    out_dir: str | Path,
    *,
    seed: int = 0,
    variant: str = "",
    options: dict[str, Any] | None = None,
    rotate: bool = False,
    workers: int = 1,
    backend: str = "local",
    address: str | None = None,
    progress: Callable[[int], None] | None = None,
    allow_import: bool = False,
) -> list[tuple[str, Path]]:
    """Run every value (resuming files already there); returns (value, file) pairs."""
    game = get_game(game_id)
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    configs = []
    for v in values:
        opts = dict(options or {}) | {name: v}
        game.ruleset(variant or None, opts)  # every value checked before any game is played
        configs.append((v, RunConfig(game_id, tuple(seats), seed, variant, opts, rotate)))
    done = []
    for (v, cfg), file in zip(configs, file_names(name, values), strict=True):
        path = out / file
        run_to_parquet(
            cfg,
            path,
            games,
            workers=workers,
            backend=backend,
            address=address,
            progress=progress,
            allow_import=allow_import,
        )
        done.append((v, path))
    return done


def _series(per_value: list[dict[str, Metric]], key: str) -> tuple[list[float], ...]:
    mid, low, high = [], [], []
    for ms in per_value:
        m = ms.get(key)
        lo, hi = m.interval() if m else (float("nan"), float("nan"))
        mid.append(m.value if m else float("nan"))
        low.append(lo)
        high.append(hi)
    return mid, low, high


def _shown(per_value: list[dict[str, Metric]], key: str) -> str:
    """A metric's label in the reader's language, from the first run that has it."""
    return next((ms[key].shown for ms in per_value if key in ms), key)


def _number(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True


def sweep_html(name: str, runs: Sequence[tuple[str, pa.Table]], title: str) -> str:
    values = [v for v, _ in runs]
    per_value = [all_metrics(t) for _, t in runs]
    keys: list[str] = []
    for ms in per_value:
        keys += [k for k in ms if k not in keys]
    parts = []
    seat_keys = [k for k in keys if k.startswith("seat")]
    groups: list[tuple[str, list[str]]] = [
        (_("seat advantage"), seat_keys),
        (_("decisive and drawn games"), [k for k in keys if k in ("decisive", "drawish")]),
    ]
    groups += [
        (per_value[0][k].shown if k in per_value[0] else k, [k])
        for k in keys
        if k == "margin" or k.startswith("length_")
    ]
    groups += [
        (k.removeprefix("stat:"), [k]) for k in keys if k.startswith("stat:") and "=" not in k
    ]
    # Card files have no order: points with error bars, no line between them.
    categorical = name == "cards" or not all(_number(v) for v in values)
    for label, ks in groups:
        if not ks:
            continue
        # The legend shows each metric's label, not its internal key.
        series = {_shown(per_value, k): _series(per_value, k) for k in ks}
        heading = _("{what} against {option}").format(what=label, option=name)
        uri = plots.lines(
            [str(v) for v in values],
            series,  # type: ignore[arg-type]
            heading,
            xlabel=name,
            ylabel=label,
            categorical=categorical,
        )
        parts.append(h.img(uri, label))
    header = [_("metric"), *[f"{name}={v}" for v in values]]
    rows = []
    for k in keys:
        cells = []
        for ms in per_value:
            m = ms.get(k)
            cells.append(f"{m.value:.3g}" if m else "")
        rows.append((_shown(per_value, k), *cells))
    return h.page(
        title,
        [
            h.section("sweep", _("Metrics against {option}").format(option=name), parts),
            h.section("metrics", _("Every metric"), [h.table(header, rows)]),
        ],
    )


def sweep_json(name: str, runs: Sequence[tuple[str, pa.Table]]) -> dict[str, Any]:
    return {
        "option": name,
        "values": {v: {k: m.to_json() for k, m in all_metrics(t).items()} for v, t in runs},
    }


def load_sweep(files: Sequence[tuple[str, Path]]) -> list[tuple[str, pa.Table]]:
    return [(v, read_run(p)) for v, p in files]
