-- Tournaments in a group (bot/game/tournaments.py): kept like games. Its players and their points; its tables are
-- games that name it, several open at once in one topic (the one-open-game rule is for the others). Its own
-- message (the standings) is an outbox row of game -id (storage.outbox_rows: no game has a negative id).
CREATE TABLE tournaments (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id      INTEGER NOT NULL,
    thread_id    INTEGER NOT NULL DEFAULT 0,
    creator_id   INTEGER NOT NULL,
    rules        TEXT NOT NULL,
    turn_timeout INTEGER NOT NULL,
    computers    INTEGER NOT NULL DEFAULT 0,
    title        TEXT NOT NULL DEFAULT '',
    started_at   REAL NOT NULL,
    ends_at      REAL NOT NULL,
    status       TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'closing', 'over'))
);
CREATE UNIQUE INDEX tournaments_one_per_chat ON tournaments (chat_id) WHERE status <> 'over';
CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,
    joined_at     REAL NOT NULL,
    free_since    REAL NOT NULL,
    left_at       REAL,
    points        INTEGER NOT NULL DEFAULT 0,
    games         INTEGER NOT NULL DEFAULT 0,
    firsts        INTEGER NOT NULL DEFAULT 0,
    streak        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (tournament_id, user_id)
);
ALTER TABLE games ADD COLUMN tournament INTEGER;
DROP INDEX games_one_open_per_topic;
CREATE UNIQUE INDEX games_one_open_per_topic ON games (chat_id, thread_id)
    WHERE status IN ('lobby', 'playing') AND tournament IS NULL;
CREATE INDEX games_by_tournament ON games (tournament);
