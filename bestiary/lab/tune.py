"""``bestiary tune``: find the value of one integer field of one card at which a
metric reaches a target, by bisection.

**Assumed**: the metric is monotone in the field (more attack, more wins);
the direction is read from the range's two ends. If the target is not
between the ends' measured values, the tuner says so and stops.

**Each step plays a fixed number of games** (``games_per_step``), all values
on the same seeds: common random numbers, so the difference between two
values comes from the rule and not from the deal, and the curve is far
smoother than its intervals suggest. (A sequential test per step would
answer "is it above or below the target?" with a stated error, but near the
target it needs unboundedly many games; a fixed size keeps the cost known.)
A step compares the metric's estimate with the target and keeps the half
that holds the crossing; after ``ceil(log2(B - A)) + 2`` runs the two
neighbouring values around the crossing are known, and the one whose
estimate is nearer the target is the answer.

**The value's interval**: the values not ruled out, i.e. above every tested
value whose 95% interval lies wholly on the low side of the target and below
every tested value wholly on the high side.

Every step is an ordinary run file (``DIR/FIELD=VALUE.parquet``, with its
card file ``DIR/FIELD=VALUE.toml`` beside it), so a step already played is
read back instead of played again, and any two can be compared.

Card files are TOML here (M.E.A.T.'s cards, Taxonomy's scoring): the field is
edited in the text of the card's table, so comments and layout stay.
"""

from __future__ import annotations

import math
import re
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.errors import BadInput
from .metrics import Metric, all_metrics
from .runs import RunConfig, read_run, run_to_parquet

Measure = Callable[[int], tuple[float, float, float]]  # value -> (estimate, low, high)


# --------------------------------------------------------------------------- the card file
def parse_range(text: str) -> tuple[int, int]:
    m = re.fullmatch(r"\s*(-?\d+)\s*\.\.\s*(-?\d+)\s*", text)
    if not m or int(m.group(1)) >= int(m.group(2)):
        raise BadInput(f"--range {text!r} must be two integers A..B with A < B (e.g. 0..10)")
    return int(m.group(1)), int(m.group(2))


def parse_target(text: str) -> tuple[str, float]:
    """``"item:leader:Kat z Wieży=0.6"`` -> (metric, 0.6); a share may be written 60%."""
    if "=" not in text:
        raise BadInput(f"--target {text!r} must be METRIC=VALUE (e.g. seat0_win=0.5)")
    key, raw = text.rsplit("=", 1)
    raw = raw.strip()
    try:
        value = float(raw[:-1]) / 100 if raw.endswith("%") else float(raw)
    except ValueError:
        raise BadInput(f"--target {text!r}: {raw!r} is not a number (e.g. 0.5 or 50%)") from None
    if not key.strip():
        raise BadInput(f"--target {text!r} names no metric")
    return key.strip(), value


def parse_field(text: str) -> tuple[str, str]:
    """``"Kat z Wieży.passive.amount"`` -> (card, "passive.amount"): the card's
    name may hold spaces and dots; the field is the last one or two parts
    that the card has (tried from the right)."""
    parts = text.split(".")
    if len(parts) < 2 or not all(parts):
        raise BadInput(f"--field {text!r} must be CARD.FIELD (e.g. 'Nekromanta.attack')")
    return ".".join(parts[:-1]), parts[-1]


def _tables(text: str) -> list[tuple[int, int, str]]:
    """(start, end, header) of each table of a TOML text, by line number."""
    lines = text.split("\n")
    heads = [i for i, ln in enumerate(lines) if ln.lstrip().startswith("[")]
    return [
        (s, heads[k + 1] if k + 1 < len(heads) else len(lines), lines[s].strip())
        for k, s in enumerate(heads)
    ]


def _find_card(text: str, card: str) -> tuple[int, int]:
    lines = text.split("\n")
    want = card.casefold()
    names = []
    for start, end, _head in _tables(text):
        for ln in lines[start:end]:
            m = re.match(r'\s*name\s*=\s*"([^"]*)"', ln)
            if m:
                names.append(m.group(1))
                if m.group(1).casefold() == want:
                    return start, end
    shown = ", ".join(names[:12]) + (", ..." if len(names) > 12 else "")
    raise BadInput(f"no card named {card!r} in the file; cards: {shown}")


