-- A move the seat's player did not choose (his timer ran out, the computer played for him while he was away, or
-- the rules left one move) is marked, so that his review judges only his own choices; and each finished game's
-- review, stored once it is made (JSON: bot.game.reviews), so that opening it again costs nothing.
ALTER TABLE game_moves ADD COLUMN auto INTEGER NOT NULL DEFAULT 0;
CREATE TABLE game_reviews (
    game_id     INTEGER PRIMARY KEY REFERENCES games (id) ON DELETE CASCADE,
    review      TEXT NOT NULL,
    made_at     REAL NOT NULL
)
