"""A small PNG chart of a player's rating over his last games (matplotlib, no display needed)."""

from __future__ import annotations

import io

import matplotlib

matplotlib.use("Agg")
from matplotlib import pyplot


def rating_chart(values: list[float], title: str) -> bytes:
    figure, axes = pyplot.subplots(figsize=(4, 2.2), dpi=100)
    try:
        axes.plot(range(1, len(values) + 1), values, marker="o", linewidth=1.5, markersize=3, color="#2a6f97")
        axes.set_title(title, fontsize=9)
        axes.tick_params(labelsize=7)
        axes.grid(alpha=0.3)
        figure.tight_layout()
        out = io.BytesIO()
        figure.savefig(out, format="png")
        return out.getvalue()
    finally:
        pyplot.close(figure)
