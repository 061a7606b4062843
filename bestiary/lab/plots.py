"""matplotlib figures as embedded PNG (``data:`` URIs), so a report opens offline.

The Agg backend is chosen before pyplot is imported: reports are made on
servers and in worker processes with no display.
"""

from __future__ import annotations

import base64
import io
from collections.abc import Sequence

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib.figure import Figure

from ..i18n import core
from .metrics import Metric

_ = core.gettext

WIDTH, HEIGHT = 6.4, 3.2


def png(fig: Figure) -> str:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=96, bbox_inches="tight")
    plt.close(fig)
    return "data:image/png;base64," + base64.b64encode(buf.getvalue()).decode("ascii")


def _figure(height: float = HEIGHT) -> tuple[Figure, plt.Axes]:
    fig, ax = plt.subplots(figsize=(WIDTH, height))
    ax.grid(axis="x", alpha=0.3)
    return fig, ax


def proportions(
    metrics: Sequence[Metric], title: str, reference: float | None = None, short: bool = False
) -> str:
    """Horizontal bars with 95% Wilson intervals; ``reference`` draws the fair share;
    ``short`` labels each bar with its item or category name alone."""
    fig, ax = _figure(max(1.6, 0.32 * len(metrics) + 0.9))
    labels = [(m.name or m.shown) if short else m.shown for m in metrics]
    values = [m.value for m in metrics]
    lows = [max(0.0, m.value - m.interval()[0]) for m in metrics]
    highs = [max(0.0, m.interval()[1] - m.value) for m in metrics]
    ys = range(len(metrics))
    ax.barh(list(ys), values, xerr=[lows, highs], color="#4c72b0", capsize=3)
    ax.set_yticks(list(ys), labels)
    ax.invert_yaxis()
    if reference is not None:
        fair = _("fair share {share:.0%}").format(share=reference)
        ax.axvline(reference, color="#c44e52", linestyle="--", label=fair)
        ax.legend(loc="lower right", fontsize=8)
    # Shares live in [0, 1]; a plot of small shares zooms in, but never past 1.
    ax.set_xlim(0, 1.0 if reference else min(1.0, max([*values, 0.04]) * 1.3))
    ax.set_title(title)
    return png(fig)


def histogram(values: Sequence[float], title: str, xlabel: str) -> str:
    fig, ax = _figure()
    distinct = sorted(set(values))
    lo, hi = (distinct[0], distinct[-1]) if distinct else (0, 1)
    if hi - lo <= 40 and all(float(v).is_integer() for v in distinct):
        bins = [x - 0.5 for x in range(int(lo), int(hi) + 2)]
    else:
        bins = 30  # type: ignore[assignment]
    ax.hist(list(values), bins=bins, color="#55a868", edgecolor="white")
    ax.set_title(title)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(_("games"))
    return png(fig)


def lines(
    xs: Sequence[str], series: dict[str, tuple[list[float], list[float], list[float]]], title: str
) -> str:
    """One line per series against the swept values, with its interval as a band."""
    fig, ax = _figure()
    pos = list(range(len(xs)))
    for label, (mid, low, high) in series.items():
        ax.plot(pos, mid, marker="o", label=label)
        ax.fill_between(pos, low, high, alpha=0.2)
    ax.set_xticks(pos, list(xs))
    ax.set_title(title)
    ax.legend(fontsize=8)
    return png(fig)


def differences(
    labels: Sequence[str], diffs: Sequence[tuple[float, float, float]], title: str
) -> str:
    """Each metric's difference B - A with its interval; zero marked."""
    fig, ax = _figure(max(1.6, 0.32 * len(labels) + 0.9))
    ys = list(range(len(labels)))
    mid = [d[0] for d in diffs]
    below = [max(0.0, d[0] - d[1]) for d in diffs]
    above = [max(0.0, d[2] - d[0]) for d in diffs]
    ax.errorbar(mid, ys, xerr=[below, above], fmt="o", color="#4c72b0", capsize=3)
    ax.axvline(0, color="#333", linewidth=0.8)
    ax.set_yticks(ys, list(labels))
    ax.invert_yaxis()
    ax.set_title(title)
    return png(fig)


def means(metrics: Sequence[Metric], title: str, xlabel: str = "") -> str:
    """Horizontal bars of means with their 95% intervals (one bar per name)."""
    fig, ax = _figure(max(1.6, 0.32 * len(metrics) + 0.9))
    ys = list(range(len(metrics)))
    values = [m.value for m in metrics]
    lows = [max(0.0, m.value - m.interval()[0]) for m in metrics]
    highs = [max(0.0, m.interval()[1] - m.value) for m in metrics]
    ax.barh(ys, values, xerr=[lows, highs], color="#8172b2", capsize=3)
    ax.set_yticks(ys, [m.name or m.shown for m in metrics])
    ax.invert_yaxis()
    ax.set_title(title)
    if xlabel:
        ax.set_xlabel(xlabel)
    return png(fig)


def series(metrics: Sequence[Metric], title: str, ylabel: str) -> str:
    """Means in order (e.g. by generation) as a line with their 95% interval as a band."""
    fig, ax = _figure()
    pos = list(range(1, len(metrics) + 1))
    mid = [m.value for m in metrics]
    ax.plot(pos, mid, marker="o", markersize=3, color="#4c72b0")
    ax.fill_between(
        pos, [m.interval()[0] for m in metrics], [m.interval()[1] for m in metrics], alpha=0.2
    )
    ax.set_title(title)
    ax.set_ylabel(ylabel)
    ax.grid(axis="y", alpha=0.3)
    return png(fig)
