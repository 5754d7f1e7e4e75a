"""The overall budget's slots under pressure: the player who must act first, then the table, then waiting
hands; the longest-waiting chat first within a kind; and nothing left showing an old position past its bound."""

from __future__ import annotations

import asyncio
import itertools

from bot.transport.budget import ACTING, TABLE, WAITING, Budget
from tests.bot.stepped import SteppedTicker

SPACING = 0.02  # 50 slots a second: the tests' queues drain in a fraction of a second
# The order tests run on a SteppedTicker: on the loop's clock a loaded machine let the spacing pass before the
# waiters queued, and the first of them took a free slot at once (once in four whole runs on a slow machine)


async def served(budget: Budget, waiters: list[tuple[int, int, float]]) -> list[int]:
    """Queue ``(chat, kind, since)`` behind a slot just taken; the chats in the order they got their slots."""
    order: list[int] = []
    await budget.take(0, ACTING, 0.0)  # the next slot is a spacing away: everyone below queues

    async def one(chat: int, kind: int, since: float) -> None:
        await budget.take(chat, kind, since)
        order.append(chat)

    await asyncio.gather(*(one(*w) for w in waiters))
    return order


async def test_the_player_who_must_act_goes_first_then_the_table_then_waiting_hands() -> None:
    ticker = SteppedTicker()
    now = ticker.time()
    order = await served(Budget(1 / SPACING, ticker=ticker),
                         [(3, WAITING, now - 1), (-1, TABLE, now - 1), (2, ACTING, now)])
    assert order == [2, -1, 3]


async def test_within_a_kind_the_chat_that_has_waited_longest_goes_first() -> None:
    ticker = SteppedTicker()
    now = ticker.time()
    order = await served(Budget(1 / SPACING, ticker=ticker),
                         [(1, ACTING, now - 0.1), (2, ACTING, now - 0.3), (3, ACTING, now - 0.2)])
    assert order == [2, 3, 1]


async def test_an_overdue_table_or_hand_goes_ahead_of_the_players_who_must_act() -> None:
    ticker = SteppedTicker()
    now = ticker.time()
    budget = Budget(1 / SPACING, {ACTING: float("inf"), TABLE: 30.0, WAITING: 40.0}, ticker=ticker)
    order = await served(budget, [(1, ACTING, now - 100), (-5, TABLE, now - 31), (7, WAITING, now - 45),
                                  (8, WAITING, now - 10)])
    assert order == [7, -5, 1, 8], "the longest overdue first (45 s past 40 before 31 past 30), then by kind"


async def test_a_waiting_chat_whose_player_must_now_act_is_promoted() -> None:
    ticker = SteppedTicker()
    now = ticker.time()
    budget = Budget(1 / SPACING, ticker=ticker)
    order: list[int] = []
    await budget.take(0, ACTING, 0.0)

    async def one(chat: int, kind: int) -> None:
        await budget.take(chat, kind, now)
        order.append(chat)

    tasks = [asyncio.create_task(one(chat, kind)) for chat, kind in ((1, ACTING), (2, TABLE), (3, WAITING))]
    await asyncio.sleep(0)
    budget.promote(3, ACTING, now)
    budget.promote(1, WAITING, now)  # a promotion never demotes
    await asyncio.gather(*tasks)
    assert order == [1, 3, 2]


async def test_turns_are_served_in_the_order_they_began_whatever_the_hand_owed_before() -> None:
    """Vera's hand had waited 20 s (a folded change) when her turn began, after Boris's: Boris goes first. But a
    promoted hand keeps the bound of what it owed before: one past it goes ahead of everything."""
    ticker = SteppedTicker()
    now = ticker.time()
    budget = Budget(1 / SPACING, {ACTING: float("inf"), TABLE: 30.0, WAITING: 40.0}, ticker=ticker)
    order: list[int] = []
    await budget.take(0, ACTING, 0.0)

    async def one(chat: int, kind: int, since: float) -> None:
        await budget.take(chat, kind, since)
        order.append(chat)

    tasks = [asyncio.create_task(one(*w)) for w in ((103, WAITING, now - 20), (102, ACTING, now - 2),
                                                     (104, WAITING, now - 50), (-1, TABLE, now - 1))]
    await asyncio.sleep(0)
    budget.promote(103, ACTING, now - 1)  # her turn began a second after Boris's
    budget.promote(104, ACTING, now)      # his hand was already 50 s old: still overdue
    await asyncio.gather(*tasks)
    assert order == [104, 102, 103, -1]


async def test_slots_stay_evenly_spaced_and_a_cancelled_wait_gives_up_its_place() -> None:
    budget = Budget(1 / SPACING)
    loop = asyncio.get_running_loop()
    await budget.take(0, ACTING, 0.0)
    times: list[float] = []

    async def one(chat: int) -> None:
        await budget.take(chat, ACTING, loop.time())
        times.append(loop.time())

    gone = asyncio.create_task(one(1))
    tasks = [asyncio.create_task(one(chat)) for chat in (2, 3, 4)]
    await asyncio.sleep(0)
    gone.cancel()
    await asyncio.gather(*tasks)
    assert budget.queued == 0 and len(times) == 3
    # when the budget gave each slot (its own record): a waiter woken late on a loaded machine would only shorten
    # the gaps its own clock sees after it, never the budget's
    given = list(budget._taken)[-3:]
    gaps = [b - a for a, b in itertools.pairwise(given)]
    assert all(gap >= SPACING * 0.9 for gap in gaps), gaps
    assert len(budget._taken) == 1 + 3, "the cancelled wait took no slot: its place went to the next"
    await budget.close()


async def test_the_budget_is_short_while_nearly_every_slot_is_taken_and_not_after() -> None:
    ticker = SteppedTicker()
    budget = Budget(100, ticker=ticker)  # a slot every 10 ms
    assert not budget.short
    for _ in range(20):  # a few calls: far from full
        await budget.take(1, ACTING, 0.0)
        ticker.t += 0.05  # one every 50 ms
    assert not budget.short
    for _ in range(170):  # every slot of 1.7 s taken: more was owed than the budget carried
        await budget.take(1, ACTING, 0.0)
    assert budget.short
    assert abs(ticker.t - (1000.0 + 20 * 0.05 + 169 * 0.01)) < 0.02, "each call waited for its slot"
    ticker.t += 2.1
    assert not budget.short, "a quiet moment and the budget has room again"
    await budget.close()
