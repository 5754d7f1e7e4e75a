-- migrations/019_tournament_leave.sql
ALTER TABLE chats ADD COLUMN tournaments_open INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tournaments ADD COLUMN topics INTEGER NOT NULL DEFAULT 0;
CREATE TABLE tournament_topics (
    tournament_id BIGINT NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    thread_id     BIGINT NOT NULL,
    PRIMARY KEY (tournament_id, number)
);
