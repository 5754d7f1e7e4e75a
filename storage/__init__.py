"""SQLite storage through aiosqlite: migrations and repositories. Imports only durak of ours."""
