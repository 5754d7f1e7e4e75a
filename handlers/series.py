"""/series: the evening's score at this table, or a game that opens an evening played to a goal."""

from __future__ import annotations

from telegram import Update
from telegram.constants import ChatType

from bot.game import lobby
from handlers.common import Context, anonymous_admin, as_user, in_group, service_of, thread_of
from handlers.stats import stats_of


async def series(update: Update, context: Context) -> None:
    games = service_of(context)
    message, tg_user, chat = update.effective_message, update.effective_user, update.effective_chat
    if message is None or tg_user is None or chat is None:
        return
    solo = chat.type == ChatType.PRIVATE
    if not in_group(update) and not solo:
        return
    tr = await games.directory.chat_tr(chat.id)
    args = list(context.args or [])
    if not args:
        await message.reply_text(await stats_of(context).evening_now(tr, chat.id, thread_of(update), games.clock.now()))
        return
    goal = lobby.parse_goal(args)
    if goal is None:
        await message.reply_text(tr.gettext("Send /series 5 for an evening until someone is the durak 5 times, or "
                                            "/series 5 games for an evening of 5 games (from 1 to 50)."))
        return
    if anonymous_admin(update) or tg_user.is_bot:
        await message.reply_text(tr.gettext("Anonymous admins can't play: send /newgame as yourself."))
        return
    user = await games.directory.see(as_user(tg_user), private_chat=True if solo else None)
    answer = await games.lobbies.play_to(tr, chat.id, thread_of(update), user, goal, "" if solo else chat.title or "")
    if answer:
        await message.reply_text(answer)
