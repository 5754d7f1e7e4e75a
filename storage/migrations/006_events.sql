-- The move log, appended: a move adds its events as rows instead of rewriting the whole log
-- (about 5 kB at the end of a game) in the games row. Logs written before stay in games.log;
-- a game's log is games.log followed by its rows here, in order of n.
CREATE TABLE game_events (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n           INTEGER NOT NULL,               -- the event's index in the whole log
    event       TEXT NOT NULL,                  -- JSON, as durak-bot's log entries
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID;
