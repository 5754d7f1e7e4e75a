-- migrations/009_updates.sql
CREATE TABLE updates (
    update_id BIGINT PRIMARY KEY,
    body TEXT NOT NULL,
    received DOUBLE PRECISION NOT NULL,
    done INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX updates_waiting ON updates (update_id) WHERE done = 0
