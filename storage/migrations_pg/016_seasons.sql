-- migrations/016_seasons.sql
ALTER TABLE chats ADD COLUMN season TEXT NOT NULL DEFAULT 'month';
CREATE TABLE seasons (
    chat_id   BIGINT NOT NULL,
    season    TEXT NOT NULL,
    closed_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (chat_id, season)
);
CREATE TABLE season_places (
    chat_id BIGINT NOT NULL,
    season  TEXT NOT NULL,
    user_id BIGINT NOT NULL,
    place   INTEGER NOT NULL,
    games   INTEGER NOT NULL,
    points  INTEGER NOT NULL,
    firsts  INTEGER NOT NULL,
    duraks  INTEGER NOT NULL,
    PRIMARY KEY (chat_id, season, user_id),
    FOREIGN KEY (chat_id, season) REFERENCES seasons (chat_id, season) ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX season_places_by_user ON season_places (user_id);
-- a season's games, and a table's last game (an evening goes on from it), found without reading every game
CREATE INDEX games_by_finish ON games (finished_at);
CREATE INDEX games_by_table ON games (chat_id, thread_id, finished_at);
