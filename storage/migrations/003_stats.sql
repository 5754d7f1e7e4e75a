-- Stats and ratings: more about each result, players hidden from leaderboards, skill ratings.
ALTER TABLE games ADD COLUMN started_at REAL;
ALTER TABLE game_results ADD COLUMN rank INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN penalty INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN away INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN team INTEGER;
ALTER TABLE users ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
-- scope: a chat id, or 0 for the global rating
CREATE TABLE ratings (
    scope    INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    mu       REAL NOT NULL,
    sigma    REAL NOT NULL,
    PRIMARY KEY (scope, user_id)
);
CREATE TABLE rating_history (
    scope    INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    game_id  INTEGER NOT NULL,
    ordinal  REAL NOT NULL,
    PRIMARY KEY (scope, user_id, game_id)
);
CREATE INDEX game_results_by_user ON game_results (user_id);
