-- migrations/005_notify.sql
ALTER TABLE users ADD COLUMN notify INTEGER NOT NULL DEFAULT 1;
