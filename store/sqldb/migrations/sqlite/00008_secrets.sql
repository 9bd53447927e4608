-- The server's secret (store/secret.go), which keys its bots' seeds and
-- its device cookies: kept here so that a restarted server has the same
-- one. A row per secret, by name; the value is raw bytes.

-- +goose Up
CREATE TABLE secrets (
	name  TEXT PRIMARY KEY,
	value BLOB NOT NULL
) WITHOUT ROWID;
