-- Turn-based tables' clocks (issue 29; store/clock.go): a row per table
-- played over days, its clocks as JSON and its next deadline (Unix
-- milliseconds, NULL for none), indexed so that a node finds the tables
-- whose deadline has passed without reading the others.

-- +goose Up
CREATE TABLE tapis_clocks (
	table_id TEXT PRIMARY KEY,
	deadline INTEGER,
	clock    TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX tapis_clocks_deadline ON tapis_clocks (deadline) WHERE deadline IS NOT NULL;
