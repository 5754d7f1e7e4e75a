-- Who may open a tournament in a group (bot/game/tournaments.py): its admins, or anyone once the admins give leave
-- (/tournament anyone; /tournament admins takes it back)
ALTER TABLE chats ADD COLUMN tournaments_open INTEGER NOT NULL DEFAULT 0;
-- In a forum, a tournament's tables play in topics of their own ("🏆 Table 1", …), each used again by the next table
-- once its table ends; topics = 0 where the group has none or the bot may not create them
ALTER TABLE tournaments ADD COLUMN topics INTEGER NOT NULL DEFAULT 0;
CREATE TABLE tournament_topics (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    number        INTEGER NOT NULL,
    thread_id     INTEGER NOT NULL,
    PRIMARY KEY (tournament_id, number)
);
