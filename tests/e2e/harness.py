"""Runs the real Application against the fake Bot API server, and plays as scripted users."""

from __future__ import annotations

import asyncio
import contextlib
import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

from telegram.ext import Application

from bot.app import allowed_updates, build_application
from bot.game.clock import Clock
from bot.game.service import GameService
from bot.settings import load_settings
from bot.ui.i18n import translator
from storage.partitions import PARTITIONS
from tests.fake_telegram import BOT_USERNAME, TOKEN, FakeTelegram, Message
from tests.places import Place, place_of


class BotProcess:
    """The bot's Application, started and stopped the way ``run_polling`` does it."""

    running: ClassVar[set[BotProcess]] = set()  # started and not stopped: a failed test's bot is stopped for it

    def __init__(self, fake: FakeTelegram, database: Path, clock: Clock | None = None, **settings: Any) -> None:
        """``database``: a SQLite file, or with TEST_ENGINE=postgresql the schema that stands for it
        (``tests.places.place_of``)."""
        self.fake = fake
        self.clock = clock
        self.place = place_of(database) if "database_url" not in settings else Place("postgresql",
                                                                                   settings["database_url"])
        options: dict[str, Any] = {"default_language": "en", "poll_timeout": 1, "group_edits_per_minute": 6000,
                                   "sends_per_second": 1000, "private_sends_per_second": 1000,
                                   "database_path": database, **self.place.settings, **settings}
        self.settings = load_settings(bot_token=TOKEN, telegram_api_url=fake.url, **options)
        self.app: Application | None = None  # type: ignore[type-arg]

    @property
    def service(self) -> GameService:
        assert self.app is not None
        service = self.app.bot_data.service
        assert service is not None
        return service

    async def idle(self) -> None:
        """Wait until the bot has nothing left to do: every update Telegram holds fetched, each of them handled
        (PTB marks an update done in its queue once its handler returns), every owed message sent. A test that
        shows something did *not* happen waits for this, never for a stretch of time."""
        assert self.app is not None
        await self.fake.wait_for(lambda: not self.fake.holds_updates(), 10)
        await self.app.update_queue.join()
        await self.service.outbox.drain()

    async def start(self) -> None:
        app = build_application(self.settings, self.clock)
        await app.initialize()
        assert app.post_init is not None
        await app.post_init(app)
        assert app.updater is not None
        await app.updater.start_polling(poll_interval=0, timeout=1, allowed_updates=allowed_updates())
        await app.start()
        self.app = app
        BotProcess.running.add(self)
        shares = app.bot_data.shares
        if shares is not None:  # on PostgreSQL: once it leads every game (alone, it takes every partition)
            await self.fake.wait_for(lambda: len(shares.leading()) == PARTITIONS, 20)

    async def stop(self) -> None:
        app, self.app = self.app, None
        BotProcess.running.discard(self)
        if app is None:
            return
        assert app.updater is not None
        await app.updater.stop()
        await app.stop()
        if app.post_stop is not None:
            await app.post_stop(app)
        if app.post_shutdown is not None:
            await app.post_shutdown(app)
        await app.shutdown()


