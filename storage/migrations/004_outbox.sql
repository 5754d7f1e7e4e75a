-- The persisted outbox: every message the bot owes Telegram, written in the same transaction as
-- the game change that owes it. One row per message "slot" of a game (its table, each hand, the
-- result, a vote, a notice); a sender delivers the newest content and records what it delivered.
CREATE TABLE outbox (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    game_id     INTEGER,                        -- NULL for a message of no game
    slot        TEXT NOT NULL,                  -- table, hand:<seat>, result, vote:<n>, note:<...>
    chat_id     INTEGER NOT NULL,
    thread_id   INTEGER NOT NULL DEFAULT 0,
    text        TEXT,
    markup      TEXT,                           -- the inline keyboard as Bot API JSON
    deleted     INTEGER NOT NULL DEFAULT 0,     -- 1: the message is to be deleted
    resend      INTEGER NOT NULL DEFAULT 0,     -- 1: post it anew (and delete the old one)
    wanted      INTEGER NOT NULL DEFAULT 1,     -- +1 whenever the content changes
    delivered   INTEGER NOT NULL DEFAULT 0,     -- the `wanted` that Telegram shows
    message_id  INTEGER,                        -- the Telegram message, once sent
    UNIQUE (game_id, slot)
);
CREATE INDEX outbox_owed ON outbox (id) WHERE delivered < wanted;
-- Messages with buttons that are not a game's: the leaderboard pages.
CREATE TABLE panels (
    chat_id     INTEGER NOT NULL,
    message_id  INTEGER NOT NULL,
    kind        TEXT NOT NULL,
    PRIMARY KEY (chat_id, message_id)
);
-- Messages sent before the outbox existed: their ids become outbox rows, so they are edited, not re-sent.
INSERT INTO outbox (game_id, slot, chat_id, thread_id, message_id, wanted, delivered)
    SELECT id, 'table', chat_id, thread_id, message_id, 1, 1 FROM games WHERE message_id IS NOT NULL;
INSERT INTO outbox (game_id, slot, chat_id, message_id, wanted, delivered)
    SELECT game_id, 'hand:' || seat, user_id, message_id, 1, 1 FROM seats WHERE message_id IS NOT NULL;
