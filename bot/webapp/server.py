"""The Mini App's web server, in the bot's process: the page's files under ``/app/`` and its socket, ``/app/ws``.

A page says hello with Telegram's signed ``initData`` (or the session token an earlier hello got) and
the game token of its link (``bot.webapp.auth``); it then gets the frame of its seat
(``bot.webapp.view``) at once and after every change of the game, and sends presses: the callback
data of a button its frame offered, decided by ``GameService.press`` exactly as a chat button's
(the same lock, legality check, write and outbox), answered with the same toast. The database stays
the one source of truth: a page never sends state, and a reconnecting page is sent the game anew.

Refusals: a hello that proves nothing closes with 4401, a game the page may not open with 4403, bad
JSON or an unknown frame with 4400, a frame over ``max_frame`` bytes with 1009 (aiohttp's own), a
flood of frames with 4429; the rest of the bot goes on.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import hashlib
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl

import orjson
from aiohttp import WSMsgType, web
from telegram import (
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InlineQueryResult,
    InlineQueryResultArticle,
    InlineQueryResultPhoto,
    InputTextMessageContent,
)
from telegram.error import TelegramError

from bot.game.directory import Lru
from bot.game.service import GAME_VERBS, GameService
from bot.game.slots import seat_names
from bot.game.store import GameUI
from bot.stats import render as render_stats
from bot.stats.evening_text import score_lines
from bot.stats.service import StatsService
from bot.ui import render
from bot.ui.callbacks import Verb, decode
from bot.ui.i18n import LANGUAGES, N_, RUSSIAN_READERS, pick_language, translator
from bot.ui.labels import lettered_all
from bot.webapp import review_view
from bot.webapp import view as webapp_view
from bot.webapp.auth import PageUser, Refused, check_init_data, check_session, game_of, game_token, session_token
from storage.models import Game, Status, User

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
TYPES = {"index.html": "text/html", "app.js": "text/javascript", "app.css": "text/css"}
HELLO_SECONDS = 10.0
PHOTOS = 10_000     # players whose photo address a process keeps (a few dozen bytes each)
# what a page may press: its hand's buttons, Play again, and the lobby's buttons
PAGE_VERBS = GAME_VERBS | {Verb.LEAVE, Verb.REPLAY, Verb.JOIN, Verb.SETTINGS, Verb.OPTION, Verb.BACK, Verb.START,
                           Verb.CANCEL, Verb.COMPUTER, Verb.KICK, Verb.VARIANTS, Verb.VARIANT}


@dataclass(eq=False)
class Page:
    """One open socket: whose it is, which game, which seat (None: not seated), its flood allowance, and
    whether it is live: it acknowledges the frames it is sent (a page in the background does not)."""

    ws: web.WebSocketResponse
    user: PageUser
    game_id: int
    seat: int | None
    token: str
    allowance: float
    checked: float = field(default_factory=time.monotonic)
    sent: int = 0                       # state frames sent
    acked: int = 0                      # the last one it acknowledged
    live: bool = False
    quiet_check: asyncio.TimerHandle | None = None
    record: tuple[int, str] | None = None  # (game, his record in its chat): shown under that game's result
    evening: tuple[int, list[str]] | None = None  # (game, the score of the evening it counts in), as in the group
    review: bool = False                # the page shows the game's review, not the live game
    puzzle: int | None = None           # in the review, the puzzle at this move first (/puzzle's "solve it in the app")
    shown: tuple[int, int] = (0, -1)    # the game and its version in the last state frame sent
    sending: asyncio.Lock = field(default_factory=asyncio.Lock)


class Close(Exception):
    """Close the socket: ``reason`` for tools and the log (the contract's English), and the page shows the
    player the words of its code, in ``language`` when the page said which."""

    def __init__(self, code: int, reason: str, text: str | None = None) -> None:
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.text = text  # the player's words (N_), when the code's own are not what happened
        self.language: str | None = None


# what the player reads when the page closes for good, by close code
HELD_HELLO = 5.0   # seconds a page waits for its game's process to be known (a start, a hand-over)
HELLO_POLL = 0.2   # how often it looks meanwhile
CLOSED_TEXT = {4401: N_("This table link is no longer valid: open the table again from the chat."),
               4403: N_("This game cannot be opened here.")}
CLOSED_OTHER = N_("The table lost its connection: open it again from the chat.")


class WebApp:
    def __init__(self, service: GameService, bot_token: str, *, max_age: float, max_frame: int = 4096,
                 frames_per_second: float = 5.0, burst: int = 20, ack_seconds: float = 3.0,
                 stats: StatsService | None = None) -> None:
        """``ack_seconds``: a page that has not acknowledged a frame this long after it was sent is away (in
        the background, or its network gone): its seat's hand message is brought up to date."""
        self.service = service
        self.bot_token = bot_token
        self.max_age = max_age
        self.max_frame = max_frame
        self.rate = frames_per_second
        self.burst = burst
        self.ack_seconds = ack_seconds
        self.stats = stats
        self.pages: dict[int, set[Page]] = {}
        self.photos: Lru[int, str] = Lru(PHOTOS)  # players' photo addresses from their signed initData
        self._due: dict[int, Game] = {}      # games changed since their pages were last sent a frame
        self._pushing: set[asyncio.Task[None]] = set()
        self._runner: web.AppRunner | None = None
        self.assets = {name: Asset.of(name, _page_file(name)) for name in TYPES}
        # several processes sharing the games (bot.game.shares): where a chat's pages are served, None for here
        self.page_route: Callable[[int], Awaitable[str | None]] | None = None
        service.on_change = self.changed
        service.on_moved = self.moved

    def token(self, game_id: int) -> str:
        return game_token(game_id, self.bot_token)

    # ------------------------------------------------------------ the server

    def application(self) -> web.Application:
        app = web.Application(client_max_size=self.max_frame)
        app.router.add_get("/app/ws", self._socket)
        app.router.add_get("/app/ws/{route}", self._socket)  # this process alone, behind a proxy (WEBAPP_ROUTE)
        app.router.add_get("/app/card/{token}", self._card)  # a finished game's result card, for a shared message
        app.router.add_get("/app/", self._file)
        app.router.add_get("/app/{name}", self._file)
        return app

    async def start(self, host: str, port: int) -> None:
        self._runner = web.AppRunner(self.application(), access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, host, port).start()
        log.info("Mini App served on http://%s:%s/app/", host, port)

    async def moved(self, game_ids: list[int]) -> None:
        """These games are led by another process now: their pages here are closed as at a restart, and
        reconnect by themselves (at most 2 s for their closes)."""
        closing = [page.ws.close(code=1012, message=b"the game moved to another process")
                   for game_id in game_ids for page in self.pages.get(game_id, ())]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*closing, return_exceptions=True), 2)

    async def stop(self) -> None:
        """Tell every page the bot restarts (they reconnect by themselves), all at once and for at most 2 s: a
        page that does not answer the close must not hold up the stop."""
        closing = [page.ws.close(code=1012, message=b"the bot restarts")
                   for pages in self.pages.values() for page in pages]
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*closing, return_exceptions=True), 2)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def _file(self, request: web.Request) -> web.StreamResponse:
        asset = self.assets.get(request.match_info.get("name") or "index.html")
        if asset is None:
            raise web.HTTPNotFound()
        return asset.response(request)

    async def _card(self, request: web.Request) -> web.StreamResponse:
        """A finished game's result card (PNG), by its signed token: Telegram fetches it for a shared result."""
        game_id = game_of(request.match_info["token"].removesuffix(".png"), self.bot_token)
        game = None if game_id is None else await self.service.repo.game(game_id)
        image = None if game is None else await self.service.picture(game.chat_id, f"result:{game.id}")
        if image is None:
            raise web.HTTPNotFound()
        return web.Response(body=image, content_type="image/png", headers={"Cache-Control": "public, max-age=86400"})

    # ------------------------------------------------------------ one socket

    async def _socket(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=self.max_frame, heartbeat=30)
        await ws.prepare(request)
        page: Page | None = None
        try:
            page = await self._hello(ws)
            if page.review:
                await self._serve_review(page)
                return ws
            self.pages.setdefault(page.game_id, set()).add(page)
            await self._send_state(page)
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    raise Close(4400, "text frames only")
                await self._on_frame(page, message.data)
        except Close as refused:
            language = refused.language or (page.user.language if page else None)
            text = self.service.directory.user_tr(None, language).gettext(
                refused.text or CLOSED_TEXT.get(refused.code, CLOSED_OTHER))
            with contextlib.suppress(Exception):
                await ws.send_str(orjson.dumps({"type": "error", "reason": refused.reason, "text": text}).decode())
                await ws.close(code=refused.code, message=refused.reason.encode()[:120])
            log.info("a Mini App socket was closed: %s (%s)", refused.reason, refused.code)
        except ConnectionError:
            pass
        except Exception:  # a bug of ours: this page goes (it reconnects), the bot and the game stay
            log.exception("a Mini App socket of game %s failed", page.game_id if page else "?")
            with contextlib.suppress(Exception):
                await ws.close(code=1011, message=b"server error")
        finally:
            if page is not None:
                if page.quiet_check is not None:
                    page.quiet_check.cancel()
                self._forget(page)
                try:  # his hand catches up; if the bot is stopping, its restart writes every message anew
                    await self._live(page, False)
                except Exception:
                    log.warning("the hand of a closed page of game %s waits for the next write", page.game_id,
                                exc_info=True)
        return ws

    def _forget(self, page: Page) -> None:
        self.pages.get(page.game_id, set()).discard(page)
        if not self.pages.get(page.game_id):
            self.pages.pop(page.game_id, None)

    async def _hello(self, ws: web.WebSocketResponse) -> Page:
        try:
            message = await ws.receive(timeout=HELLO_SECONDS)
        except TimeoutError:
            raise Close(4401, "no hello") from None
        if message.type is not WSMsgType.TEXT:
            raise Close(4400, "the first frame must be a hello")
        hello = _json(message.data)
        if hello.get("type") != "hello":
            raise Close(4400, "the first frame must be a hello")
        try:
            return await self._check_hello(ws, hello)
        except Close as refused:
            refused.language = _language_hint(hello)
            raise

    async def _check_hello(self, ws: web.WebSocketResponse, hello: dict[str, Any]) -> Page:
        now = time.time()
        try:
            if isinstance(hello.get("session"), str):
                user, game_id = check_session(hello["session"], self.bot_token, now)
            else:
                user = check_init_data(str(hello.get("init_data") or ""), self.bot_token, self.max_age, now)
                if user.photo is not None:  # shown on his seat to everyone at his tables (the page has it)
                    self.photos.put(user.id, user.photo)
                asked = hello.get("game")
                if user.start_param and isinstance(asked, str) and asked and asked != user.start_param:
                    raise Close(4403, "this link was signed for another game")
                named = game_of(str(user.start_param or asked or ""), self.bot_token)
                if named is None and (user.start_param or asked):
                    raise Close(4403, "no such game")
                game_id = named if named is not None else await self._home(user)
        except Refused as why:
            raise Close(4401, str(why)) from None
        game = await self._game(game_id)
        if game is None or (game.state is None and game.status is not Status.LOBBY):
            raise Close(4403, "no such game")
        if hello.get("review") is not True:
            await self._here(game.chat_id)
        asked_puzzle = hello.get("puzzle")
        return Page(ws, user, game_id, game.seat_of(user.id), self.token(game_id), float(self.burst),
                    review=hello.get("review") is True,
                    puzzle=asked_puzzle if isinstance(asked_puzzle, int) and not isinstance(asked_puzzle, bool)
                    else None)

    async def _home(self, user: PageUser) -> int:
        """Where the private chat's menu button opens, which names no game: the player's current game (one he
        plays, else a lobby he sits in), else a table of his own against computers, opened in his private chat
        as /newgame there opens it, so that the chat shows it too."""
        mine = [g for g in self.service.store.games.values()
                if g.seat_of(user.id) is not None and g.status in (Status.PLAYING, Status.LOBBY)]
        if mine:
            return max(mine, key=lambda g: (g.status is Status.PLAYING, g.id)).id
        if self.page_route is not None:  # his game, or his own table, may be another process's
            await self._here(await self.service.repo.seated_chat(user.id) or user.id)
        solo = self.service.store.open_in(user.id, 0)
        if solo is None:
            creator = await self.service.directory.user(user.id) or await self.service.directory.see(
                User(user.id, user.name, telegram_language=user.language))
            solo = (await self.service.lobbies.open_lobby(user.id, 0, creator, None)
                    or self.service.store.open_in(user.id, 0))
        if solo is None:
            raise Close(4403, "no table could be opened")
        return solo.id

    async def _here(self, chat_id: int) -> None:
        """Go on only if this process decides the chat's games; else the page is sent where they are decided
        (4307, the route: it connects there at once). While no process is known to lead them (one is loading
        them: a start, a hand-over) the page waits up to ``HELD_HELLO`` seconds, then is asked to come back
        (1013)."""
        if self.page_route is None:
            return
        waited = 0.0
        while (route := await self.page_route(chat_id)) == "" and waited < HELD_HELLO:
            await asyncio.sleep(HELLO_POLL)
            waited += HELLO_POLL
        if route:
            raise Close(4307, route)
        if route is not None:
            raise Close(1013, "the game's process is starting")

    def _invitable(self, game: Game) -> str | None:
        """The group's link to a lobby, which an invitation carries (none for a table in a private chat)."""
        if game.status is not Status.LOBBY or game.chat_id > 0 or self.service.links is None:
            return None
        return self.service.links.table(game.id, self.service.bot_username)

    async def _invite(self, page: Page) -> dict[str, str | None]:
        """A message inviting to the page's lobby, prepared for its player to send to a chat he picks (Bot API
        8's savePreparedInlineMessage; the page hands its id to Telegram.WebApp.shareMessage)."""
        user = await self.service.directory.user(page.user.id)
        tr = self.service.directory.user_tr(user, page.user.language)
        game = await self._game(page.game_id)
        link = None if game is None or page.seat is None else self._invitable(game)
        if game is None or link is None:
            return {"id": None, "text": tr.gettext("This table takes no invitations now.")}
        invitation = InlineQueryResultArticle(
            f"invite-{game.id}", tr.gettext("Invite to the game"),
            InputTextMessageContent(tr.gettext("🃏 {name} invites you to a game of Durak: {rules}.").format(
                name=page.user.name, rules=render.rules_line(tr, game.rules, game.max_players))),
            reply_markup=InlineKeyboardMarkup([[InlineKeyboardButton(tr.gettext("🃏 Open the table"), url=link)]]))
        return await self._prepared(page, invitation, tr.gettext("The invitation could not be made: try again."))

    async def _share(self, page: Page) -> dict[str, str | None]:
        """The finished game's result card, prepared as a message its player sends to a chat he picks (the photo
        is fetched by Telegram from this server, ``_card``)."""
        user = await self.service.directory.user(page.user.id)
        tr = self.service.directory.user_tr(user, page.user.language)
        game = await self._game(page.game_id)
        links = self.service.links
        if game is None or game.status is not Status.FINISHED or page.seat is None or links is None:
            return {"id": None, "text": tr.gettext("There is no result to share.")}
        url = links.card(game.id)
        card = InlineQueryResultPhoto(f"card-{game.id}", url, url, caption=tr.gettext("🃏 Durak with friends."))
        return await self._prepared(page, card, tr.gettext("The result could not be prepared: try again."))

    async def _prepared(self, page: Page, result: InlineQueryResult, failed: str) -> dict[str, str | None]:
        """``result`` saved as a message its player sends to a chat he picks (Bot API 8's
        savePreparedInlineMessage; the page hands its id to Telegram.WebApp.shareMessage); ``failed`` if not."""
        try:
            prepared = await self.service.directory.bot.save_prepared_inline_message(
                page.user.id, result, allow_user_chats=True, allow_group_chats=True)
        except TelegramError as e:
            log.warning("%s for user %s could not be prepared: %s", result.id, page.user.id, e)
            return {"id": None, "text": failed}
        return {"id": prepared.id, "text": None}

    def _spend(self, page: Page) -> None:
        """A token bucket per socket: ``burst`` frames at once, ``rate`` a second after that."""
        now = time.monotonic()
        page.allowance = min(self.burst, page.allowance + (now - page.checked) * self.rate)
        page.checked = now
        if page.allowance < 1:
            raise Close(4429, "too many frames")
        page.allowance -= 1

    async def _on_frame(self, page: Page, data: str) -> None:
        frame = _json(data)
        kind = frame.get("type")
        if kind == "ack":  # not counted as a frame: one per frame it was sent, and no more
            seen = frame.get("n")
            if not isinstance(seen, int) or not page.acked < seen <= page.sent:  # each frame once, in order
                raise Close(4400, "an acknowledgement of a frame never sent")
            page.acked = seen
            await self._live(page, True)  # it reads its frames (one it leaves unacknowledged makes it away)
            return
        self._spend(page)
        if kind == "sync":
            await self._send_state(page)
        elif kind == "invite":
            await page.ws.send_str(orjson.dumps({"type": "invite", **await self._invite(page)}).decode())
        elif kind == "share":
            await page.ws.send_str(orjson.dumps({"type": "share", **await self._share(page)}).decode())
        elif kind == "press":
            toast, refused, url = await self._press(page, frame.get("data"))
            answer = {"type": "answer", "id": frame.get("id"), "text": toast, "refused": refused}
            await page.ws.send_str(orjson.dumps({**answer, "url": url} if url else answer).decode())
        else:
            raise Close(4400, "unknown frame")

    async def _press(self, page: Page, data: object) -> tuple[str | None, bool, str | None]:
        """The press's toast, whether it was refused (it changed nothing: the page buzzes), and a link the page
        opens (Join by someone the bot cannot write to yet: the private chat, whose /start seats him)."""
        user = await self.service.directory.user(page.user.id) or User(page.user.id, page.user.name)
        tr = self.service.directory.user_tr(user, page.user.language)
        press = decode(data) if isinstance(data, str) else None
        if press is None or press.game != page.game_id or press.verb not in PAGE_VERBS:
            return tr.gettext("Unknown button."), True, None
        game = await self._game(page.game_id)
        where = None if game is None else (game.chat_id, game.thread_id)
        opened = where is not None and self.service.store.open_in(*where) is not None
        decision = await self.service.press(press, user, None, page.user.language, page=True)
        lobby = None if where is None else self.service.store.open_in(*where)
        acted = decision.intent is not None or (not opened and lobby is not None)  # a move … or Play again's lobby
        if press.verb is Verb.REPLAY and lobby is not None and page.seat is not None:  # a player's page goes on to
            # the new lobby, his own or the one another player opened first
            await self._move(page, lobby.id)
            return None, False, None
        return decision.toast, decision.toast is not None and not acted, decision.url

    async def _move(self, page: Page, game_id: int) -> None:
        """The page shows another game of its chat from now on (a new session token comes with its first frame)."""
        await self._live(page, False)
        self._forget(page)
        page.game_id, page.token = game_id, self.token(game_id)
        self.pages.setdefault(game_id, set()).add(page)
        await self._send_state(page)

    # ------------------------------------------------------------ the review

    async def _serve_review(self, page: Page) -> None:
        """A review page: its one frame, sent again when it asks (a review still being made, a page back from the
        background). Nothing changes a finished game's review: no live frames, no presses; only a puzzle's answer,
        kept as the chat's is (the first counts)."""
        await self._send_review(page)
        async for message in page.ws:
            if message.type is not WSMsgType.TEXT:
                raise Close(4400, "text frames only")
            self._spend(page)
            asked = _json(message.data)
            if asked.get("type") == "solve" and page.puzzle is not None:
                await self._solve(page, asked.get("choice"))
                continue
            if asked.get("type") != "sync":
                raise Close(4400, "a review page only asks for its review again, or answers its puzzle")
            if asked.get("review") is True:  # from the puzzle on to the game's whole review
                page.puzzle = None
            await self._send_review(page)

    async def _solve(self, page: Page, choice: object) -> None:
        """His answer to the page's puzzle: its verdict (the chat's words), or a toast why not."""
        user = await self.service.directory.user(page.user.id)
        tr = translator(self.service.directory.user_language(user, page.user.language), bool(user and user.letters))
        assert page.puzzle is not None
        arg = str(choice) if isinstance(choice, int) and not isinstance(choice, bool) else ""
        _, verdict, toast = await self.service.puzzles.judge(tr, page.user.id, page.game_id, page.puzzle, arg)
        answer: dict[str, Any] = {"type": "solved", "toast": toast}
        if verdict is not None:
            answer |= {"lines": verdict.lines, "best": verdict.best}
        await page.ws.send_str(orjson.dumps(lettered_all(answer, tr)).decode())

    async def _send_review(self, page: Page) -> None:
        game = await self._game(page.game_id)
        seat = None if game is None else game.seat_of(page.user.id)
        if game is None or seat is None:  # each player's review is his alone
            raise Close(4403, "this review is another player's", N_("This review is another player's: each player "
                                                                    "opens only his own, from his chat with the bot."))
        if game.status is not Status.FINISHED:
            raise Close(4403, "only a finished game has a review", N_("This game has no review: it did not finish."))
        user = await self.service.directory.user(page.user.id)
        language = self.service.directory.user_language(user, page.user.language)
        tr = translator(language, bool(user and user.letters))
        kept = None if game.deal is None else await self.service.repo.review(game.id)
        puzzle = None if page.puzzle is None else await self.service.puzzles.page(tr, page.user.id, game.id,
                                                                                  page.puzzle)
        if kept is not None:
            picture = review_view.review_frame(tr, game, orjson.loads(kept), seat, page.token)
            if puzzle is not None:  # the puzzle's position alone: the review's marks would give its answer away
                picture = review_view.puzzle_frame(picture, puzzle)
        else:
            picture = {"type": "review", "pending": game.deal is not None, "text": tr.gettext(
                "The review is being made: it comes to your chat with the bot in a moment.") if game.deal is not None
                else tr.gettext("This game was played before the bot kept its moves: it has no review.")}
        picture["session"] = session_token(page.user, page.game_id, self.bot_token, time.time())
        picture["texts"] = webapp_view.page_texts(tr)
        picture["language"] = language
        await page.ws.send_str(orjson.dumps(lettered_all(picture, tr)).decode())

    # ------------------------------------------------------------ frames

    async def _game(self, game_id: int) -> Game | None:
        return self.service.store.games.get(game_id) or await self.service.repo.game(game_id)

    async def _send_state(self, page: Page, game: Game | None = None) -> None:
        """Send the page a picture of its game (``game`` if it is that game; else as stored). One frame at a time
        and never an older version than the last: a frame built from a game read before a move, whose awaits
        outlast the move's own frame, would show the page the move undone. The first frame of a game carries the
        page's texts and session."""
        async with page.sending:
            if game is None or game.id != page.game_id:  # a frame due to a game the page has left meanwhile
                game = await self._game(page.game_id)
            shown_game, shown_version = page.shown
            if game is not None and (game.id != shown_game or game.version >= shown_version):
                await self._send_picture(page, game, first=game.id != shown_game)

    async def _send_picture(self, page: Page, game: Game, first: bool) -> None:
        user = await self.service.directory.user(page.user.id)
        language = self.service.directory.user_language(user, page.user.language)
        tr = translator(language, bool(user and user.letters))
        ui = self.service.store.ui.get(game.id) or GameUI()
        seat = game.seat_of(page.user.id)
        if seat != page.seat:  # seated since (joined in the lobby): live again from its next acknowledgement
            await self._live(page, False)
            page.seat = seat
        picture = webapp_view.frame(tr, game, ui, page.seat, self.service.clock.now(), page.token)
        for shown, seated in zip(picture["seats"], game.seats, strict=False):  # photos of those who opened a page
            photo = self.photos.get(seated.user.id)
            if photo is not None:
                shown["photo"] = photo
        if picture["status"] == "lobby":
            picture["invite"] = page.seat is not None and self._invitable(game) is not None
        if picture["status"] == "over" and page.seat is not None and game.chat_id < 0 and self.stats is not None:
            if page.record is None or page.record[0] != game.id:  # once a page: the game's results are written
                stats = await self.stats.player(game.chat_id, user or User(page.user.id, page.user.name))
                page.record = (game.id, render_stats.line(tr, stats))
            picture["result"] = [*picture["result"], page.record[1]]
        if picture["status"] == "over" and self.stats is not None and game.status is Status.FINISHED:
            if page.evening is None or page.evening[0] != game.id:
                evening = await self.stats.evening(game)
                page.evening = (game.id, score_lines(tr, evening, seat_names(game))[1:])
            picture["result"] = [*picture["result"], *page.evening[1]]
        if first:
            picture["session"] = session_token(page.user, page.game_id, self.bot_token, time.time())
            picture["texts"] = webapp_view.page_texts(tr)
            picture["language"] = language
        page.sent += 1
        page.shown = (game.id, game.version)
        picture["n"] = page.sent  # what the page acknowledges
        await page.ws.send_str(orjson.dumps(lettered_all(picture, tr)).decode())
        if page.quiet_check is None:
            page.quiet_check = asyncio.get_running_loop().call_later(self.ack_seconds, self._quiet, page, page.sent)

    def _quiet(self, page: Page, frame: int) -> None:
        page.quiet_check = None
        if page.acked < frame and page.live:  # that frame went unacknowledged: the page is away
            task = asyncio.get_running_loop().create_task(self._live(page, False))
            self._pushing.add(task)
            task.add_done_callback(self._pushing.discard)
        elif page.acked < page.sent:  # a later one may be: look again when it is due
            page.quiet_check = asyncio.get_running_loop().call_later(self.ack_seconds, self._quiet, page, page.sent)

    async def _live(self, page: Page, live: bool) -> None:
        """Note a page live or away; its seat's hand waits while any page of that seat is live."""
        if page.live == live:
            return
        page.live = live
        seat = page.seat
        if seat is None:
            return
        others = any(p.live for p in self.pages.get(page.game_id, ()) if p is not page and p.seat == seat)
        if not others:
            await self.service.watch(page.game_id, seat, live)

    def changed(self, game: Game) -> None:
        """The service's hook after every write or refresh of a game: its open pages get a frame soon (one
        per run of changes made in one turn of the event loop)."""
        if game.id not in self.pages:
            return
        first = game.id not in self._due
        self._due[game.id] = game
        if first:
            task = asyncio.get_running_loop().create_task(self._push(game.id))
            self._pushing.add(task)
            task.add_done_callback(self._pushing.discard)

    async def _push(self, game_id: int) -> None:
        game = self._due.pop(game_id, None)
        if game is None:
            return
        for page in list(self.pages.get(game_id, ())):
            try:
                await self._send_state(page, game)
            except Exception:  # a socket that went away mid-send: its handler cleans up
                log.debug("a frame for game %s could not be sent", game_id, exc_info=True)