class Table:
    """A group and its members, who play by pressing the buttons they see."""

    def __init__(self, fake: FakeTelegram, group_id: int, players: list[int], seed: int = 0,
                 language: str = "en", patience: float = 10.0) -> None:
        """``language``: what the players read; they find their buttons by the bot's own translations.
        ``patience``: seconds they wait for the lobby to show a step (a new lobby, a join, the start)."""
        self.tr = translator(language)
        self.patience = patience
        self.fake = fake
        self.group = group_id
        self.players = players
        self.rng = random.Random(seed)
        self.since = max((m.message_id for m in fake.chat_messages(group_id)), default=0)  # this table's messages
        self.presses = 0
        self.refused = 0
        self.accepted = 0

    # --- reading
    def group_messages(self) -> list[Message]:
        return [m for m in self.fake.chat_messages(self.group) if m.message_id > self.since]

    def lobby(self) -> Message:
        return next(m for m in reversed(self.group_messages()) if any(
            b.get("callback_data", "").startswith(("v1:j:", "v1:g:", "v1:o:", "v1:V:")) for b in m.buttons()))

    def result(self) -> Message | None:
        return next((m for m in self.group_messages() if m.text.startswith("🏁")), None)

    def hand_message(self, user: int) -> Message | None:
        mark = self.tr.gettext("🃏 Durak · you are {name}").split("{")[0]  # a private game message's first line
        found = [m for m in self.fake.chat_messages(user) if m.text.startswith(mark)]
        return found[-1] if found else None

    @staticmethod
    def button(message: Message, label: str) -> str:
        for b in message.buttons():
            if b["text"] == label or b["text"].startswith(label):
                return str(b["callback_data"])
        raise AssertionError(f"no button {label!r} in {[b['text'] for b in message.buttons()]}")

    # --- acting
    async def one_card_lead(self, user: int, hand: Message) -> str:
        """The button that leads one card: one press on a card leads it."""
        return str(next(b for b in hand.buttons() if b["callback_data"].startswith("v1:c:") and b["text"][0] != "✖")
                   ["callback_data"])

    async def press(self, user: int, message: Message, label_or_data: str) -> dict[str, Any]:
        data = (label_or_data if label_or_data.startswith("v1:")
                else self.button(message, self.tr.gettext(label_or_data)))
        query = await self.fake.press(user, message.chat_id, message.message_id, data)
        self.presses += 1
        return await self.fake.answer(query)

    async def newgame(self, creator: int, preset: str = "") -> Message:
        before = len(self.group_messages())
        await self.fake.send_text(creator, self.group, f"/newgame {preset}".strip())
        await self.fake.wait_for(lambda: len(self.group_messages()) > before, self.patience)
        return self.group_messages()[-1]

    async def join(self, user: int) -> None:
        """Press Join; a user the bot cannot write to yet follows the deep link into the private chat."""
        lobby = self.lobby()
        answer = await self.press(user, lobby, "Join")
        url = answer.get("url")
        if url:
            match = re.fullmatch(rf"https://t\.me/{BOT_USERNAME}\?start=(join_\d+)", url)
            assert match, url
            await self.fake.send_text(user, user, f"/start {match.group(1)}")
        await self.fake.wait_for(lambda: self.fake.users[user].first_name in self.lobby().text, self.patience)

    async def configure(self, creator: int, **wanted: str) -> None:
        """Open Settings and press each option until its button shows the wanted value, then go back."""
        english = {"preset": "Game", "deck": "Deck", "players": "Players", "throw_in": "Throw-in",
                   "transfer": "Transfer", "draw": "Draw", "cheating": "Cheating", "teams": "Teams",
                   "timer": "Turn timer", "redeal": "Redeal", "pogony": "Pogony"}
        labels = {option: self.tr.gettext(label) for option, label in english.items()}
        back = self.tr.gettext("« Back")
        await self.press(creator, self.lobby(), "Settings")
        await self.fake.wait_for(lambda: back in [b["text"] for b in self.lobby().buttons()])
        for option, value in wanted.items():
            for _ in range(8):
                message = self.lobby()
                label = next(b["text"] for b in message.buttons() if b["text"].startswith(labels[option] + ":"))
                if label == f"{labels[option]}: {self.tr.gettext(value)}":
                    break
                seen = len(message.history)
                answer = await self.press(creator, message, self.button(message, labels[option] + ":"))
                assert not answer.get("text"), answer
                await self.fake.wait_for(lambda m=message, n=seen: len(m.history) > n)
            else:
                raise AssertionError(f"{option} never became {value}")
        await self.press(creator, self.lobby(), "« Back")
        join = self.tr.gettext("Join")
        await self.fake.wait_for(lambda: join in [b["text"] for b in self.lobby().buttons()])

    async def seat_everyone(self, preset: str = "", **options: str) -> None:
        """The first player opens a lobby (with options), everyone joins."""
        await self.newgame(self.players[0], preset)
        if options:
            await self.configure(self.players[0], **options)
        for user in self.players:
            await self.join(user)

    async def start(self, creator: int) -> None:
        lobby = self.lobby()
        answer = await self.press(creator, lobby, "Start")
        assert not answer.get("text"), answer
        await self.fake.wait_for(lambda: all(self.hand_message(p) is not None for p in self.players),
                                 max(15.0, self.patience))

    def over(self) -> bool:
        return self.result() is not None

    async def play_to_the_end(self, timeout: float = 120, choose: Callable[..., Any] | None = None) -> Message:
        """Everyone plays at once, pressing buttons they see, until the result is posted."""
        await self.play(lambda: False, timeout, choose)
        result = self.result()
        assert result is not None
        return result

    def waits(self) -> tuple[str, ...]:
        """:data:`WAITS` in the table's language."""
        t = self.tr.gettext
        return (t("Wait for the others.").split()[0],
                t("You take the cards; the others may throw in more.").split(";")[0])

    async def play(self, until: Callable[[], bool], timeout: float = 120,
                   choose: Callable[..., Any] | None = None, players: list[int] | None = None,
                   think: float = 0.0) -> None:
        """Everyone (or ``players``) plays at once until ``until()`` holds or the game is over; each looks at
        his hand for ``think`` seconds before a move (a benchmark's pace; tests play at once)."""
        async def player(user: int) -> None:
            while not self.over() and not until():
                message = self.hand_message(user)
                if message is None:  # his hand is not posted yet
                    await self.fake.wait_for(lambda: self.hand_message(user) is not None or self.over() or until(),
                                             timeout)
                    continue
                seen = len(message.history)
                options = playable(message, self.waits())
                if not options:
                    await self._wait_change(message, seen)
                    continue
                data = (choose or self.choose)(options)
                if think:
                    await asyncio.sleep(think)
                answer = await self.press(user, message, data)
                if refused(answer):  # a stale button, a wrong card: look again once it changed (at once if it has)
                    self.refused += 1
                    await self._wait_change(message, seen)
                    continue
                self.accepted += 1
                await self._wait_change(message, seen)

        await asyncio.wait_for(asyncio.gather(*(player(p) for p in players or self.players)), timeout)

    def choose(self, options: list[dict[str, Any]]) -> str:
        """Like a quick, casual player: mostly cover or finish the bout, now and then something else; a cover card
        waiting for its target gets one."""
        def starting(*prefixes: str) -> list[dict[str, Any]]:
            return [b for b in options if b["text"].startswith(prefixes)]

        t = self.tr.gettext
        targets = starting(t("on {card}").split("{")[0])
        if targets:  # a card that covers several open cards is picked: he says which, as a person finishes it
            return str(self.rng.choice(targets)["callback_data"])
        rare = starting("🎭", t("Accuse {name}").split("{")[0])
        done = starting(t("Done"), t("Pass"))
        take = starting(t("Take"))
        several = starting("▶")
        cards = [b for b in options if b not in rare + done + take + several]
        roll = self.rng.random()
        if rare and roll < 0.05:
            pick = rare
        elif several and roll < 0.6:
            pick = several
        elif done and (roll < 0.7 or not cards):
            pick = done
        elif cards and (roll < 0.9 or not take):
            pick = cards
        else:
            pick = take or done or cards or rare
        return str(self.rng.choice(pick)["callback_data"])

    def stored(self, database: Path) -> dict[str, Any]:
        """The newest game row of this group, as stored."""
        rows = place_of(database).dicts("SELECT * FROM games WHERE chat_id = ? ORDER BY id DESC LIMIT 1", (self.group,))
        return rows[0] if rows else {}

    async def _wait_change(self, message: Message, seen: int) -> None:
        with contextlib.suppress(TimeoutError):
            await self.fake.wait_for(lambda: len(message.history) > seen or self.over(), 1.0,
                                     on=(message.chat_id, self.group))


def refused(answer: dict[str, Any]) -> bool:
    """The bot answered a press with a reason it was not played: any toast but the one that confirms a move
    whose hand waits for Telegram's budget (it begins with ✔)."""
    return bool(answer.get("text")) and not str(answer["text"]).startswith("✔")


WAITS = ("Wait", "You take the cards")  # how the English hand's prompt line begins when its player waits


def playable(message: Message, waits: tuple[str, ...] = WAITS) -> list[dict[str, Any]]:
    """Buttons a person playing on would consider: hand cards not marked unplayable (✖), and the moves;
    no card while the message says he waits (a line beginning with one of ``waits``: told to wait, or taking
    while the others may throw in)."""
    waiting = any("\n" + wait in message.text for wait in waits)
    return [b for b in message.buttons() if "callback_data" in b and not b["text"].startswith(("✖", "🚪", "🙋"))
            and not (waiting and b.get("callback_data", "").startswith(("v1:c:", "v1:f:", "v1:d:")))]
