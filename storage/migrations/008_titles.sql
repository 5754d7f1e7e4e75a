-- The group's title as it was when the game opened: a ping names the game when a player plays in two groups.
ALTER TABLE games ADD COLUMN title TEXT NOT NULL DEFAULT '';
