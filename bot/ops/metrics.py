"""What the load test reads from inside the bot: handler times and SQL statements.

Off unless ``METRICS_FILE`` is set (scripts/loadtest.py sets it). Then every button press records
how long the handler took (update in, press answered) and how much of it came before the answer was
sent (deciding and carrying out the move: the rest is Telegram's reply to the answer), every SQL
statement is counted (SQLite's trace callback, or the same count on PostgreSQL), and the figures are
written to the file when the bot stops; so is each outbox call's kind and how long its chat had been owed
it, and each hard computer move's budget and the iterations its search made.
"""

from __future__ import annotations

import json
import re
import time
from collections import Counter
from pathlib import Path

_TABLE = re.compile(r"\b(?:FROM|INTO|UPDATE|TABLE)\s+(\w+)", re.IGNORECASE)


class Metrics:
    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.handler_seconds: list[float] = []
        self.decide_seconds: list[float] = []
        self.verbs: list[str] = []  # the press of each handler time
        self.statements = 0
        self.kinds: Counter[str] = Counter()  # "UPDATE outbox", "SELECT games", "BEGIN"…
        # each outbox call: the kind its chat was owed (bot.transport.budget) and how old its oldest change was then
        self.calls: list[tuple[int, float]] = []
        self.thoughts: list[tuple[float, int]] = []  # each hard computer move: its budget (ms), the tree's iterations
        self.reviews = 0  # games reviewed while it ran

    @property
    def on(self) -> bool:
        return self.path is not None

    def statement(self, sql: str) -> None:
        self.statements += 1
        verb = sql.split(None, 1)[0].upper() if sql.strip() else "?"
        table = _TABLE.search(sql)
        self.kinds[f"{verb} {table.group(1)}" if table else verb] += 1

    def handled(self, started: float, decided: float, verb: str) -> None:
        if self.path is not None:
            self.handler_seconds.append(time.monotonic() - started)
            self.decide_seconds.append(decided - started)
            self.verbs.append(verb)

    def write(self) -> None:
        if self.path is not None:
            self.path.write_text(json.dumps({"handler_seconds": self.handler_seconds,
                                             "decide_seconds": self.decide_seconds, "verbs": self.verbs,
                                             "statements": self.statements, "outbox_calls": self.calls,
                                             "hard_moves": self.thoughts, "reviews": self.reviews,
                                             "statement_kinds": dict(self.kinds.most_common())}))
