"""A fake Telegram Bot API server (aiohttp) that speaks real Bot API HTTP on 127.0.0.1.

The bot under test is python-telegram-bot's real ``Application`` pointed at this server's
root. Scripted users talk to it from the other side: they send commands, read the messages
the bot left in their chats, and press the buttons they see. It answers like Telegram does:
long polling with updates confirmed by the next ``offset`` (and so redelivered to a bot that
crashed before confirming them), "message is not modified", 403 for a private chat the user
never opened, 429 with ``retry_after`` when a group goes over its budget (and, when they are set, a
private chat or the whole bot over its own), a migrated group,
messages users delete, and calls that fail on purpose (``fail``) or stop the bot (``trap``). After
``setWebhook`` it posts each update to the bot instead, again until the bot answers 200.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import re
import time
from collections import Counter, defaultdict, deque
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
from aiohttp import web

TOKEN = "123456789:AAEfakefakefakefakefakefakefakefake12"
BOT_ID = 123456789
BOT_USERNAME = "durak_test_bot"
_JSON_FIELDS = {"reply_markup", "allowed_updates", "commands", "scope", "reply_parameters", "entities",
                "link_preview_options", "chat_id", "message_id", "offset", "limit", "timeout", "user_id",
                "message_thread_id", "cache_time", "show_alert", "disable_notification", "protect_content"}


@dataclass
class Message:
    chat_id: int
    message_id: int
    text: str
    markup: dict[str, Any] | None
    thread_id: int | None = None
    history: list[str] = field(default_factory=list)  # every text it showed, in order
    photo: bytes = b""

    def buttons(self) -> list[dict[str, Any]]:
        if not self.markup:
            return []
        return [b for row in self.markup.get("inline_keyboard", []) for b in row]


@dataclass
class FakeUser:
    id: int
    first_name: str
    language_code: str = "en"
    started: bool = False          # opened the private chat with the bot

    def json(self) -> dict[str, Any]:
        return {"id": self.id, "is_bot": False, "first_name": self.first_name, "language_code": self.language_code}


class ApiError(Exception):
    def __init__(self, code: int, description: str, parameters: dict[str, Any] | None = None) -> None:
        super().__init__(description)
        self.code = code
        self.description = description
        self.parameters = parameters


class FakeTelegram:
    def __init__(self, group_budget: int = 10_000, group_window: float = 60.0) -> None:
        self.users: dict[int, FakeUser] = {}
        self.closing = False
        self.groups: dict[int, dict[str, Any]] = {}
        self.menu_buttons: dict[Any, Any] = {}  # chat (None: every private chat) -> its menu button
        self.prepared: list[dict[str, Any]] = []  # savePreparedInlineMessage: invitations a Mini App shares
        self.topics: dict[int, dict[int, dict[str, Any]]] = {}  # forum -> topic's thread id -> name, closed
        self.messages: dict[tuple[int, int], Message] = {}
        self._in_chat: dict[int, dict[int, Message]] = {}  # chat -> message id -> message: the same messages
        self.updates: list[dict[str, Any]] = []
        self.answers: dict[str, dict[str, Any]] = {}
        self.calls: list[tuple[str, dict[str, Any]]] = []
        self.call_times: list[float] = []                  # when each of ``calls`` came (time.monotonic)
        self.errors: list[tuple[str, int, str]] = []       # method, code, description sent to the bot
        self.rejected: list[dict[str, Any]] = []            # messages refused for breaking Telegram's limits
        self.too_many: Counter[str] = Counter()             # 429s by the budget broken: group, private, overall
        self.commands: dict[str | None, list[dict[str, Any]]] = {}
        self.group_budget = group_budget        # sends and edits a group allows per window
        self.group_window = group_window
        self.group_sends: defaultdict[int, deque[float]] = defaultdict(deque)
        # Telegram's other budgets, as token buckets (None: not enforced): about one message a second in a
        # private chat with short bursts, and about 30 a second over all chats
        self.private_rate: float | None = None
        self.private_burst = 4
        self.overall_rate: float | None = None
        self.overall_burst = 30
        self._buckets: dict[int | None, tuple[float, float]] = {}  # chat (None: overall) -> (calls left, when)
        self._ids = itertools.count(1)
        self._message_ids: defaultdict[int, itertools.count[int]] = defaultdict(lambda: itertools.count(1))
        self._changed = asyncio.Condition()  # getUpdates waits on it
        # wait_for's waiters by what they wait on: a chat's id, a callback query's id, or None for any change
        # (hundreds of players each waking at every call of every chat were the load test's bottleneck)
        self._waiting: dict[int | str | None, set[asyncio.Future[None]]] = {}
        self.failures: dict[str, list[tuple[int, str]]] = defaultdict(list)  # method -> errors to answer, in turn
        self.held: dict[int, asyncio.Event] = {}  # chats whose calls wait (a slow network) until ``release``
        # webhook mode (setWebhook): each update is posted to the bot until it answers 200, as Telegram does
        self.webhook: dict[str, Any] | None = None
        self.deliveries: list[tuple[int, int]] = []  # (update id, the bot's HTTP status, or 0: no answer)
        self.posting: set[int] = set()                 # updates posted to the webhook, their answer not come yet
        self.retry_after = 0.5                          # seconds before an update not answered 200 is posted again
        self._delivering: set[asyncio.Task[None]] = set()
        self._poster: aiohttp.ClientSession | None = None
        self.trap: Any = None     # (method, params) -> bool: when true, ``on_trap`` runs before the call is served
        self.on_trap: Any = None
        self.trap_served = False  # ``on_trap`` runs once the call is served instead: its answer never reaches the bot
        self._runner: web.AppRunner | None = None
        self.url = ""
        self.content_types: Counter[str] = Counter()  # how the requests were encoded

    # ------------------------------------------------------------------ server

    async def start(self) -> str:
        app = web.Application()
        app.router.add_route("*", "/bot{token}/{method}", self._handle)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        self.url = f"http://127.0.0.1:{port}"
        return self.url

    def open_connections(self) -> int:
        """The bot's HTTP connections still open here: once a dead bot's are closed, every call it had sent has been
        served (its answer lost), and nothing more comes from it."""
        assert self._runner is not None and self._runner.server is not None
        return len(self._runner.server.connections)

    def holds_updates(self) -> bool:
        """Whether an update is still on its way to the bot: not confirmed yet by a getUpdates offset, or being
        posted to its webhook until it answers 200."""
        return bool(self.updates or self._delivering)

    async def stop(self) -> None:
        self.webhook = None
        self.closing = True  # a long poll still held (its bot stopped and left it) ends now, not at its timeout
        for task in list(self._delivering):
            task.cancel()
        if self._poster is not None:
            await self._poster.close()
        await self._notify()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _handle(self, request: web.Request) -> web.Response:
        if request.match_info["token"] != TOKEN:
            return web.json_response({"ok": False, "error_code": 401, "description": "Unauthorized"}, status=401)
        method = request.match_info["method"]
        self.content_types[request.content_type] += 1
        params = await self._params(request)
        with contextlib.suppress(KeyError, TypeError, ValueError):
            hold = self.held[int(params["chat_id"])]
            await hold.wait()
        trapped = self.trap is not None and self.trap(method, params)
        if trapped:
            self.trap = None
            if not self.trap_served:
                self.on_trap()  # e.g. kill -9 the bot: Telegram never saw this call
                return web.json_response({"ok": False, "error_code": 500, "description": "Internal Server Error"},
                                         status=500)
        response = await self._serve(method, params)
        if trapped:
            self.on_trap()  # kill -9 the bot as Telegram answers: the call was made, the bot never learns of it
        return response

    async def _serve(self, method: str, params: dict[str, Any]) -> web.Response:
        self.calls.append((method, params))
        self.call_times.append(time.monotonic())
        if self.failures.get(method):
            code, description = self.failures[method].pop(0)
            self.errors.append((method, code, description))
            return web.json_response({"ok": False, "error_code": code, "description": description}, status=code)
        handler = getattr(self, f"api_{method}", None)
        if handler is None:
            return web.json_response({"ok": False, "error_code": 404, "description": "Not Found"}, status=404)
        try:
            result = await handler(params)
        except ApiError as e:
            self.errors.append((method, e.code, e.description))
            body: dict[str, Any] = {"ok": False, "error_code": e.code, "description": e.description}
            if e.parameters:
                body["parameters"] = e.parameters
            return web.json_response(body, status=e.code)
        return web.json_response({"ok": True, "result": result})

    @staticmethod
    async def _params(request: web.Request) -> dict[str, Any]:
        if request.content_type == "application/json":  # Telegram takes an object field as itself or as JSON text
            raw: dict[str, Any] = dict(await request.json())
        else:
            raw = dict(await request.post()) if request.can_read_body else dict(request.query)
        return {k: json.loads(v) if k in _JSON_FIELDS and isinstance(v, str) else v for k, v in raw.items()}

    async def _notify(self, *topics: int | str | None) -> None:
        """Something changed: in these chats or callback queries (None: nothing a chat or query shows), or (none
        given) anywhere. Those waiting on any change are woken each time."""
        for topic in {None, *topics} if topics else list(self._waiting):
            for waiter in self._waiting.pop(topic, ()):
                if not waiter.done():
                    waiter.set_result(None)
        async with self._changed:
            self._changed.notify_all()

    # ------------------------------------------------------------------ the Bot API

    async def api_getMe(self, p: dict[str, Any]) -> dict[str, Any]:
        return {"id": BOT_ID, "is_bot": True, "first_name": "Durak", "username": BOT_USERNAME,
                "can_join_groups": True, "can_read_all_group_messages": False, "supports_inline_queries": False}

    async def api_deleteWebhook(self, p: dict[str, Any]) -> bool:
        self.webhook = None
        return True

    async def api_setWebhook(self, p: dict[str, Any]) -> bool:
        secret = p.get("secret_token")
        if secret is not None and not re.fullmatch(r"[A-Za-z0-9_-]{1,256}", str(secret)):
            raise ApiError(400, "Bad Request: secret token contains unallowed characters")
        self.webhook = {"url": p["url"], "secret": secret}
        for update in self.updates:  # what getUpdates had not confirmed goes by the webhook now
            self._deliver(update)
        self.updates = []
        return True

    async def api_setMyCommands(self, p: dict[str, Any]) -> bool:
        self.commands[p.get("language_code")] = p["commands"]
        return True

    async def api_savePreparedInlineMessage(self, p: dict[str, Any]) -> dict[str, Any]:
        result = p["result"]
        self.prepared.append({**p, "result": json.loads(result) if isinstance(result, str) else result})
        return {"id": f"prepared-{len(self.prepared)}", "expiration_date": int(time.time()) + 3600}

    async def api_createForumTopic(self, p: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(p["chat_id"])
        if not self.groups.get(chat_id, {}).get("forum"):
            raise ApiError(400, "Bad Request: the chat is not a forum")
        topics = self.topics.setdefault(chat_id, {})
        thread = 1000 + len(topics)  # thread ids are message ids in the forum: far from the tests' own topics
        topics[thread] = {"name": str(p["name"]), "closed": False}
        return {"message_thread_id": thread, "name": str(p["name"]), "icon_color": 7322096}

    async def api_closeForumTopic(self, p: dict[str, Any]) -> bool:
        topic = self.topics.get(int(p["chat_id"]), {}).get(int(p["message_thread_id"]))
        if topic is None:
            raise ApiError(400, "Bad Request: TOPIC_ID_INVALID")
        topic["closed"] = True
        return True

    async def api_setChatMenuButton(self, p: dict[str, Any]) -> bool:
        button = p["menu_button"]
        self.menu_buttons[p.get("chat_id")] = json.loads(button) if isinstance(button, str) else button
        return True

    async def api_getUpdates(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        if self.webhook is not None:
            raise ApiError(409, "Conflict: can't use getUpdates method while webhook is active; use deleteWebhook "
                                "to delete the webhook first")
        offset = int(p.get("offset") or 0)
        if offset:  # Telegram forgets the updates a getUpdates offset confirms
            self.updates = [u for u in self.updates if u["update_id"] >= offset]
        deadline = time.monotonic() + float(p.get("timeout") or 0)
        while True:
            ready = [u for u in self.updates if u["update_id"] >= offset]
            if ready or time.monotonic() >= deadline or self.closing:
                return ready[:100]
            async with self._changed:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self._changed.wait(), max(0.01, deadline - time.monotonic()))

    def _check_chat(self, chat_id: int) -> None:
        group = self.groups.get(chat_id)
        if group is not None:
            if group.get("migrated_to"):
                raise ApiError(400, "Bad Request: group chat was upgraded to a supergroup chat",
                               {"migrate_to_chat_id": group["migrated_to"]})
            if group.get("muted"):
                raise ApiError(400, "Bad Request: not enough rights to send text messages to the chat")
            self._check_overall()
            now = time.monotonic()
            sends = self.group_sends[chat_id]
            while sends and sends[0] < now - self.group_window:
                sends.popleft()
            if len(sends) >= self.group_budget:
                wait = max(1, int(sends[0] + self.group_window - now + 0.999))
                self.too_many["group"] += 1
                raise ApiError(429, f"Too Many Requests: retry after {wait}", {"retry_after": wait})
            sends.append(now)
            self._spend(None, self.overall_rate, self.overall_burst)
        elif chat_id > 0:
            user = self.users.get(chat_id)
            if user is None or not user.started:
                raise ApiError(403, "Forbidden: bot can't initiate conversation with a user")
            self._check_overall()
            self._spend(chat_id, self.private_rate, self.private_burst, check=True, budget="private")
            self._spend(None, self.overall_rate, self.overall_burst)
        else:
            raise ApiError(400, "Bad Request: chat not found")

    def _check_overall(self) -> None:
        self._spend(None, self.overall_rate, self.overall_burst, check=True, spend=False, budget="overall")

    def _spend(self, key: int | None, rate: float | None, burst: int, check: bool = False,
               spend: bool = True, budget: str = "") -> None:
        """A token bucket: ``burst`` calls at once, then ``rate`` a second; over it, a 429 and nothing spent."""
        if rate is None:
            return
        now = time.monotonic()
        left, at = self._buckets.get(key, (float(burst), now))
        left = min(float(burst), left + (now - at) * rate)
        if check and left < 1:
            wait = max(1, int((1 - left) / rate + 0.999))
            self.too_many[budget] += 1
            raise ApiError(429, f"Too Many Requests: retry after {wait}", {"retry_after": wait})
        if spend:
            self._buckets[key] = (left - 1, now)

    def _check_content(self, p: dict[str, Any]) -> None:
        """Telegram's limits on one message: 4096 characters, 100 buttons, 8 in a row."""
        rows = (p.get("reply_markup") or {}).get("inline_keyboard", [])
        web_app_in_group = int(p.get("chat_id", 0)) < 0 and any("web_app" in b for r in rows for b in r)
        problem = ("BUTTON_TYPE_INVALID" if web_app_in_group  # Telegram allows web_app buttons in private only
                   else "message is too long" if len(str(p.get("text", ""))) > 4096
                   else "reply markup is too long" if sum(len(r) for r in rows) > 100
                   else "too many buttons in a row" if any(len(r) > 8 for r in rows) else None)
        if problem is not None:
            self.rejected.append(p)
            raise ApiError(400, f"Bad Request: {problem}")

    async def api_sendMessage(self, p: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(p["chat_id"])
        self._check_chat(chat_id)
        self._check_content(p)
        message = Message(chat_id, next(self._message_ids[chat_id]), str(p["text"]), p.get("reply_markup"),
                          p.get("message_thread_id"))
        message.history.append(message.text)
        self._put(message)
        await self._notify(chat_id)
        return self._message_json(message)

    async def api_sendPhoto(self, p: dict[str, Any]) -> dict[str, Any]:
        chat_id = int(p["chat_id"])
        self._check_chat(chat_id)
        photo = p["photo"]
        data = photo.file.read() if hasattr(photo, "file") else b""
        message = Message(chat_id, next(self._message_ids[chat_id]), str(p.get("caption", "")), p.get("reply_markup"),
                          p.get("message_thread_id"), photo=data)
        message.history.append(message.text)
        self._put(message)
        await self._notify(chat_id)
        return {**self._message_json(message), "photo": [{"file_id": "f1", "file_unique_id": "u1", "width": 400,
                                                          "height": 220}]}

    async def api_editMessageText(self, p: dict[str, Any]) -> dict[str, Any]:
        chat_id, message_id = int(p["chat_id"]), int(p["message_id"])
        message = self.messages.get((chat_id, message_id))
        if message is None:
            raise ApiError(400, "Bad Request: message to edit not found")
        markup = p.get("reply_markup")
        self._check_content(p)
        if message.text == p["text"] and message.markup == markup:
            raise ApiError(400, "Bad Request: message is not modified: specified new message content and reply "
                                "markup are exactly the same as a current content and reply markup of the message")
        self._check_chat(chat_id)
        message.text, message.markup = str(p["text"]), markup
        message.history.append(message.text)
        await self._notify(chat_id)
        return self._message_json(message)

    async def api_editMessageReplyMarkup(self, p: dict[str, Any]) -> dict[str, Any]:
        chat_id, message_id = int(p["chat_id"]), int(p["message_id"])
        message = self.messages.get((chat_id, message_id))
        if message is None:
            raise ApiError(400, "Bad Request: message to edit not found")
        self._check_content(p)
        if message.markup == p.get("reply_markup"):
            raise ApiError(400, "Bad Request: message is not modified")
        self._check_chat(chat_id)
        message.markup = p.get("reply_markup")
        await self._notify(chat_id)
        return self._message_json(message)

    async def api_deleteMessage(self, p: dict[str, Any]) -> bool:
        if not self._drop(int(p["chat_id"]), int(p["message_id"])):
            raise ApiError(400, "Bad Request: message to delete not found")
        await self._notify(int(p["chat_id"]))
        return True

    async def api_answerCallbackQuery(self, p: dict[str, Any]) -> bool:
        query_id = str(p["callback_query_id"])
        if query_id in self.answers:
            raise ApiError(400, "Bad Request: query is too old and response timeout expired or query ID is invalid")
        self.answers[query_id] = {**p, "at": time.monotonic()}
        await self._notify(query_id)
        return True

    async def api_getChatAdministrators(self, p: dict[str, Any]) -> list[dict[str, Any]]:
        group = self.groups[int(p["chat_id"])]
        return [{"status": "creator" if i == 0 else "administrator", "user": self.users[uid].json(),
                 **({"is_anonymous": False} if i == 0 else _ADMIN_RIGHTS)} for i, uid in enumerate(group["admins"])]

    async def api_getChatMember(self, p: dict[str, Any]) -> dict[str, Any]:
        group = self.groups[int(p["chat_id"])]
        uid = int(p["user_id"])
        if uid in group["admins"]:
            status = "creator" if group["admins"][0] == uid else "administrator"
            return {"status": status, "user": self.users[uid].json(),
                    **({"is_anonymous": False} if status == "creator" else _ADMIN_RIGHTS)}
        return {"status": "member", "user": self.users[uid].json()}

    def _message_json(self, m: Message) -> dict[str, Any]:
        chat = self._chat_json(m.chat_id)
        data: dict[str, Any] = {"message_id": m.message_id, "date": int(time.time()), "chat": chat, "text": m.text,
                                "from": {"id": BOT_ID, "is_bot": True, "first_name": "Durak",
                                         "username": BOT_USERNAME}}
        if m.markup:
            data["reply_markup"] = m.markup
        if m.thread_id:
            data["message_thread_id"] = m.thread_id
            data["is_topic_message"] = True
        return data

    def _chat_json(self, chat_id: int) -> dict[str, Any]:
        if chat_id in self.groups:
            g = self.groups[chat_id]
            return {"id": chat_id, "type": g["type"], "title": g["title"], "is_forum": g.get("forum", False)}
        return {"id": chat_id, "type": "private", "first_name": self.users[chat_id].first_name}

    # ------------------------------------------------------------------ the people

    def add_user(self, user_id: int, name: str, language_code: str = "en") -> FakeUser:
        self.users[user_id] = FakeUser(user_id, name, language_code)
        return self.users[user_id]

    def add_group(self, chat_id: int, title: str, admins: list[int], type_: str = "group",
                  forum: bool = False) -> None:
        self.groups[chat_id] = {"title": title, "admins": admins, "type": type_, "forum": forum}

    async def _push(self, update: dict[str, Any]) -> int:
        update_id = next(self._ids)
        if self.webhook is not None:
            self._deliver({"update_id": update_id, **update})
        else:
            self.updates.append({"update_id": update_id, **update})
        # no chat and no answer changed: only those waiting on any change (and getUpdates) are woken, not every
        # player of a load test watching his own chat, at every press of every game
        await self._notify(None)
        return update_id

    def _deliver(self, update: dict[str, Any]) -> None:
        task = asyncio.ensure_future(self._post(update))
        self._delivering.add(task)
        task.add_done_callback(self._delivering.discard)

    async def _post(self, update: dict[str, Any]) -> None:
        """Post ``update`` to the webhook until the bot answers 200 (Telegram gives up after a while; this
        keeps trying while the server runs, so a test sees every update handled in the end)."""
        while self.webhook is not None:
            headers = {} if self.webhook["secret"] is None else {
                "X-Telegram-Bot-Api-Secret-Token": self.webhook["secret"]}
            status = 0
            if self._poster is None or self._poster.closed:
                self._poster = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=60))
            self.posting.add(update["update_id"])
            await self._notify(None)
            try:
                with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                    async with self._poster.post(self.webhook["url"], json=update, headers=headers) as response:
                        status = response.status
            finally:
                self.posting.discard(update["update_id"])
            self.deliveries.append((update["update_id"], status))
            if status == 200:
                return
            await asyncio.sleep(self.retry_after)

    async def send_text(self, user_id: int, chat_id: int, text: str, thread_id: int | None = None,
                        reply_to_user: int | None = None) -> None:
        """A user writes ``text`` in a chat (a command gets its bot_command entity)."""
        if chat_id == user_id:
            self.users[user_id].started = True
        message: dict[str, Any] = {"message_id": next(self._message_ids[chat_id]), "date": int(time.time()),
                                   "chat": self._chat_json(chat_id), "from": self.users[user_id].json(), "text": text}
        if text.startswith("/"):
            command = text.split()[0]
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(command)}]
        if thread_id:
            message["message_thread_id"] = thread_id
            message["is_topic_message"] = True
        if reply_to_user is not None:
            message["reply_to_message"] = {"message_id": 0, "date": int(time.time()), "text": "…",
                                           "chat": self._chat_json(chat_id), "from": self.users[reply_to_user].json()}
        await self._push({"message": message})

    def mute(self, chat_id: int, muted: bool = True) -> None:
        """The group's admins take (or give back) the bot's right to send messages there."""
        self.groups[chat_id]["muted"] = muted

    def hold(self, chat_id: int) -> None:
        """Calls to this chat wait, unanswered, until ``release``: a slow network between bot and Telegram."""
        self.held.setdefault(chat_id, asyncio.Event())

    def release(self, chat_id: int) -> None:
        self.held.pop(chat_id).set()

    def fail(self, method: str, times: int = 1, code: int = 500,
             description: str = "Internal Server Error") -> None:
        """The next ``times`` calls of ``method`` fail with this error."""
        self.failures[method] += [(code, description)] * times

    async def delete_by_user(self, chat_id: int, message_id: int) -> None:
        """A user deletes one of the bot's messages (Telegram does not tell the bot)."""
        if not self._drop(chat_id, message_id):
            raise KeyError((chat_id, message_id))
        await self._notify(chat_id)

    async def send_as_group(self, chat_id: int, text: str) -> None:
        """An anonymous admin writes: Telegram sends it from GroupAnonymousBot with the group as sender_chat."""
        chat = self._chat_json(chat_id)
        message: dict[str, Any] = {"message_id": next(self._message_ids[chat_id]), "date": int(time.time()),
                                   "chat": chat, "sender_chat": chat, "text": text,
                                   "from": {"id": 1087968824, "is_bot": True, "first_name": "Group",
                                            "username": "GroupAnonymousBot"}}
        if text.startswith("/"):
            message["entities"] = [{"type": "bot_command", "offset": 0, "length": len(text.split()[0])}]
        await self._push({"message": message})

    async def block_bot(self, user_id: int) -> None:
        """The user blocks the bot: Telegram refuses messages to him and tells the bot at once."""
        user = self.users[user_id]
        user.started = False
        bot = {"id": BOT_ID, "is_bot": True, "first_name": "Durak", "username": BOT_USERNAME}
        await self._push({"my_chat_member": {
            "chat": {"id": user_id, "type": "private", "first_name": user.first_name}, "from": user.json(),
            "date": int(time.time()), "old_chat_member": {"status": "member", "user": bot},
            "new_chat_member": {"status": "kicked", "user": bot, "until_date": 0}}})

    async def migrate_group(self, old_id: int, new_id: int) -> None:
        """The group becomes a supergroup: the service message arrives, the old id refuses messages."""
        old = self.groups[old_id]
        self.groups[new_id] = {**old, "type": "supergroup"}
        old["migrated_to"] = new_id
        message = {"message_id": next(self._message_ids[old_id]), "date": int(time.time()),
                   "chat": {"id": old_id, "type": "group", "title": old["title"]},
                   "from": self.users[old["admins"][0]].json(), "migrate_to_chat_id": new_id}
        await self._push({"message": message})

    async def press(self, user_id: int, chat_id: int, message_id: int, data: str) -> str:
        """A user presses an inline button; returns the callback query's id."""
        message = self.messages[(chat_id, message_id)]
        query_id = f"q{next(self._ids)}"
        await self._push({"callback_query": {"id": query_id, "from": self.users[user_id].json(),
                                             "message": self._message_json(message), "chat_instance": "ci",
                                             "data": data}})
        return query_id

    async def answer(self, query_id: str, timeout: float = 10) -> dict[str, Any]:
        await self.wait_for(lambda: query_id in self.answers, timeout, on=(query_id,))
        return self.answers[query_id]

    async def wait_for(self, predicate: Any, timeout: float = 10, on: Iterable[int | str] | None = None) -> None:
        """Wait until ``predicate()`` holds; fails the test after ``timeout`` seconds. ``on``: the chats (or
        callback queries) it depends on, to be asked again only when they change; otherwise at every change."""
        deadline = time.monotonic() + timeout
        topics: tuple[int | str | None, ...] = (None,) if on is None else tuple(on)
        while not predicate():
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the condition did not come true in time")
            waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            for topic in topics:
                self._waiting.setdefault(topic, set()).add(waiter)
            try:  # a change of what ``on`` names always wakes it; any other predicate is asked again twice a second
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(waiter, min(left, 0.5 if on is None else 5.0))
            finally:
                for topic in topics:
                    waiting = self._waiting.get(topic)
                    if waiting is not None:
                        waiting.discard(waiter)
                        if not waiting:
                            del self._waiting[topic]

    def _put(self, message: Message) -> None:
        self.messages[(message.chat_id, message.message_id)] = message
        self._in_chat.setdefault(message.chat_id, {})[message.message_id] = message

    def _drop(self, chat_id: int, message_id: int) -> bool:
        self._in_chat.get(chat_id, {}).pop(message_id, None)
        return self.messages.pop((chat_id, message_id), None) is not None

    def forget(self, *chat_ids: int) -> None:
        """Drop every message of these chats (a long benchmark keeps only what the bot still shows)."""
        for chat_id in chat_ids:
            for message_id in list(self._in_chat.get(chat_id, {})):
                self._drop(chat_id, message_id)

    def chat_messages(self, chat_id: int) -> list[Message]:
        """A chat's messages, oldest first (by chat: the load test's players ask this of hundreds of chats after
        every call, and a scan of every message made the fake server, not the bot, its bottleneck)."""
        return sorted(self._in_chat.get(chat_id, {}).values(), key=lambda m: m.message_id)

    def bot_messages_in(self, chat_id: int) -> list[Message]:
        return self.chat_messages(chat_id)


_ADMIN_RIGHTS = {"can_be_edited": False, "is_anonymous": False, "can_manage_chat": True, "can_delete_messages": True,
                 "can_manage_video_chats": True, "can_restrict_members": True, "can_promote_members": False,
                 "can_change_info": True, "can_invite_users": True, "can_post_stories": False,
                 "can_edit_stories": False, "can_delete_stories": False}
