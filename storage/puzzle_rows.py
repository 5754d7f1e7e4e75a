"""A player's answers to the puzzles from his reviewed games: the first answer to each is kept, and his streak."""

from __future__ import annotations

from storage.database import SqlConnection
from storage.rows import Rows


class PuzzleRows(Rows):
    async def answer_puzzle(self, user_id: int, game_id: int, n: int, chosen: int, solved: bool) -> bool:
        """Keep his answer (the ``chosen`` move) to the puzzle at move ``n`` of ``game_id``; False (nothing written)
        when he had answered it already: a second tap, from here or another process, changes nothing."""
        now = self.now()

        def work(conn: SqlConnection) -> bool:
            return conn.execute(
                "INSERT INTO puzzle_answers (user_id, game_id, n, chosen, solved, answered_at) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, game_id, n) DO NOTHING",
                (user_id, game_id, n, chosen, int(solved), now)).rowcount == 1

        return await self.db.run(work)

    async def puzzle_answer(self, user_id: int, game_id: int, n: int) -> int | None:
        """The move he chose in the puzzle, if he answered it."""
        row = await self.db.one("SELECT chosen FROM puzzle_answers WHERE user_id = ? AND game_id = ? AND n = ?",
                                (user_id, game_id, n))
        return None if row is None else int(row["chosen"])

    async def puzzle_answers(self, user_id: int) -> dict[tuple[int, int], bool]:
        """Every puzzle he answered, (game, move) -> solved."""
        rows = await self.db.all("SELECT game_id, n, solved FROM puzzle_answers WHERE user_id = ?", (user_id,))
        return {(int(r["game_id"]), int(r["n"])): bool(r["solved"]) for r in rows}

    async def puzzle_streak(self, user_id: int) -> tuple[int, int]:
        """His run of solved puzzles up to his last answer, and his longest run."""
        rows = await self.db.all("SELECT solved FROM puzzle_answers WHERE user_id = ? ORDER BY answered_at, game_id, n",
                                 (user_id,))
        run = best = 0
        for r in rows:
            run = run + 1 if r["solved"] else 0
            best = max(best, run)
        return run, best
