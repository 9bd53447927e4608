-- Turn-based tables' clocks (issue 29), as SQLite's migration 11 says.

-- +goose Up
CREATE TABLE tapis_clocks (
	table_id text PRIMARY KEY,
	deadline bigint,
	clock    text NOT NULL
);
CREATE INDEX tapis_clocks_deadline ON tapis_clocks (deadline) WHERE deadline IS NOT NULL;
