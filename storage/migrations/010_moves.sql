-- The whole game, for its review: the deal (the state before the first move) and every action in order, each
-- written in the same transaction as the state it led to. Games played before have neither.
ALTER TABLE games ADD COLUMN deal TEXT;
CREATE TABLE game_moves (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    n           INTEGER NOT NULL,               -- the action's index in the game, from 0
    seat        INTEGER NOT NULL,
    action      TEXT NOT NULL,                  -- JSON (durak.actions.action_to_json)
    PRIMARY KEY (game_id, n)
) WITHOUT ROWID
