-- Badges (bot/stats/badges.py): each player's, awarded once (the game that earned it; none for a season's close),
-- written with that game's results.
CREATE TABLE badges (
    user_id    INTEGER NOT NULL,
    badge      TEXT NOT NULL,
    game_id    INTEGER,
    awarded_at REAL NOT NULL,
    PRIMARY KEY (user_id, badge)
);
