"""A load balancer in front of several bot processes' webhooks (tests and the load test)."""

from __future__ import annotations

import asyncio
import contextlib

import aiohttp
from aiohttp import web

from tests.e2e.webapp_client import free_port


class Forwarder:
    """A load balancer: each post goes to the next process in turn, or to the one after if it is down."""

    def __init__(self, ports: list[int]) -> None:
        self.ports = ports
        self.turn = 0
        self.posts: list[bytes] = []  # every update posted, as posted
        self.port = free_port()
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_post("/hook", self._post)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30),
                                              connector=aiohttp.TCPConnector(limit=512))

    async def stop(self) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    async def _post(self, request: web.Request) -> web.Response:
        assert self._session is not None
        body = await request.read()
        self.posts.append(body)
        headers = {k: v for k, v in request.headers.items() if k.lower().startswith("x-telegram")}
        for _ in self.ports:
            port = self.ports[self.turn % len(self.ports)]
            self.turn += 1
            with contextlib.suppress(aiohttp.ClientError, TimeoutError):
                async with self._session.post(f"http://127.0.0.1:{port}/hook", data=body, headers={
                        **headers, "Content-Type": "application/json"}) as response:
                    return web.Response(status=response.status)
        return web.Response(status=502)


class PageProxy:
    """Caddy's part for the Mini App (deploy/Caddyfile): ``/app/ws/<route>`` to that process alone, the page and
    its first socket to one process (``default``), WebSocket close codes and reasons passed on as they come."""

    def __init__(self, default: int, routes: dict[str, int]) -> None:
        self.default = default
        self.routes = routes
        self.sockets: list[str] = []  # the path of every socket the page opened
        self.port = free_port()
        self._runner: web.AppRunner | None = None
        self._session: aiohttp.ClientSession | None = None

    async def start(self) -> None:
        app = web.Application()
        app.router.add_get("/app/ws", self._socket)
        app.router.add_get("/app/ws/{route}", self._socket)
        app.router.add_get("/app/{tail:.*}", self._file)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", self.port).start()
        self._session = aiohttp.ClientSession()

    async def stop(self) -> None:
        if self._session is not None:
            await self._session.close()
        if self._runner is not None:
            await self._runner.cleanup()

    def _upstream(self, request: web.Request) -> int:
        return self.routes.get(request.match_info.get("route", ""), self.default)

    async def _file(self, request: web.Request) -> web.Response:
        assert self._session is not None
        async with self._session.get(f"http://127.0.0.1:{self._upstream(request)}{request.path_qs}",
                                     auto_decompress=False) as response:
            kept = {k: v for k, v in response.headers.items()
                    if k.lower() in ("content-type", "content-encoding", "cache-control", "etag")}
            return web.Response(status=response.status, body=await response.read(), headers=kept)

    async def _socket(self, request: web.Request) -> web.WebSocketResponse:
        assert self._session is not None
        self.sockets.append(request.path)
        client = web.WebSocketResponse()
        await client.prepare(request)
        async with self._session.ws_connect(f"http://127.0.0.1:{self._upstream(request)}{request.path}") as server:
            async def up() -> None:
                async for message in client:
                    if message.type is aiohttp.WSMsgType.TEXT:
                        await server.send_str(message.data)
                await server.close()

            pumping = asyncio.ensure_future(up())
            code, reason = 1000, ""
            while True:
                message = await server.receive()
                if message.type is aiohttp.WSMsgType.TEXT:
                    await client.send_str(message.data)
                    continue
                if message.type is aiohttp.WSMsgType.CLOSE:
                    code, reason = int(message.data), str(message.extra or "")
                break
            pumping.cancel()
            await client.close(code=code, message=reason.encode())
        return client
