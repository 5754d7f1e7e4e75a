-- Badges (bot/stats/badges.py): each player's, awarded once (the game that earned it; none for a season's close),
-- written with that game's results.
CREATE TABLE badges (
    user_id    INTEGER NOT NULL,
    badge      TEXT NOT NULL,
    game_id    INTEGER,
    awarded_at REAL NOT NULL,
    PRIMARY KEY (user_id, badge)
);
-- and a group's result cards (bot/stats/card.py): posted under each result where its admins turned them on
ALTER TABLE chats ADD COLUMN pictures INTEGER NOT NULL DEFAULT 0;
