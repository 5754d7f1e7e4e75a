"""A Mini App page as the tests drive it: Telegram's signed initData, and the page's socket."""

from __future__ import annotations

import hashlib
import hmac
import json
import socket
import time
from typing import Any
from urllib.parse import parse_qs, urlencode, urlparse

import aiohttp

from tests.fake_telegram import TOKEN, Message


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def init_data(user_id: int, name: str, start_param: str | None = None, age: float = 0, token: str = TOKEN,
              language: str = "en", photo: str | None = None) -> str:
    """initData as Telegram signs it (Mini Apps docs, "Validating data received via the Mini App")."""
    user: dict[str, object] = {"id": user_id, "first_name": name, "language_code": language}
    if photo is not None:
        user["photo_url"] = photo
    fields = {"auth_date": str(int(time.time() - age)), "query_id": f"AAF{user_id}",
              "user": json.dumps(user, separators=(",", ":"))}
    if start_param is not None:
        fields["start_param"] = start_param
    check = "\n".join(f"{k}={v}" for k, v in sorted(fields.items()))
    secret = hmac.new(b"WebAppData", token.encode(), hashlib.sha256).digest()
    fields["hash"] = hmac.new(secret, check.encode(), hashlib.sha256).hexdigest()
    return urlencode(fields)


def hand_link(hand: Message) -> str:
    """The URL of the hand's web_app button."""
    return next(b["web_app"]["url"] for b in hand.buttons() if "web_app" in b)


def game_param(url: str) -> str:
    """The game token a link carries: ?g= on the hand's button, ?startapp= on the group's direct link."""
    query = parse_qs(urlparse(url).query)
    return (query.get("g") or query["startapp"])[0]


def hello(user_id: int, name: str, hand: Message) -> dict[str, Any]:
    """The first frame of a page opened from ``hand``'s button by this user."""
    return {"type": "hello", "init_data": init_data(user_id, name), "game": game_param(hand_link(hand))}


class PageSocket:
    """One open page: its socket, and every frame it was sent."""

    def __init__(self, port: int, route: str = "") -> None:
        """``route``: the path of one bot process (WEBAPP_ROUTE), as a page sent there connects."""
        self.url = f"ws://127.0.0.1:{port}/app/ws" + (f"/{route}" if route else "")
        self.session: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.frames: list[dict[str, Any]] = []
        self.raw: list[str] = []

    async def open(self, hello: dict[str, Any] | str) -> dict[str, Any]:
        """Say hello; the first frame back (a state, or an error before the close)."""
        self.session = aiohttp.ClientSession()
        self.ws = await self.session.ws_connect(self.url, max_msg_size=0)
        await self.ws.send_str(hello if isinstance(hello, str) else json.dumps(hello))
        return await self.next()

    async def next(self, timeout: float = 10) -> dict[str, Any]:
        assert self.ws is not None
        message = await self.ws.receive(timeout=timeout)
        if message.type is not aiohttp.WSMsgType.TEXT:
            if message.type is aiohttp.WSMsgType.CLOSE:  # the server's own code (a reply to a server gone since
                return {"type": "closed", "code": message.data, "reason": message.extra}  # marks it 1006)
            return {"type": "closed", "code": self.ws.close_code, "reason": None}
        self.raw.append(message.data)
        frame: dict[str, Any] = json.loads(message.data)
        self.frames.append(frame)
        return frame

    async def state_where(self, test: Any, timeout: float = 10) -> dict[str, Any]:
        """The next state frame for which ``test(frame)`` holds (frames before it are kept too)."""
        deadline = time.monotonic() + timeout
        for frame in reversed(self.frames):
            if frame.get("type") == "state" and test(frame):
                return frame
        while True:
            frame = await self.next(max(0.1, deadline - time.monotonic()))
            if frame.get("type") == "state" and test(frame):
                return frame
            if frame.get("type") == "closed":
                raise AssertionError(f"the socket closed ({frame['code']}) while waiting")

    async def closed(self, timeout: float = 10) -> tuple[int | None, list[dict[str, Any]]]:
        """Read to the close; its code and the frames before it."""
        seen = []
        while True:
            frame = await self.next(timeout)
            if frame["type"] == "closed":
                return frame["code"], seen
            seen.append(frame)

    async def press(self, data: str) -> dict[str, Any]:
        """Send a press; its answer (state frames that come before it are kept)."""
        assert self.ws is not None
        await self.ws.send_str(json.dumps({"type": "press", "data": data, "id": 1}))
        while True:
            frame = await self.next()
            if frame["type"] in ("answer", "closed"):
                return frame

    async def ask(self, kind: str) -> dict[str, Any]:
        """Send a frame of ``kind`` (invite, share) and read to its answer, of the same type."""
        assert self.ws is not None
        await self.ws.send_str(json.dumps({"type": kind}))
        while True:
            frame = await self.next()
            if frame["type"] in (kind, "closed"):
                return frame

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.session is not None:
            await self.session.close()
