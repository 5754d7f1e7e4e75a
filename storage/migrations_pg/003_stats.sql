-- migrations/003_stats.sql
ALTER TABLE games ADD COLUMN started_at DOUBLE PRECISION;
ALTER TABLE game_results ADD COLUMN rank INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN penalty INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN away INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN team INTEGER;
ALTER TABLE users ADD COLUMN hidden INTEGER NOT NULL DEFAULT 0;
CREATE TABLE ratings (
    scope    BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (scope, user_id)
);
CREATE TABLE rating_history (
    scope    BIGINT NOT NULL,
    user_id  BIGINT NOT NULL,
    game_id  BIGINT NOT NULL,
    ordinal  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (scope, user_id, game_id)
);
CREATE INDEX game_results_by_user ON game_results (user_id);
