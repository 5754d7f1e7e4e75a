-- An evening (bot/stats/evening.py): the games the same people play one after another at one table. ``goal`` is
-- what a lobby was opened to play to (/series: 'durak:5', five times the durak; 'games:5', five games; '' none),
-- ``series`` the first game of the evening a finished game belongs to, written with its results.
ALTER TABLE games ADD COLUMN goal TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN series INTEGER;
CREATE INDEX games_by_series ON games (series);
