-- migrations/017_badges.sql
CREATE TABLE badges (
    user_id    BIGINT NOT NULL,
    badge      TEXT NOT NULL,
    game_id    BIGINT,
    awarded_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (user_id, badge)
);
ALTER TABLE chats ADD COLUMN pictures INTEGER NOT NULL DEFAULT 0;
