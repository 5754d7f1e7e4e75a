"""The evening's words: its running score under a game's result, and the message that closes it at its goal."""

from __future__ import annotations

from bot.stats.evening import Evening, Line
from bot.ui.i18n import Translator
from storage.models import Aim


def _scores(evening: Evening, names: dict[int, str], field: str) -> str:
    return " · ".join(f"{names.get(line.user_id, '?')} {getattr(line, field)}" for line in evening.lines)


def _head(tr: Translator, evening: Evening) -> str:
    n, goal = evening.games, evening.goal
    if goal is None:
        return tr.ngettext("🌙 The evening: {n} game", "🌙 The evening: {n} games", n).format(n=n)
    if goal.aim is Aim.GAMES:
        return tr.gettext("🌙 The evening: game {n} of {total}").format(n=n, total=goal.n)
    return tr.ngettext("🌙 The evening until someone is the durak {goal} time: game {n}",
                       "🌙 The evening until someone is the durak {goal} times: game {n}",
                       goal.n).format(goal=goal.n, n=n)


def score_lines(tr: Translator, evening: Evening | None, names: dict[int, str], always: bool = False) -> list[str]:
    """The running score under a result: from an evening's second game on (from its first where it has a goal,
    or ``always``)."""
    if evening is None or (evening.games < 2 and evening.goal is None and not always):
        return []
    head = _head(tr, evening)
    lines = ["", head, tr.gettext("🃏 Durak (times): {scores}").format(scores=_scores(evening, names, "duraks")),
             tr.gettext("🥇 First places: {scores}").format(scores=_scores(evening, names, "firsts"))]
    if evening.points:
        lines.append(tr.gettext("⭐ Points: {scores}").format(scores=_scores(evening, names, "points")))
    return lines


def _names(lines: list[Line], names: dict[int, str]) -> str:
    return ", ".join(names.get(line.user_id, "?") for line in lines)


def _table_line(evening: Evening, names: dict[int, str], place: int, line: Line) -> str:
    parts = [f"🃏 {line.duraks}", f"🥇 {line.firsts}"] + ([f"⭐ {line.points}"] if evening.points else [])
    return f"{place}. {names.get(line.user_id, '?')}: {' · '.join(parts)}"


def ended(tr: Translator, evening: Evening, names: dict[int, str]) -> str:
    """The message that closes an evening at its goal: its durak, its best, and the table."""
    lines = [tr.ngettext("🏆 The evening is over: {n} game", "🏆 The evening is over: {n} games",
                         evening.games).format(n=evening.games)]
    worst, best = evening.duraks(), evening.best()
    if evening.even():
        lines.append(tr.gettext("🤝 The evening ends in a draw."))
    else:
        if worst:
            lines.append(tr.ngettext("🃏 The durak of the evening: {name} ({n} time)",
                                     "🃏 The durak of the evening: {name} ({n} times)",
                                     worst[0].duraks).format(name=_names(worst, names), n=worst[0].duraks))
        if best:
            name = _names(best, names)
            lines.append(tr.ngettext("🥇 The best: {name} ({n} point)", "🥇 The best: {name} ({n} points)",
                                     best[0].points).format(name=name, n=best[0].points) if evening.points else
                         tr.ngettext("🥇 The best: {name} ({n} first place)", "🥇 The best: {name} ({n} first places)",
                                     best[0].firsts).format(name=name, n=best[0].firsts))
    lines.append("")
    lines += [_table_line(evening, names, place, line) for place, line in enumerate(evening.ordered(), 1)]
    lines += ["", tr.gettext("The next game starts a new evening.")]
    return "\n".join(lines)
