-- Computer players: users of their own (negative ids, never a Telegram user), so that a computer
-- seat is a seat like any other. Level l (1 easy, 2 normal, 3 hard), k-th computer of that level in a
-- game (1-5): id -(1000 + 10 l + k). Hidden: never listed on leaderboards; never rated.
INSERT OR IGNORE INTO users (id, name, hidden, notify, updated_at) VALUES
    (-1011, '🤖★', 1, 0, 0),
    (-1012, '🤖★ 2', 1, 0, 0),
    (-1013, '🤖★ 3', 1, 0, 0),
    (-1014, '🤖★ 4', 1, 0, 0),
    (-1015, '🤖★ 5', 1, 0, 0),
    (-1021, '🤖★★', 1, 0, 0),
    (-1022, '🤖★★ 2', 1, 0, 0),
    (-1023, '🤖★★ 3', 1, 0, 0),
    (-1024, '🤖★★ 4', 1, 0, 0),
    (-1025, '🤖★★ 5', 1, 0, 0),
    (-1031, '🤖★★★', 1, 0, 0),
    (-1032, '🤖★★★ 2', 1, 0, 0),
    (-1033, '🤖★★★ 3', 1, 0, 0),
    (-1034, '🤖★★★ 4', 1, 0, 0),
    (-1035, '🤖★★★ 5', 1, 0, 0);
