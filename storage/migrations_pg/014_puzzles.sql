-- migrations/014_puzzles.sql
CREATE TABLE puzzle_answers (
    user_id     BIGINT NOT NULL,
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n           INTEGER NOT NULL,
    chosen      INTEGER NOT NULL,
    solved      INTEGER NOT NULL,
    answered_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, game_id, n)
);
CREATE INDEX puzzle_answers_by_time ON puzzle_answers (user_id, answered_at);
