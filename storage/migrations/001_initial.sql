-- Users, per-chat settings, games with their seats, and finished games' results.
CREATE TABLE users (
    id            INTEGER PRIMARY KEY,          -- Telegram user id
    name          TEXT NOT NULL,
    username      TEXT,
    language      TEXT,                         -- chosen with /language; NULL: from Telegram
    telegram_language TEXT,                     -- Telegram's language_code, last seen
    private_chat  INTEGER NOT NULL DEFAULT 0,   -- 1 once the user opened a private chat with the bot
    updated_at    REAL NOT NULL
);

CREATE TABLE chats (
    id        INTEGER PRIMARY KEY,              -- Telegram chat id
    language  TEXT,
    rules     TEXT,                             -- the last lobby's rules: the next lobby's defaults
    max_players INTEGER,
    scoring   TEXT NOT NULL DEFAULT 'rating'
);

CREATE TABLE games (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    chat_id     INTEGER NOT NULL,
    thread_id   INTEGER NOT NULL DEFAULT 0,     -- forum topic, 0 outside forums
    status      TEXT NOT NULL CHECK (status IN ('lobby', 'playing', 'finished', 'cancelled')),
    creator_id  INTEGER NOT NULL,
    rules       TEXT NOT NULL,                  -- durak.Rules as JSON
    max_players INTEGER NOT NULL,
    previous    TEXT,                           -- the previous game's loser and winner, for a rematch
    state       TEXT,                           -- durak.State as JSON, once started
    version     INTEGER NOT NULL DEFAULT 0,     -- +1 on every write of the game
    log         TEXT NOT NULL DEFAULT '[]',     -- the last moves, for the table message
    message_id  INTEGER,                        -- the lobby, then table, message in the group
    created_at  REAL NOT NULL,
    updated_at  REAL NOT NULL,
    finished_at REAL
);
CREATE UNIQUE INDEX games_one_open_per_topic ON games (chat_id, thread_id) WHERE status IN ('lobby', 'playing');
CREATE INDEX games_by_status ON games (status);

CREATE TABLE seats (
    game_id     INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    user_id     INTEGER NOT NULL REFERENCES users (id),
    message_id  INTEGER,                        -- the player's private message for this game
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);

CREATE TABLE game_results (
    game_id   INTEGER NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat      INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    place     INTEGER,                          -- 1 = first out; NULL for the durak and in a draw's tie
    loser     INTEGER NOT NULL,
    draw      INTEGER NOT NULL,
    pogony    INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
);
