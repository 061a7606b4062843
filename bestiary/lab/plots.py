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
    metrics: Sequence[Metric],
    title: str,
    reference: float | None = None,
    short: bool = False,
    xlabel: str = "",
) -> str:
    """Horizontal bars with 95% Wilson intervals; ``reference`` draws the fair share;
    ``short`` labels each bar with its item or category name alone."""
    fig, ax = _figure(max(1.6, 0.32 * len(metrics) + 0.9))
    labels = [(m.name or m.shown) if short else m.shown for m in metrics]
    values = [m.value for m in metrics]
    lows = [max(0.0, m.value - m.interval()[0]) for m in metrics]
    highs = [max(0.0, m.interval()[1] - m.value) for m in metrics]
    ys = range(len(metrics))
    if reference is None:
        ax.barh(list(ys), values, xerr=[lows, highs], color="#4c72b0", capsize=3)
    else:  # the axis is zoomed: a bar from its cut-off start would mislead, a point does not
        ax.errorbar(values, list(ys), xerr=[lows, highs], fmt="o", color="#4c72b0", capsize=3)
        ax.set_ylim(len(metrics) - 0.5, -0.5)
    ax.set_yticks(list(ys), labels)
    if reference is None:
        ax.invert_yaxis()
    if reference is not None:
        fair = _("fair share {share:.0%}").format(share=reference)
        ax.axvline(reference, color="#c44e52", linestyle="--", label=fair)
        # Outside the axes: a legend inside would hide the bars it lies on.
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
        ax.set_xlim(*zoom([m.interval() for m in metrics], reference))
    else:  # shares live in [0, 1]; a plot of small shares zooms in, but never past 1
        ax.set_xlim(0, min(1.0, max([*values, 0.04]) * 1.3))
    ax.set_xlabel(xlabel or _("share"))
    ax.set_title(title)
    return png(fig)


def zoom(intervals: Sequence[tuple[float, float]], reference: float) -> tuple[float, float]:
    """An axis around the fair share that holds every interval: on 0-1 an
    advantage of two points is a hair's breadth, here it is visible."""
    low = min([reference, *(lo for lo, _hi in intervals)])
    high = max([reference, *(hi for _lo, hi in intervals)])
    pad = max(0.02, 0.15 * (high - low))
    return max(0.0, low - pad), min(1.0, high + pad)


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
    xs: Sequence[str],
    series: dict[str, tuple[list[float], list[float], list[float]]],
    title: str,
    *,
    xlabel: str = "",
    ylabel: str = "",
    categorical: bool = False,
) -> str:
    """One line per series (its key is the legend's label) against the swept
    values, with its interval as a band; ``categorical`` (card files, which
    have no order) draws each value as a point with its interval as an error
    bar, no line between them, the series side by side."""
    fig, ax = _figure()
    pos = list(range(len(xs)))
    width = 0.6 / max(1, len(series))
    for i, (label, (mid, low, high)) in enumerate(series.items()):
        if categorical:
            at = [x - 0.3 + width * (i + 0.5) for x in pos]
            below = [max(0.0, m - lo) for m, lo in zip(mid, low, strict=True)]
            above = [max(0.0, hi - m) for m, hi in zip(mid, high, strict=True)]
            ax.errorbar(at, mid, yerr=[below, above], fmt="o", capsize=3, label=label)
        else:
            ax.plot(pos, mid, marker="o", label=label)
            ax.fill_between(pos, low, high, alpha=0.2)
    ax.set_xticks(pos, list(xs), rotation=20 if categorical else 0)
    if categorical:
        ax.set_xlim(-0.6, len(xs) - 0.4)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    if len(series) > 1:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    return png(fig)


def differences(
    labels: Sequence[str],
    diffs: Sequence[tuple[float, float, float]],
    title: str,
    xlabel: str = "",
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
    ax.set_xlabel(xlabel or _("difference B - A"))
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
    ax.set_xlabel(xlabel or _("mean"))
    return png(fig)


def series(metrics: Sequence[Metric], title: str, ylabel: str, xlabel: str = "") -> str:
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
    ax.set_xlabel(xlabel or _("order"))
    ax.grid(axis="y", alpha=0.3)
    return png(fig)


def heatmap(
    rows: Sequence[str],
    cols: Sequence[str],
    shares: Sequence[Sequence[float | None]],
    counts: Sequence[Sequence[int]],
    title: str,
    *,
    xlabel: str,
    ylabel: str,
    least: int,
) -> str:
    """Each cell: the row's win share against the column, written in it; cells
    of fewer than ``least`` games (or none) greyed; a colour bar beside."""
    import numpy as np

    side = max(2.4, 0.45 * max(len(rows), len(cols)) + 1.6)
    fig, ax = plt.subplots(figsize=(side + 1.2, side))
    grid = np.array([[np.nan if x is None else x for x in r] for r in shares], dtype=float)
    few = np.array(counts) < least
    shown = np.ma.masked_where(np.isnan(grid) | few, grid)
    cmap = matplotlib.colormaps["RdBu"].with_extremes(bad="#d9d9d9")
    im = ax.imshow(shown, cmap=cmap, vmin=0.0, vmax=1.0, aspect="auto")
    for i in range(len(rows)):
        for j in range(len(cols)):
            if not np.isnan(grid[i, j]):
                dark = not few[i, j] and abs(grid[i, j] - 0.5) > 0.3
                ax.text(
                    j,
                    i,
                    f"{grid[i, j]:.0%}",
                    ha="center",
                    va="center",
                    fontsize=7,
                    color="white" if dark else ("#777" if few[i, j] else "#222"),
                )
    ax.set_xticks(range(len(cols)), list(cols), rotation=45, ha="right", fontsize=8)
    ax.set_yticks(range(len(rows)), list(rows), fontsize=8)
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    bar = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    bar.set_label(_("win share of the row"))
    return png(fig)
