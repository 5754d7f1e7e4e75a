-- Turn pings: a new private message when a seat must act; /notify off turns them off for a user.
ALTER TABLE users ADD COLUMN notify INTEGER NOT NULL DEFAULT 1;
