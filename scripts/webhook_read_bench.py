"""What reading one webhook post costs: ``python scripts/webhook_read_bench.py``.

A button press as Telegram posts it, read by ``bot.transport.webhook.read_update`` (orjson, the fields' check,
``Update.de_json``) and, beside it, by ``Update.de_json(json.loads(body))`` alone; the best of five rounds of
20,000 reads each, in microseconds a read.
"""

from __future__ import annotations

import json
import timeit

from telegram import Bot, Update

from bot.transport.webhook import read_update

PRESS = {"update_id": 7, "callback_query": {
    "id": "q1", "chat_instance": "ci", "data": "v1:c:1:0:AS",
    "from": {"id": 101, "is_bot": False, "first_name": "Anna", "language_code": "en"},
    "message": {"message_id": 3, "date": 1796565819, "text": "🃏 Durak · you are Anna" * 10,
                "chat": {"id": 101, "type": "private", "first_name": "Anna"},
                "from": {"id": 1, "is_bot": True, "first_name": "Durak"}}}}


def main() -> None:
    bot, body, reads = Bot("123:abc"), json.dumps(PRESS).encode(), 20_000
    plain = min(timeit.repeat(lambda: Update.de_json(json.loads(body), bot), number=reads, repeat=5))
    checked = min(timeit.repeat(lambda: read_update(body, bot), number=reads, repeat=5))
    print(json.dumps({"read_update_us": round(checked / reads * 1e6, 1),
                      "de_json_alone_us": round(plain / reads * 1e6, 1)}))


if __name__ == "__main__":
    main()
