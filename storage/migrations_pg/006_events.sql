-- migrations/006_events.sql
CREATE TABLE game_events (
    game_id     BIGINT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n           INTEGER NOT NULL,
    event       TEXT NOT NULL,
    PRIMARY KEY (game_id, n)
);
