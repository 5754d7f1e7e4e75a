-- migrations/019_tournament_leave.sql
ALTER TABLE chats ADD COLUMN tournaments_open INTEGER NOT NULL DEFAULT 0;
