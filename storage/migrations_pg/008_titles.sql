-- migrations/008_titles.sql
ALTER TABLE games ADD COLUMN title TEXT NOT NULL DEFAULT '';