def _card_value(text: str, card: str, field: str) -> Any:
    data = tomllib.loads(text)
    for tables in data.values():
        if not isinstance(tables, list):
            continue
        for t in tables:
            if isinstance(t, dict) and str(t.get("name", "")).casefold() == card.casefold():
                value: Any = t
                for part in field.split("."):
                    value = value.get(part) if isinstance(value, dict) else None
                return value
    return None


def set_field(text: str, card: str, field: str, value: int) -> str:
    """The TOML text with ``card``'s integer ``field`` (``attack`` or a dotted
    ``passive.amount`` of an inline table) set to ``value``; an error that
    names what is allowed when the card or the field is missing or not an
    integer."""
    start, end = _find_card(text, card)
    old = _card_value(text, card, field)
    if not isinstance(old, int) or isinstance(old, bool):
        raise BadInput(
            f"card {card!r} has no integer field {field!r}"
            + (f" (it is {old!r})" if old is not None else "")
            + "; give a field the card's table sets to a whole number (e.g. attack, "
            "defence, cost, passive.amount)"
        )
    lines = text.split("\n")
    head, _, leaf = field.rpartition(".")
    key = head.split(".")[0] if head else leaf
    pat = re.compile(rf"^(\s*{re.escape(key)}\s*=\s*)(.*)$")
    for i in range(start, end):
        m = pat.match(lines[i])
        if not m:
            continue
        if head:  # an inline table: replace the leaf inside the braces
            inner = re.compile(rf"(\b{re.escape(leaf)}\s*=\s*)-?\d+")
            new, k = inner.subn(lambda g: g.group(1) + str(value), m.group(2), count=1)
            if k != 1:
                break
            lines[i] = m.group(1) + new
        else:
            lines[i] = re.sub(r"^-?\d+", str(value), m.group(2).lstrip(), count=1)
            lines[i] = m.group(1) + lines[i]
        out = "\n".join(lines)
        if _card_value(out, card, field) == value:
            return out
        break
    raise BadInput(f"cannot edit {card}.{field} in the file's text (write it as key = number)")


# --------------------------------------------------------------------------- bisection
@dataclass(frozen=True)
class Point:
    value: int
    estimate: float
    low: float
    high: float
    games: int


@dataclass
class TuneResult:
    field: str
    metric: str
    target: float
    curve: list[Point]  # by value
    found: int | None  # None: the target is not between the ends
    interval: tuple[int, int] | None
    increasing: bool
    note: str

    def to_json(self) -> dict[str, Any]:
        return {
            "field": self.field,
            "metric": self.metric,
            "target": self.target,
            "found": self.found,
            "interval": list(self.interval) if self.interval else None,
            "increasing": self.increasing,
            "note": self.note,
            "curve": [
                {"value": p.value, "metric": p.estimate, "low": p.low, "high": p.high}
                | {"games": p.games}
                for p in self.curve
            ],
        }


def bisect(
    measure: Callable[[int], Point], lo: int, hi: int, target: float, field: str, metric: str
) -> TuneResult:
    """Bisection on integers for a monotone metric (direction from the ends)."""
    seen: dict[int, Point] = {}

    def at(v: int) -> Point:
        if v not in seen:
            seen[v] = measure(v)
        return seen[v]

    a, b = at(lo), at(hi)
    increasing = b.estimate >= a.estimate

    def below(p: Point) -> bool:  # on the low-value side of the crossing
        return p.estimate < target if increasing else p.estimate > target

    def curve() -> list[Point]:
        return [seen[v] for v in sorted(seen)]

    if below(a) == below(b):
        return TuneResult(
            field,
            metric,
            target,
            curve(),
            None,
            None,
            increasing,
            "the target is not between the values at the range's ends",
        )
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if below(at(mid)):
            lo = mid
        else:
            hi = mid
    found = min((lo, hi), key=lambda v: (abs(seen[v].estimate - target), v))

    def low_side(p: Point) -> bool:  # wholly on the low-value side of the target
        return p.high < target if increasing else p.low > target

    def high_side(p: Point) -> bool:
        return p.low > target if increasing else p.high < target

    pts = curve()
    first = max((p.value + 1 for p in pts if low_side(p)), default=pts[0].value)
    last = min((p.value - 1 for p in pts if high_side(p)), default=pts[-1].value)
    interval = (min(first, found), max(last, found))
    return TuneResult(field, metric, target, pts, found, interval, increasing, "")