@dataclass(frozen=True, slots=True)
class Asset:
    """One of the page's files, held in memory as it is and gzipped (a phone on a slow network loads the page
    from the bot itself when no proxy compresses it), revalidated by its ETag."""

    body: bytes
    gzipped: bytes
    content_type: str
    etag: str

    @classmethod
    def of(cls, name: str, body: bytes) -> Asset:
        return cls(body, gzip.compress(body, 9, mtime=0), TYPES[name],
                   '"' + hashlib.sha256(body).hexdigest()[:20] + '"')

    def response(self, request: web.Request) -> web.Response:
        zipped = "gzip" in request.headers.get("Accept-Encoding", "")
        etag = self.etag[:-1] + '-gz"' if zipped else self.etag  # each encoding its own tag
        headers = {"Cache-Control": "no-cache", "ETag": etag, "Vary": "Accept-Encoding"}
        if request.headers.get("If-None-Match") == etag:
            return web.Response(status=304, headers=headers)
        if zipped:
            headers["Content-Encoding"] = "gzip"
        return web.Response(body=self.gzipped if zipped else self.body, headers=headers,
                            content_type=self.content_type, charset="utf-8")


def _page_file(name: str) -> bytes:
    """A file of the page; the index with the page's own words in every language, for what it shows before its
    socket says whose page it is (the player's language comes with the first frame)."""
    body = (STATIC / name).read_bytes()
    if name != "index.html":
        return body
    texts = {language: webapp_view.page_texts(translator(language)) for language in LANGUAGES}
    aliases = {code: pick_language(None, code, "en") for code in RUSSIAN_READERS}  # ours are their own
    # "</" written "<\/": no text can end the script block early
    embedded = orjson.dumps({"texts": texts, "aliases": aliases}).decode().replace("</", "<\\/")
    return body.replace(b"{{TEXTS}}", embedded.encode())


def _language_hint(hello: dict[str, Any]) -> str | None:
    """The language an unproven hello's initData names: only to word its refusal, never to trust it. Read with
    orjson, which refuses JSON nested deeper than 1,024 (the standard parser overflowed Python's stack on it)."""
    try:
        user = orjson.loads(dict(parse_qsl(str(hello.get("init_data") or ""))).get("user", "{}"))
        code = user.get("language_code") if isinstance(user, dict) else None
    except ValueError:  # orjson.JSONDecodeError is one
        return None
    return code if isinstance(code, str) else None


def _json(data: str) -> dict[str, Any]:
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError:
        raise Close(4400, "bad JSON") from None
    if not isinstance(value, dict):
        raise Close(4400, "a frame is a JSON object")
    return value
