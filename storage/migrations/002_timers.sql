-- Turn timers, absent players and leavers.
-- games.turn_timeout: seconds for a move, 0 = off. games.deadline: when the awaited move times out.
ALTER TABLE games ADD COLUMN turn_timeout INTEGER NOT NULL DEFAULT 60;
ALTER TABLE games ADD COLUMN deadline REAL;
-- seats.missed: turns missed in a row. seats.away: 0 playing, 1 away, 2 left, 3 unreachable.
ALTER TABLE seats ADD COLUMN missed INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN away INTEGER NOT NULL DEFAULT 0;
ALTER TABLE game_results ADD COLUMN left_game INTEGER NOT NULL DEFAULT 0;
ALTER TABLE chats ADD COLUMN turn_timeout INTEGER;
