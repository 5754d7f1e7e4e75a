"""What encoding one Bot API request costs, form against JSON, for the bot's real private messages.

    python scripts/encode_bench.py [--games 10]

Renders every seat's private message (Russian, with its hand keyboard) after every move of random
4-player podkidnoy games, as ``scripts/render_bench.py`` does, makes each an ``editMessageText``
request as PTB does, and times the body both ways: url-encoded (PTB's form: ``urllib`` quotes every
byte of Cyrillic, emoji and the keyboard's JSON in Python) and JSON (``bot/transport/http.py``). Prints
microseconds per request.
"""

from __future__ import annotations

import argparse
import json
import random
import time

from render_bench import played
from telegram.request import RequestData
from telegram.request._requestparameter import RequestParameter  # how PTB builds a request (pinned < 23)

from bot.game.slots import markup_json
from bot.ui import render
from bot.ui.i18n import translator


def requests(games: int) -> list[RequestData]:
    tr = translator("ru")
    found = []
    for game in played("podkidnoy", games, random.Random(1)):
        for seat in range(4):
            text, keyboard = render.private(tr, game, seat, 0.0)
            params = {"chat_id": 100 + seat, "message_id": 7, "text": text, "reply_markup": markup_json(keyboard)}
            found.append(RequestData([RequestParameter.from_input(k, v) for k, v in params.items() if v is not None]))
    return found


def per_request(bodies: list[RequestData], encode: str) -> float:
    start = time.process_time()
    for data in bodies:
        if encode == "form":
            data.url_encoded_parameters().encode()
        else:
            json.dumps(data.parameters, ensure_ascii=False, separators=(",", ":")).encode()
    return (time.process_time() - start) / len(bodies) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    bodies = requests(parser.parse_args().games)
    for encode in ("form", "json", "form", "json"):  # alternating: the machine's load moves between rounds
        print(f"{encode}: {per_request(bodies, encode):.1f} µs per request ({len(bodies)} requests)")


if __name__ == "__main__":
    main()
