"""The report's charts, drawn with matplotlib's SVG backend into inline SVG (offline, no CDN).

Score distributions of the simulation campaign per policy and per interpretation row, and how often
each interpretation point's alternatives decided something in play."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence

import matplotlib

matplotlib.use("svg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.ticker import FuncFormatter, NullLocator  # noqa: E402

# svg.hashsalt: the ids matplotlib gives clip paths come from this salt and the content, not from
# a random one, so the same data draws the same SVG (report diffs show only real changes)
plt.rcParams.update({"font.family": "DejaVu Sans", "font.size": 9, "svg.fonttype": "none",
                     "axes.spines.top": False, "axes.spines.right": False, "svg.hashsalt": "azul-rules"})


def _svg(fig: plt.Figure) -> str:
    buf = io.StringIO()
    fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})     # no timestamp
    plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg"):]


def score_distributions(groups: Mapping[str, Sequence[int]], title: str) -> str:
    """One horizontal box plot per group of final scores (label: group and game count), as SVG."""
    labels = [k for k, v in groups.items() if v]
    if not labels:
        return "<p class='small'>no finished games to plot</p>"
    height = 0.9 + 0.32 * len(labels)
    fig, ax = plt.subplots(figsize=(9.5, height))
    data = [list(groups[k]) for k in labels]
    ax.boxplot(data, orientation="horizontal", widths=0.6, showmeans=True, patch_artist=True,
               boxprops={"facecolor": "#d4e2fa", "edgecolor": "#2f6fdf"}, medianprops={"color": "#b3261e"},
               meanprops={"marker": "D", "markerfacecolor": "#1d2433", "markersize": 3, "markeredgecolor": "none"},
               flierprops={"markersize": 2, "alpha": 0.4})
    ax.set_yticks(range(1, len(labels) + 1), [f"{k}  (n={len(groups[k])})" for k in labels], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("final score (each player of each finished game; ◆ mean, red line median)")
    ax.set_title(title, loc="left", fontsize=10)
    ax.grid(axis="x", color="#e3e6ec")
    return _svg(fig)


NEVER_DECIDED = "#8a93a3"      # neutral grey: an alternative whose situation never came up


def decided_counts(counts: Mapping[str, int], title: str) -> str:
    """Horizontal bars: how often each (point=alternative) decided something. An alternative that
    never decided anything is no error (its situation did not come up in these games): its bar and
    name are grey, not red."""
    if not counts:
        return "<p class='small'>no interpretation points</p>"
    labels = list(counts)
    fig, ax = plt.subplots(figsize=(9.5, 0.9 + 0.28 * len(labels)))
    values = [counts[k] for k in labels]
    colours = ["#2f6fdf" if v else NEVER_DECIDED for v in values]
    ax.barh(range(len(labels)), [v + 1 for v in values], color=colours)
    ax.set_yticks(range(len(labels)), labels, fontsize=8)
    for tick, v in zip(ax.get_yticklabels(), values, strict=True):
        if not v:
            tick.set_color(NEVER_DECIDED)
    ax.invert_yaxis()
    ax.set_xscale("log")
    ax.set_xlim(0.8, max(values) * 3 + 2)
    ax.xaxis.set_minor_locator(NullLocator())       # minor log ticks cost seconds of text layout
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))   # plain text, no mathtext parsing
    for i, v in enumerate(values):
        ax.text(v + 1, i, f" {v}", va="center", fontsize=7)
    ax.set_xlabel("decisions in play + 1 (log scale; grey: never decided in these games)")
    ax.set_title(title, loc="left", fontsize=10)
    return _svg(fig)
