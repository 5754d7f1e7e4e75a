"""A small PNG chart of a player's rating over his last games.

matplotlib is imported when the first chart is drawn, not with the bot: it is slow to import and large,
and most processes never draw a chart.
"""

from __future__ import annotations

import io


def rating_chart(values: list[int], title: str) -> bytes:
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot
    from matplotlib.ticker import MaxNLocator

    figure, axes = pyplot.subplots(figsize=(4, 2.2), dpi=100)
    try:
        axes.plot(range(1, len(values) + 1), values, marker="o", linewidth=1.5, markersize=3, color="#2a6f97")
        axes.xaxis.set_major_locator(MaxNLocator(integer=True))  # games are whole: no "game 1.5"
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))
        axes.set_title(title, fontsize=9)
        axes.tick_params(labelsize=7)
        axes.grid(alpha=0.3)
        figure.tight_layout()
        out = io.BytesIO()
        figure.savefig(out, format="png")
        return out.getvalue()
    finally:
        pyplot.close(figure)
