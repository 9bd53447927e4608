-- A database made before the time per move has tapis_tables without
-- turn_ms, which migration 1's IF NOT EXISTS left as it was: its tables
-- have no time per move (0). SQLite, which has no ADD COLUMN IF NOT
-- EXISTS, does the same in Go (migrate.go).

-- +goose Up
ALTER TABLE tapis_tables ADD COLUMN IF NOT EXISTS turn_ms bigint NOT NULL DEFAULT 0;
