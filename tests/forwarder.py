"""A load balancer in front of several bot processes' webhooks (tests and the load test)."""

from __future__ import annotations

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