def metric_point(ms: dict[str, Metric], metric: str, value: int) -> Point:
    if metric not in ms:
        near = sorted(k for k in ms if metric.split(":")[-1].casefold() in k.casefold())[:8]
        hint = f"; similar: {', '.join(near)}" if near else "; see bestiary report RUN --json"
        raise BadInput(f"the runs have no metric {metric!r}{hint}")
    m = ms[metric]
    low, high = m.interval()
    return Point(value, m.value, low, high, int(m.count))


def tune(
    game: str,
    seats: Sequence[str],
    base: Path,
    field_spec: str,
    lo: int,
    hi: int,
    metric: str,
    target: float,
    games_per_step: int,
    out_dir: Path,
    *,
    seed: int = 0,
    variant: str = "",
    options: dict[str, Any] | None = None,
    rotate: bool = False,
    workers: int = 1,
    allow_import: bool = False,
    progress: Callable[[int], None] | None = None,
    stop: Callable[[], bool] | None = None,
) -> TuneResult:
    """Tune ``field_spec`` of ``base`` over ``lo..hi`` (see the module's docstring).

    ``stop`` (for a caller that stops a tuning from outside, e.g. the web
    Lab's process on SIGINT): asked after each step; when it is true, or the
    step was interrupted (Ctrl-C inside its run), the tuning ends with
    KeyboardInterrupt instead of measuring a step cut short; the steps in
    ``out_dir`` are kept, and calling again resumes them. Without it a step
    cut short is measured on the games it has (as before)."""
    if games_per_step < 1:
        raise BadInput("--games-per-step must be at least 1")
    if base.suffix.lower() != ".toml":
        raise BadInput(f"{base}: the tuner edits TOML card files (M.E.A.T., Taxonomy's scoring)")
    text = base.read_text(encoding="utf-8-sig")
    card, field = parse_field(field_spec)
    # "Kat z Wieży.passive.amount": the dot may belong to the field, not the card
    if _card_value(text, card, field) is None and "." in card:
        c2, f2 = card.rsplit(".", 1)
        if _card_value(text, c2, f2 + "." + field) is not None:
            card, field = c2, f2 + "." + field
    set_field(text, card, field, lo)  # a bad card or field fails before any game
    out_dir.mkdir(parents=True, exist_ok=True)
    slug = re.sub(r"[^\w.-]+", "_", f"{card}.{field}")[:60]  # ż stays (\w is Unicode)

    def measure(value: int) -> Point:
        cards = out_dir / f"{slug}={value}.toml"
        cards.write_text(set_field(text, card, field, value), encoding="utf-8")
        opts = dict(options or {}) | {"cards": str(cards)}
        cfg = RunConfig(game, tuple(seats), seed, variant, opts, rotate)
        path = out_dir / f"{slug}={value}.parquet"
        res = run_to_parquet(
            cfg,
            path,
            games_per_step,
            workers=workers,
            progress=progress,
            allow_import=allow_import,
        )
        if stop is not None and (res.interrupted or stop()):
            raise KeyboardInterrupt  # a step cut short is not measured: resumed later
        return metric_point(all_metrics(read_run(path)), metric, value)

    return bisect(measure, lo, hi, target, f"{card}.{field}", metric)


def steps(lo: int, hi: int) -> int:
    """Runs a tuning of the range plays at most: both ends, then the bisection."""
    return 2 + math.ceil(math.log2(hi - lo))
