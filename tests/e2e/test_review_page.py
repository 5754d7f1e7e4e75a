"""The review in the Mini App: a player steps through his game from his seat, sees his chance over the game, the
better move at each marked one and what another move was worth (Retry); nobody else opens his review."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from bot.ui.review_text import percent
from durak import apply, card_code
from durak.review import label_of
from tests.e2e.browser import chromium, open_page
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess, Table
from tests.e2e.test_reviews import DEALS, kept, played_group_game, summaries
from tests.e2e.test_webapp import page_settings
from tests.e2e.test_webapp_phone import axe_problems
from tests.e2e.test_whole_game import NOT_RUSSIAN
from tests.e2e.webapp_client import PageSocket, free_port, game_param, init_data
from tests.fake_telegram import FakeTelegram
from tests.places import place_of

ANNA, BORIS, VERA = 101, 102, 103
SHOTS = Path(os.environ["SCREENSHOTS_DIR"]) if os.environ.get("SCREENSHOTS_DIR") else None


SIGNS = {"S": "♠", "C": "♣", "D": "♦", "H": "♥"}


def review_link(fake: FakeTelegram, user: int) -> str:
    [summary] = summaries(fake, user)
    return str(summary.markup["inline_keyboard"][0][0]["web_app"]["url"])


async def open_review(port: int, user: int, name: str, link: str) -> tuple[PageSocket, dict[str, object]]:
    page = PageSocket(port)
    first = await page.open({"type": "hello", "init_data": init_data(user, name), "game": game_param(link),
                             "review": True})
    return page, first


async def reviewed_bot(fake: FakeTelegram, tmp_path: Path) -> tuple[BotProcess, int]:
    port = free_port()
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", review_deals=DEALS, **page_settings(port))
    await bot.start()
    await played_group_game(fake)
    await fake.wait_for(lambda: summaries(fake, ANNA) and summaries(fake, BORIS), 120)
    return bot, port


async def test_the_review_page_shows_his_game_from_his_seat_and_his_alone(fake: FakeTelegram, tmp_path: Path) -> None:
    bot, port = await reviewed_bot(fake, tmp_path)
    [(game_id, review)] = kept(tmp_path / "durak.sqlite3")
    game = await bot.service.repo.game(game_id)
    assert game is not None and game.deal is not None and game.state is not None
    link = review_link(fake, ANNA)
    page, frame = await open_review(port, ANNA, "Anna", link)
    assert frame["type"] == "review" and frame["you"] == 0
    steps = frame["steps"]
    assert isinstance(steps, list) and len(steps) == len(game.moves) + 1, "every position, from the deal to the end"
    state = game.deal
    for k, step in enumerate(steps):
        assert [s["you"] for s in step["seats"]] == [True, False]
        assert [s["cards"] for s in step["seats"]] == [len(h) for h in state.hands], "the others' hands: counts"
        assert sorted(step["hand"]) == sorted(card_code(c) for c in state.hands[0]), f"his own hand at move {k + 1}"
        assert "prompt" not in step, "no live «Waiting for …» line in a review"
        if k < len(game.moves):
            state, _ = apply(state, *game.moves[k])
    assert steps[-1]["result"], "the end, with its result"
    marks = frame["marks"]
    assert isinstance(marks, dict)
    mine = [m for m in review["moves"] if m["seat"] == 0]  # type: ignore[index, union-attr]
    assert sorted(map(int, marks)) == [m["n"] for m in mine], "his judged moves, none of Boris's"
    for m in mine:
        shown = marks[str(m["n"])]
        assert shown["label"] == m["label"] == label_of(m["cost"])
        assert [o["value"] for o in shown["options"]] == [v for _, v in m["values"]], "the kept values: no new judging"
        assert shown["chance"] == m["values"][0][1] and shown["options"][0]["words"] == shown["best"]
        assert any(o["words"] == shown["played"] for o in shown["options"])
        assert all(o["table"] is not None for o in shown["options"]), "each honest move leaves a table to draw"
    assert [g["n"] for g in frame["graph"]] == [m["n"] for m in mine]  # type: ignore[union-attr]
    # opened again (and by Boris, his own): read from the kept review, judged no more
    again, second = await open_review(port, ANNA, "Anna", link)
    assert second["steps"] == steps and second["marks"] == marks
    boris, his = await open_review(port, BORIS, "Boris", review_link(fake, BORIS))
    assert his["you"] == 1 and not set(his["marks"]) & set(marks)  # type: ignore[arg-type]
    assert bot.service.reviewer.made == 1 and len(kept(tmp_path / "durak.sqlite3")) == 1
    # Vera did not play: Anna's link does not open Anna's review for her, nor any other
    vera, refused = await open_review(port, VERA, "Vera", link)
    assert refused["type"] == "error" and "another player's" in str(refused["text"]), refused
    code, _ = await vera.closed()
    assert code == 4403
    for p in (page, again, boris, vera):
        await p.close()
    await bot.stop()


async def test_a_review_not_made_yet_says_so_and_comes_when_it_is(fake: FakeTelegram, tmp_path: Path) -> None:
    port = free_port()
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database, review_deals=0, **page_settings(port))
    await bot.start()
    await played_group_game(fake, seed=5)
    await bot.idle()
    [(game_id,)] = place_of(database).sql("SELECT id FROM games")
    link = bot.service.reviewer.review_link(game_id)
    page, frame = await open_review(port, ANNA, "Anna", link)
    assert frame["type"] == "review" and frame["pending"] is True and "being made" in str(frame["text"])
    await page.close()
    await bot.stop()


@pytest.mark.long(14)
async def test_the_review_in_chromium_at_phone_sizes(fake: FakeTelegram, tmp_path: Path) -> None:
    """The page opens on his costliest move with the better move hidden: he may try one first (judged by the kept
    values, then the answer shows) or ask for the answer, which lifts the better move's cards; the graph marks
    every labelled move, Retry draws the table another move leaves and says its chance, every hand shows on
    request, ▶ steps on; nothing runs off a phone."""
    bot, _ = await reviewed_bot(fake, tmp_path)
    [(_, review)] = kept(tmp_path / "durak.sqlite3")
    # both play at once, so who errs where follows the machine's timing: the page of whoever has a marked move
    marked = {m["seat"] for m in review["moves"] if m["label"]}  # type: ignore[index, union-attr]
    seat = 0 if 0 in marked else 1
    user, name = (ANNA, "Anna") if seat == 0 else (BORIS, "Boris")
    mine = [m for m in review["moves"] if m["seat"] == seat]  # type: ignore[index, union-attr]
    labelled = [m for m in mine if m["label"]]
    assert labelled, "one of the two has a marked move"
    worst = max(labelled, key=lambda m: (m["cost"], -m["n"]))
    link = review_link(fake, user)
    lifted = "() => [...document.querySelectorAll('#hand .card.play')].map(c => c.dataset.card)"
    async with chromium() as browser:
        for width, height, dark in ((390, 844, False), (320, 568, True), (844, 390, False)):
            page = await open_page(browser, link, user, name, dark=dark, width=width, height=height)
            await page.wait_for_selector("#review:not([hidden]) svg")
            seen = await page.evaluate("""() => ({
              nav: document.querySelector('#review .nav span').getAttribute('aria-label'),
              dots: [...document.querySelectorAll('#review svg circle')].map(c => c.getAttribute('class')),
              verdict: document.querySelector('#review .verdict').textContent,
              wide: document.scrollingElement.scrollWidth,
            })""")
            assert seen["nav"].startswith(f"Move {worst['n']} of "), seen
            marks = await page.evaluate("() => window.durakReview().marks")
            best = marks[str(worst["n"])]["options"]
            assert await page.evaluate(lifted) == [], "the better move waits for his try"
            assert "Find a better move" in seen["verdict"] and "Better:" not in seen["verdict"], seen
            assert seen["dots"] == [m["label"] for m in labelled], "every marked move on the graph, coloured by label"
            listed = await page.locator("#review .marks button").all_text_contents()
            chess = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
            assert listed == [f"{m['n']}{chess[m['label']]}" for m in labelled], "the marked moves, as chess marks them"
            assert await axe_problems(page) == [], f"axe-core: nothing serious in the review at {width}x{height}"
            assert f"{worst['label']} (−{max(1, percent(worst['cost']))} %)" in seen["verdict"], seen
            assert seen["wide"] <= width, "nothing runs off the screen sideways"
            if width == 390:  # the table, his hand, the graph, ⏮ ◀ ▶ and the verdict on one screen, unscrolled
                lowest = await page.evaluate("""() => Object.fromEntries(['#hand', '#review svg', '#review .nav',
                  '#review .verdict'].map(s => [s, document.querySelector(s).getBoundingClientRect().bottom]))""")
                if SHOTS:
                    await page.screenshot(path=str(SHOTS / "review-find-390x844.png"))
                assert max(lowest.values()) <= height, f"below a {height} px screen: {lowest}"
            tries = page.locator("#review .options button:not(.answer)")
            assert await tries.count() == len(best) and "%" not in (await tries.first.text_content() or "")
            if width == 390:  # he tries the best move: judged so, then the answer shows
                await tries.nth(0).click()
                said = (await page.locator("#review .verdict").text_content() or "").replace("\ufe0e", "")
                assert said.startswith("✔") and "the best move." in said and "Better:" in said, said
            elif width == 320:  # he tries another: still short of the best, by the kept values
                await tries.nth(len(best) - 1).click()
                said = (await page.locator("#review .verdict").text_content() or "").replace("\ufe0e", "")
                cost = best[0]["value"] - best[-1]["value"]
                words = ("the move you played" if best[-1]["words"] == marks[str(worst["n"])]["played"]
                         else "the best move" if cost <= 0.005
                         else f"good enough, {max(1, percent(cost))} % below" if cost < 0.05
                         else f"still {max(1, percent(cost))} % below the best")
                assert words in said, said
            else:  # he asks for the answer: the better move's cards are lifted
                await page.click("#review button.answer")
                assert sorted(await page.evaluate(lifted)) == sorted(best[0]["cards"])
            assert "Better:" in (await page.locator("#review .verdict").text_content() or ""), width
            # Retry: each move weighed there, with its chance; the one tapped is drawn on the table
            await page.click("text=↺ Retry")
            options = page.locator("#review .options.sheet button:not(.close)")  # a sheet over the table
            assert await options.count() == len(best)
            other = len(best) - 1
            await options.nth(other).click()
            table = await page.evaluate("() => [...document.querySelectorAll('#table .pair')]"
                                        ".map(p => [...p.querySelectorAll('.card')].map(c => c.dataset.card))")
            assert table == [[a, c] if c else [a] for a, c in best[other]["table"]], "the table that move leaves"
            said = await page.locator("#review .verdict").text_content()
            assert f"{best[other]['words'].replace('️', '')}: {percent(best[other]['value'])} %" in (
                said or "").replace("\ufe0e", "").replace("️", ""), said
            if SHOTS:
                await page.screenshot(path=str(SHOTS / f"review-retry-{width}x{height}.png"))
            await page.click("#review .options.sheet button.close")  # the sheet closes; the table stays
            # every hand, on request: the other's cards at this move as they were
            await page.click("#review button.reveal")
            other = await page.locator("#seats .seat:not(.you) .cards").text_content()
            hands = (await page.evaluate("() => window.durakReview().steps"))[worst["n"] - 1]["hands"][1 - seat]
            assert (other or "").replace("\ufe0e", "").split() == [c[:-1] + SIGNS[c[-1]] for c in hands], other
            if SHOTS:
                await page.screenshot(path=str(SHOTS / f"review-{width}x{height}-{'dark' if dark else 'light'}.png"),
                                      full_page=True)
            await page.click("#review button.reveal")
            assert await page.locator("#seats .cards").count() == 0, "hidden again"
            await page.click("#review .nav button:nth-of-type(3)")  # ▶
            assert (await page.locator("#review .nav span").get_attribute("aria-label") or "").startswith(
                f"Move {worst['n'] + 1} of "), "one move on"
            first = labelled[0]
            await page.locator("#review .marks button").first.click()  # a tap on a marked move goes there
            assert (await page.locator("#review .nav span").get_attribute("aria-label") or "").startswith(
                f"Move {first['n']} of ")
            await page.context.close()
    await bot.stop()


async def test_the_review_reads_as_russian_in_the_chat_and_on_the_page(fake: FakeTelegram, tmp_path: Path) -> None:
    """Russian players read their summary, /history and the whole review page in Russian."""
    for user in (ANNA, BORIS):
        fake.users[user].language_code = "ru"
    port = free_port()
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", review_deals=DEALS, default_language="ru",
                     **page_settings(port))
    await bot.start()
    table = Table(fake, GROUP, [ANNA, BORIS], seed=2, language="ru")
    await table.seat_everyone("podkidnoy", deck="24")
    await table.start(ANNA)
    await table.play_to_the_end(timeout=240)
    said = "📊 Разбор партии в «Friends»"
    await fake.wait_for(lambda: any(m.text.startswith(said) for m in fake.chat_messages(ANNA)), 120)
    [summary] = [m for m in fake.chat_messages(ANNA) if m.text.startswith(said)]
    assert "Точность " in summary.text and summary.buttons()[0]["text"] == "📊 Открыть разбор", summary.text
    await fake.send_text(ANNA, ANNA, "/history")
    await fake.wait_for(lambda: fake.chat_messages(ANNA)[-1].text.startswith("🗂 Ваши последние партии:"))
    history = fake.chat_messages(ANNA)[-1].text
    link = str(summary.markup["inline_keyboard"][0][0]["web_app"]["url"])
    async with chromium() as browser:
        page = await open_page(browser, link, ANNA, "Anna", language="ru")
        await page.wait_for_selector("#review:not([hidden]) svg")
        if await page.locator("#review button.answer").count():  # a marked move: the answer after a look
            find = await page.locator("#review").inner_text()
            await page.click("#review button:has-text('Показать ответ')")
            assert "Найдите ход лучше" in find, find
        if await page.locator("#review .verdict").count():
            await page.click("#review button:has-text('Переиграть')")
        shown = await page.locator("#review").inner_text()
        labels = await page.evaluate("() => [...document.querySelectorAll('#review [aria-label]')]"
                                     ".map(e => e.getAttribute('aria-label')).join('\\n')")
        if SHOTS:
            await page.screenshot(path=str(SHOTS / "review-ru.png"), full_page=True)
        await page.context.close()
    assert "Ход " in labels and "К следующей ошибке" in labels and "Показать все карты" in labels, labels
    shown += "\n" + labels
    for text in (summary.text, history, shown):
        assert not NOT_RUSSIAN.search(text.replace("Friends", "")), text
    await bot.stop()


@pytest.mark.long(12)
async def test_a_puzzle_solved_in_the_mini_app_counts_as_in_the_chat(fake: FakeTelegram, tmp_path: Path) -> None:
    """/puzzle's «Solve it in the app»: the position drawn with his cards and the moves it offers without their
    values (the frame tells nothing of the answer: no marks, no graph, no other hand); one tap answers, judged and
    kept as the chat's answer is (the first counts: the chat then shows that one), with his streak; then on to the
    game's review at that move. A move it does not offer is refused, and so is another player."""
    port = free_port()
    database = tmp_path / "durak.sqlite3"
    bot = BotProcess(fake, database, review_deals=DEALS, **page_settings(port))
    await bot.start()
    for games, seed in enumerate((2, 3, 4, 5), 1):  # until Anna has a puzzle
        await played_group_game(fake, seed)
        await fake.wait_for(lambda n=games: len(kept(database)) == n and len(summaries(fake, ANNA)) == n, 120)
        if any(m.get("puzzle") and m["seat"] == 0 for _, r in kept(database) for m in r["moves"]):  # type: ignore
            break
    before = len(fake.chat_messages(ANNA))
    await fake.send_text(ANNA, ANNA, "/puzzle")
    await fake.wait_for(lambda: len(fake.chat_messages(ANNA)) > before)
    asked = fake.chat_messages(ANNA)[-1]
    assert asked.text.startswith("🧩 A puzzle from your game"), asked.text
    *chat_moves, app_button = asked.buttons()
    assert app_button["text"] == "🃏 Solve it in the app"
    url = str(app_button["web_app"]["url"])
    n = int(url.rsplit("&puzzle=", 1)[1])
    assert f"move {n}" in asked.text.splitlines()[0]

    page = PageSocket(port)
    frame = await page.open({"type": "hello", "init_data": init_data(ANNA, "Anna"), "game": game_param(url),
                             "review": True, "puzzle": n})
    puzzle = frame["puzzle"]
    assert [o["words"] for o in puzzle["options"]] == [b["text"] for b in chat_moves], "the chat's moves, its order"
    assert all("value" not in o for o in puzzle["options"]) and frame["marks"] == {} and frame["graph"] == []
    assert len(frame["steps"]) == 1 and frame["steps"][0]["hands"] is None, "his position alone"
    await page.ws.send_str('{"type": "solve", "choice": 99}')  # type: ignore[union-attr]
    assert (await page.next()) == {"type": "solved", "toast": "This button is not valid any more."}
    await page.close()
    boris, his = await open_review(port, BORIS, "Boris", url)  # his own review of that game, not her puzzle
    assert his["type"] == "review" and "puzzle" not in his
    await boris.ws.send_str(json.dumps({"type": "solve", "choice": 0}))  # type: ignore[union-attr]
    code, _ = await boris.closed()
    assert code == 4400, "a solve on a page with no puzzle is refused"
    await boris.close()

    async with chromium() as browser:
        page_ = await open_page(browser, url, ANNA, "Anna", width=390, height=844)
        await page_.wait_for_selector("#review .options button")
        offered = page_.locator("#review .options button")
        plain = [t.replace("\ufe0e", "").replace("\ufe0f", "") for t in await offered.all_text_contents()]
        assert plain == [str(b["text"]).replace("\ufe0f", "") for b in chat_moves], "the chat's moves, drawn"
        best = [o["i"] for o in puzzle["options"]].index(0)
        await offered.nth(best).click()
        await page_.wait_for_selector("#review .verdict .try")
        said = (await page_.locator("#review .verdict").text_content() or "").replace("\ufe0e", "")
        assert said.startswith("✔ Right:") and "🔥 Streak: 1 (best 1)" in said, said
        assert await page_.evaluate("() => document.scrollingElement.scrollWidth") <= 390
        assert await axe_problems(page_) == [], "axe-core: nothing serious in the puzzle"
        if SHOTS:
            await page_.screenshot(path=str(SHOTS / "puzzle-390x844-light.png"))
        again = await fake.answer(await fake.press(ANNA, ANNA, asked.message_id, chat_moves[-1]["callback_data"]))
        assert again["text"] == "You have answered this puzzle already.", "the app's answer was the first"
        await fake.wait_for(lambda: "✔ Right:" in asked.text and "🔥 Streak: 1 (best 1)" in asked.text)
        await page_.click("text=📊 The game's review")  # on to the whole review, at the puzzle's move
        await page_.wait_for_selector("#review svg")
        assert (await page_.locator("#review .nav span").get_attribute("aria-label") or "").startswith(f"Move {n} of ")
        await page_.context.close()
    await bot.stop()
