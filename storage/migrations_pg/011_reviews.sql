-- migrations/011_reviews.sql
ALTER TABLE game_moves ADD COLUMN auto INTEGER NOT NULL DEFAULT 0;
CREATE TABLE game_reviews (
    game_id     BIGINT PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    review      TEXT NOT NULL,
    made_at     DOUBLE PRECISION NOT NULL
)
