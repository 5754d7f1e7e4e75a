-- migrations/012_partitions.sql
ALTER TABLE updates ADD COLUMN part INTEGER;
CREATE INDEX updates_part ON updates (part, update_id) WHERE done = 0;
CREATE INDEX seats_by_user ON seats (user_id);
ALTER TABLE outbox ADD COLUMN home BIGINT;
UPDATE outbox SET home = COALESCE((SELECT chat_id FROM games WHERE games.id = outbox.game_id), chat_id);
-- where each partition's lead serves the Mini App (its WEBAPP_ROUTE): a page opened elsewhere is sent there
CREATE TABLE routes (
    part INTEGER PRIMARY KEY,
    route TEXT NOT NULL
)
