-- Who may open a tournament in a group (bot/game/tournaments.py): its admins, or anyone once the admins give leave
-- (/tournament anyone; /tournament admins takes it back)
ALTER TABLE chats ADD COLUMN tournaments_open INTEGER NOT NULL DEFAULT 0;
