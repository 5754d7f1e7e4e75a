-- migrations/015_series.sql
ALTER TABLE games ADD COLUMN goal TEXT NOT NULL DEFAULT '';
ALTER TABLE games ADD COLUMN series BIGINT;
CREATE INDEX games_by_series ON games (series);
