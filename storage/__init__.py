"""The database: SQLite through aiosqlite (a file, the default) or PostgreSQL through psycopg 3 (a URL), behind
one Database; migrations in both dialects, the repository (all SQL). Imports only durak of ours."""
