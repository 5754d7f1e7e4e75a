-- A player's answers to the puzzles from his own reviewed games (/puzzle): each position answered once, his first
-- answer kept (its move, shown again on his next tap if Telegram lost the verdict); his streak is the run of
-- solved ones up to the last.
CREATE TABLE puzzle_answers (
    user_id     INTEGER NOT NULL,
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n           INTEGER NOT NULL,
    chosen      INTEGER NOT NULL,
    solved      INTEGER NOT NULL,
    answered_at REAL NOT NULL,
    PRIMARY KEY (user_id, game_id, n)
);
CREATE INDEX puzzle_answers_by_time ON puzzle_answers (user_id, answered_at);
