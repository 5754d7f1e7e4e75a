-- migrations/010_moves.sql
ALTER TABLE games ADD COLUMN deal TEXT;
CREATE TABLE game_moves (
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n           INTEGER NOT NULL,
    seat        INTEGER NOT NULL,
    action      TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
)
