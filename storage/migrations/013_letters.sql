-- The face cards in the reader's country's letters (В Д К Т, B D K A) rather than J Q K A: /letters, for a user
-- (his hand, his private messages) and for a group (its table).
ALTER TABLE users ADD COLUMN letters INTEGER NOT NULL DEFAULT 0;
ALTER TABLE chats ADD COLUMN letters INTEGER NOT NULL DEFAULT 0;
