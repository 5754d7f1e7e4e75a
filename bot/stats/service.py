"""/stats, /top, /history, /privacy, /scoring and /series: read-only views of finished games."""

from __future__ import annotations

from collections import defaultdict
from typing import Protocol

from telegram import InlineKeyboardMarkup

from bot.stats import badge_text, ratings, season_text, seasons
from bot.stats import render as render_stats
from bot.stats.chart import rating_chart
from bot.stats.evening import GAP, Evening, evening
from bot.stats.evening_text import ended, score_lines
from bot.stats.seasons import Length, Period, Standing
from bot.stats.standings import PlayerStats, player_stats, standings
from bot.ui.i18n import Translator
from bot.ui.render import name_of
from bot.ui.variants import variant_name
from durak.scoring import Scoring
from storage.models import Game, Goal, PlayedGame, User
from storage.repo import Repo

CHART_GAMES = 30
PANEL = "top"  # the leaderboard's messages, whose page buttons count (storage: panels)


class People(Protocol):
    """Who is who (bot.game.directory.Directory): the users as known now."""

    async def user(self, user_id: int) -> User | None: ...

    async def refresh_user(self, user_id: int) -> None: ...


class StatsService:
    def __init__(self, repo: Repo, people: People) -> None:
        self.repo = repo
        self.people = people

    async def named(self, username: str) -> User | None:
        """The user the bot knows by this @username, if any."""
        return await self.repo.user_by_username(username)

    async def keep_leaderboard(self, chat_id: int, message_id: int) -> None:
        """This message is a leaderboard: its page buttons count on it."""
        await self.repo.add_panel(chat_id, message_id, PANEL)

    async def is_leaderboard(self, chat_id: int, message_id: int) -> bool:
        return await self.repo.is_panel(chat_id, message_id, PANEL)

    async def evening(self, game: Game) -> Evening | None:
        """The evening a finished game counts in, as its results were written (None: a game before evenings)."""
        if game.series is None:
            return None
        scoring = Scoring((await self.repo.chat(game.chat_id)).scoring)
        return evening(game.series, [s.user.id for s in game.seats], await self.repo.played(series=game.series),
                       Goal.parse(game.goal), scoring)

    async def evening_now(self, tr: Translator, chat_id: int, thread_id: int, now: float) -> str:
        """/series alone: the score of the evening at this table, if one is on (or just met its goal)."""
        last = await self.repo.last_game(chat_id, thread_id)
        game = None if last is None or now - last.finished_at > GAP else await self.repo.game(last.game_id)
        now_on = None if game is None else await self.evening(game)
        if game is None or now_on is None:
            return tr.gettext("No evening is on at this table. /series 5 opens a game for an evening until someone is "
                              "the durak 5 times; /series 5 games, for an evening of 5 games.")
        names = {s.user.id: name_of(game, s.seat) for s in game.seats}
        if now_on.over:
            return ended(tr, now_on, names)
        return "\n".join(score_lines(tr, now_on, names, always=True)[1:])

    async def set_pictures(self, tr: Translator, chat_id: int, choice: str) -> str:
        """/picture on|off: a result card under each result here, or none; alone, which it is."""
        if choice in ("on", "off"):
            await self.repo.set_chat_pictures(chat_id, choice == "on")
        on = (await self.repo.chat(chat_id)).pictures
        return (tr.gettext("A picture of the result is posted under each result here. /picture off stops it.") if on
                else tr.gettext("No picture under the results here. An admin turns it on with /picture on."))

    async def badges(self, tr: Translator, user: User) -> str:
        return badge_text.every(tr, await self.repo.badges(user.id))

    # ------------------------------------------------------------ seasons

    async def season_length(self, chat_id: int) -> Length:
        stored = (await self.repo.chat(chat_id)).season
        return Length(stored) if stored in Length.__members__.values() else seasons.DEFAULT

    async def season_table(self, chat_id: int, period: Period) -> tuple[list[Standing], dict[int, str]]:
        """A season's table (players hidden from leaderboards left out) and its players' names."""
        system = Scoring((await self.repo.chat(chat_id)).scoring)
        played = await self.repo.played(chat_id=chat_id, between=(period.start, period.end))
        users = await self.repo.users_by_ids(sorted({u for u, _ in played})) if played else {}
        shown = [(u, g) for u, g in played if u in users and not users[u].hidden]
        return seasons.table(system, shown), {u: users[u].name for u in users}

    async def season(self, tr: Translator, chat_id: int, now: float) -> str:
        """/season: the current season's table and the days left."""
        period = seasons.period(await self.season_length(chat_id), now)
        rows, names = await self.season_table(chat_id, period)
        return season_text.standings(tr, period, rows, names, now)

    async def set_season_length(self, tr: Translator, chat_id: int, choice: str, now: float) -> str:
        try:
            length = Length(choice)
        except ValueError:
            current = await self.season_length(chat_id)
            options = "\n".join(f"/season {x.value} — {season_text.length_name(tr, x)}" for x in Length)
            return tr.gettext("Seasons here last {length}. Admins choose one of:\n{options}").format(
                length=season_text.length_name(tr, current), options=options)
        await self.repo.set_chat_season(chat_id, length.value)
        return tr.gettext("Seasons here now last {length}; this one is «{season}».").format(
            length=season_text.length_name(tr, length), season=season_text.season_name(tr, seasons.period(
                length, now).key))

    async def seasons_closed(self, tr: Translator, chat_id: int) -> str:
        """/seasons: the closed seasons' podiums."""
        places = await self.repo.season_places(chat_id=chat_id)
        users = await self.repo.users_by_ids(sorted({p.user_id for p in places})) if places else {}
        return season_text.closed(tr, places, {u: user.name for u, user in users.items()})

    async def player(self, chat_id: int | None, user: User, preset: str | None = None) -> PlayerStats:
        """A player's stats in a chat, or everywhere (``chat_id`` None), in one game (``preset``) or all."""
        scope = ratings.GLOBAL if chat_id is None else chat_id
        played = [g for _, g in await self.repo.played(chat_id=chat_id, user_id=user.id, preset=preset)]
        table = await self.repo.all_ratings(scope)
        mine = table.get(user.id)
        rating = None if mine is None else ratings.points(*mine)
        rank = None
        if rating is not None:
            better_ids = [u for u, r in table.items() if ratings.points(*r) > rating]
            known = await self.repo.users_by_ids(better_ids) if better_ids else {}
            better = [u for u in better_ids if u in known and not known[u].hidden]
            rank = len(better) + 1
        return player_stats(played, rating, rank)

    async def stats(self, tr: Translator, chat_id: int | None, user: User, preset: str | None = None
                    ) -> tuple[str, bytes | None]:
        """The text of /stats (of one game, ``preset``, or all), and a chart of the rating over the last games
        when there are two or more."""
        where = tr.gettext("in this chat") if chat_id is not None else tr.gettext("overall")
        if preset is not None:
            where = f"{where} · {variant_name(tr, preset)}"
        text = render_stats.stats(tr, user.name, await self.player(chat_id, user, preset), where)
        if preset is None:
            extra = [season_text.medals(tr, await self.repo.season_places(chat_id=chat_id, user_id=user.id)),
                     badge_text.listed(tr, await self.repo.badges(user.id))]
            text = "\n".join([text, *(line for line in extra if line)])
        scope = ratings.GLOBAL if chat_id is None else chat_id
        history = [ratings.shown(o) for o in await self.repo.rating_history(scope, user.id, CHART_GAMES)]
        chart = rating_chart(history, tr.gettext("Rating over the last games")) if len(history) >= 2 else None
        return text, chart

    async def top(self, tr: Translator, chat_id: int, chat_wide: bool, page: int
                  ) -> tuple[str, InlineKeyboardMarkup | None]:
        system = Scoring((await self.repo.chat(chat_id)).scoring)
        scope_chat = chat_id if chat_wide else None
        played: dict[int, list[PlayedGame]] = defaultdict(list)
        for user_id, game in await self.repo.played(chat_id=scope_chat):
            played[user_id].append(game)
        users = await self.repo.users_by_ids(list(played)) if played else {}
        hidden = {u for u in played if u in users and users[u].hidden}
        for user_id in hidden:
            del played[user_id]
        table = await self.repo.all_ratings(chat_id if chat_wide else ratings.GLOBAL)
        ranked, newcomers = standings(system, played, table)
        names = {u: users[u].name for u in played if u in users}
        scope = tr.gettext("of this chat") if chat_wide else tr.gettext("everywhere")
        return render_stats.top(tr, names, ranked, newcomers, page, system, scope, chat_wide)

    async def history(self, tr: Translator, chat_id: int) -> str:
        games = await self.repo.recent_games(chat_id, 10)
        return render_stats.history(tr, [(g, [dict(r) for r in rows]) for g, rows in games])

    async def toggle_privacy(self, tr: Translator, user: User) -> str:
        hidden = not (await self.people.user(user.id) or user).hidden
        await self.repo.set_hidden(user.id, hidden)
        await self.people.refresh_user(user.id)
        return (tr.gettext("You are hidden from leaderboards now; your games still count for the others.")
                if hidden else tr.gettext("You are shown on leaderboards again."))

    async def set_scoring(self, tr: Translator, chat_id: int, choice: str) -> str:
        try:
            system = Scoring(choice)
        except ValueError:
            current = Scoring((await self.repo.chat(chat_id)).scoring)
            options = "\n".join(f"/scoring {s.value} — {render_stats.scoring_name(tr, s)}" for s in Scoring)
            return tr.gettext("This chat ranks by {system}. Admins choose one of:\n{options}").format(
                system=render_stats.scoring_name(tr, current), options=options)
        await self.repo.set_chat_scoring(chat_id, system.value)
        return tr.gettext("This chat's leaderboard now ranks by {system}.").format(
            system=render_stats.scoring_name(tr, system))
