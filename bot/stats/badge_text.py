"""The badges' words: the line under a game's result that announces them, and a player's list in /stats."""

from __future__ import annotations

from bot.stats.badges import BADGES, BY_KEY, Badge
from bot.ui.i18n import Translator


def _shown(tr: Translator, badge: Badge) -> str:
    return f"{badge.mark} {tr.gettext(badge.name)}"


def announce(tr: Translator, earned: dict[int, list[Badge]], names: dict[int, str]) -> list[str]:
    """One line under the result: who earned which badge with this game."""
    if not earned:
        return []
    parts = [f"{names.get(user, '?')}: {', '.join(_shown(tr, b) for b in found)}" for user, found in earned.items()]
    return ["", tr.gettext("🏅 New badges: {list}").format(list="; ".join(parts))]


def listed(tr: Translator, keys: list[str]) -> str | None:
    """His badges in /stats, in the order he got them."""
    got = [BY_KEY[k] for k in keys if k in BY_KEY]
    if not got:
        return None
    return tr.gettext("🏅 Badges ({n} of {total}): {list}").format(
        n=len(got), total=len(BADGES), list=" · ".join(_shown(tr, b) for b in got))


def every(tr: Translator, keys: list[str]) -> str:
    """/badges: every badge, what earns it, and which he has."""
    got = set(keys)
    lines = [tr.gettext("🏅 Badges: {n} of {total}").format(n=len(got & BY_KEY.keys()), total=len(BADGES)), ""]
    lines += [f"{'✅' if b.key in got else '▫️'} {b.mark} {tr.gettext(b.name)} — {tr.gettext(b.about)}" for b in BADGES]
    return "\n".join(lines)
