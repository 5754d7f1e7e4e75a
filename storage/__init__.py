"""The database: SQLite through aiosqlite (a file, the default) or PostgreSQL through psycopg 3 (a URL), behind
one Database; migrations in both dialects, the repository by aggregate (storage.rows says where each SQL is).
Imports only durak of ours."""
