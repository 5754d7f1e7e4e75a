-- Telegram's updates as a webhook received them, kept until handled (storage/updates.py): with several bot
-- processes behind a load balancer, any of them stores an update and answers Telegram, the leading one handles it.
CREATE TABLE updates (
    update_id INTEGER PRIMARY KEY,
    body TEXT NOT NULL,
    received REAL NOT NULL,
    done INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX updates_waiting ON updates (update_id) WHERE done = 0
