-- The server's secret (store/secret.go), which keys its bots' seeds and
-- its device cookies: kept here so that every node of a cluster, and a
-- restarted one, has the same. A row per secret, by name; the value is
-- raw bytes.

-- +goose Up
CREATE TABLE tapis_secrets (
	name  text PRIMARY KEY,
	value bytea NOT NULL
);
