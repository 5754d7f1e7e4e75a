"""/puzzle: positions from a player's own reviewed games where one move was clearly the best (15 points ahead of
the next, the same best under a second judging), asked in his private chat with one tap an answer; the verdict
with every offered move's value, his streak, the next puzzle. A puzzle is his alone and answered once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.game.reviews import people_of
from bot.game.thinking import to_judge
from durak.actions import action_from_json
from durak.review.game import decisions_of, ending_of, judge_ending
from durak.review.judge import judge
from durak.setup import lowest_trump_leads
from tests.e2e.conftest import GROUP
from tests.e2e.harness import BotProcess
from tests.e2e.test_reviews import DEALS, kept, played_group_game, summaries
from tests.fake_telegram import FakeTelegram, Message

ANNA, BORIS = 101, 102


def last(fake: FakeTelegram, chat: int) -> Message:
    return fake.chat_messages(chat)[-1]


async def reply(fake: FakeTelegram, user: int, chat: int, text: str) -> Message:
    before = len(fake.chat_messages(chat))
    await fake.send_text(user, chat, text)
    await fake.wait_for(lambda: len(fake.chat_messages(chat)) > before)
    return last(fake, chat)


async def press(fake: FakeTelegram, user: int, message: Message, data: str) -> dict[str, Any]:
    return await fake.answer(await fake.press(user, message.chat_id, message.message_id, data))


async def test_a_player_solves_puzzles_from_his_own_game_once_each_with_a_streak(fake: FakeTelegram,
                                                                                tmp_path: Path) -> None:
    bot = BotProcess(fake, tmp_path / "durak.sqlite3", review_deals=DEALS)
    await bot.start()
    assert (await reply(fake, ANNA, ANNA, "/puzzle")).text.startswith("Puzzles come from your own reviewed games")
    # games until Anna has two puzzles (a game's path depends on the scripted players' timing, so count them)
    found: list[tuple[int, dict[str, Any]]] = []
    for games, seed in enumerate((2, 3, 4, 5), 1):
        await played_group_game(fake, seed)
        await fake.wait_for(lambda n=games: len(kept(tmp_path / "durak.sqlite3")) == n  # type: ignore[misc]
                            and len(summaries(fake, ANNA)) == n, 120)
        game_id, review = max(kept(tmp_path / "durak.sqlite3"), key=lambda r: r[0])
        moves: list[dict[str, Any]] = review["moves"]  # type: ignore[assignment]
        assert not [m for m in moves if m.get("puzzle") and m["values"][0][1] - m["values"][1][1] < 0.15]
        # each is clear and stable: the best 15 points ahead, the same best under yet another seed, asking the
        # play-on the review's own judging of it asked (checked: the greedy one, or the tree where it found a cost)
        game = await bot.service.repo.game(game_id)
        assert game is not None and game.deal is not None
        lowest = lowest_trump_leads(game.rules, 2, None)
        decisions = {d.n: d for d in decisions_of(game.deal, game.moves, lowest)}
        # the game's endgame, every card known, is judged as one, in order (judge_ending): judged so again here
        judged = to_judge(game.deal, list(game.moves), game.auto, people_of(game), lowest)
        known = [judged[i] for i in ending_of(judged)]
        in_ending = {d.n: v for d, v in zip(known, judge_ending(known, game_id, DEALS), strict=True)}
        for m in moves:
            if m.get("puzzle"):
                d = decisions[m["n"]]
                first = in_ending[d.n] if d.n in in_ending else judge(d.knowledge, d.played, game_id * 1_000_003 + d.n,
                                                                       DEALS)
                assert first is not None and first.best == action_from_json(m["best"]), m["n"]
                if first.exact:  # valued against best play: no seed to ask again
                    continue
                again = judge(d.knowledge, d.played, -1 - game_id, DEALS, playon=first.playon)
                assert again is not None and again.best == action_from_json(m["best"]), m["n"]
        found += [(game_id, m) for m in moves if m.get("puzzle") and m["seat"] == 0]
        if len(found) >= 2:
            break
    assert len(found) >= 2, "four games give Anna two puzzles"
    order = sorted(found, key=lambda f: (-f[0], f[1]["n"]))  # the newest game first, then by move
    (game_id, first), (second_game, second) = order[0], order[1]
    newest = max(g for g, _ in kept(tmp_path / "durak.sqlite3"))
    summary = summaries(fake, ANNA)[-1]
    assert ("🧩 Solve a puzzle from this game" in [b["text"] for b in summary.buttons()]) == any(
        g == newest for g, _ in found), "the button where his newest game holds a puzzle"
    asked = await reply(fake, ANNA, ANNA, "/puzzle")
    assert asked.text.startswith(f"🧩 A puzzle from your game in «Friends», move {first['n']}"), asked.text
    assert "Your cards: " in asked.text and "Which move is best?" in asked.text
    offered = asked.buttons()
    assert 2 <= len(offered) <= 6 and offered[0]["callback_data"].startswith(f"v1:Z:{game_id}:{first['n']}:")
    best = next(b for b in offered if b["callback_data"].endswith(":0"))
    wrong = next(b for b in offered if not b["callback_data"].endswith(":0"))

    # Boris cannot answer Anna's puzzle, nor can anyone name a move it does not offer
    assert (await press(fake, BORIS, asked, wrong["callback_data"]))["text"] == "This button is not valid any more."
    forged = f"v1:Z:{game_id}:{first['n']}:99"
    assert (await press(fake, ANNA, asked, forged))["text"] == "This button is not valid any more."
    assert (await press(fake, ANNA, asked, f"v1:Z:{game_id}:999:0"))["text"] == "This button is not valid any more."
    assert last(fake, ANNA).text == asked.text, "nothing changed"
    table = fake.bot_messages_in(GROUP)[-1]  # forged on a group's message: no puzzle lands there
    before = table.text
    assert (await press(fake, ANNA, table, "v1:Z:0:0:next"))["text"] == "This button is not valid any more."
    assert (await press(fake, ANNA, table, wrong["callback_data"]))["text"] == "This button is not valid any more."
    assert table.text == before

    await press(fake, ANNA, asked, wrong["callback_data"])
    await fake.wait_for(lambda: asked.text.startswith("🧩") and "🔥 Streak: 0 (best 0)" in asked.text)
    assert f"✘ {wrong['text']} is " in asked.text and "behind the best move" in asked.text, asked.text
    assert asked.text.count("• ") == len(offered), "every offered move with its value"
    shown = asked.text
    again = await press(fake, ANNA, asked, best["callback_data"])
    assert again["text"] == "You have answered this puzzle already.", "the first answer counts"
    assert asked.text == shown, "the first answer's verdict stays"

    await press(fake, ANNA, asked, asked.buttons()[0]["callback_data"])  # 🧩 Next puzzle
    await fake.wait_for(lambda: f"move {second['n']}" in asked.text.splitlines()[0])
    assert asked.buttons()[0]["callback_data"].startswith(f"v1:Z:{second_game}:{second['n']}:")
    right = next(b for b in asked.buttons() if b["callback_data"].endswith(":0"))
    other = next(b for b in asked.buttons() if not b["callback_data"].endswith(":0"))
    question = asked.text
    fake.fail("editMessageText")  # Telegram loses the verdict: the answer is kept all the same
    await press(fake, ANNA, asked, right["callback_data"])
    await bot.idle()
    assert asked.text == question
    retried = await press(fake, ANNA, asked, other["callback_data"])  # his next tap shows his first answer's verdict
    assert retried["text"] == "You have answered this puzzle already."
    await fake.wait_for(lambda: "🔥 Streak: 1 (best 1)" in asked.text)
    assert f"✔ Right: {right['text']} is the best move." in asked.text

    assert (await reply(fake, ANNA, GROUP, "/puzzle")).text.startswith("Puzzles come in private")
    await bot.stop()
