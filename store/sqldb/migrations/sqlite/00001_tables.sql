-- The schema as it was when migrations began (turn_ms included). IF NOT
-- EXISTS adopts a database made before then, which has these tables and
-- no version table, without touching its rows; one made before turn_ms
-- gains that column in migration 2.

-- +goose Up
CREATE TABLE IF NOT EXISTS tables (
	id      TEXT PRIMARY KEY,
	game    TEXT NOT NULL,
	players INTEGER NOT NULL,
	options TEXT NOT NULL,
	created INTEGER NOT NULL,
	turn_ms INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS seats (
	table_id   TEXT NOT NULL,
	seat       INTEGER NOT NULL,
	name       TEXT NOT NULL,
	bot        TEXT NOT NULL,
	token_hash TEXT NOT NULL,
	PRIMARY KEY (table_id, seat)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS matches (
	table_id TEXT NOT NULL,
	no       INTEGER NOT NULL,
	seed     INTEGER NOT NULL,
	over     INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (table_id, no)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS moves (
	table_id TEXT NOT NULL,
	no       INTEGER NOT NULL,
	idx      INTEGER NOT NULL,
	seat     INTEGER NOT NULL,
	move     TEXT NOT NULL,
	PRIMARY KEY (table_id, no, idx)
) WITHOUT ROWID;
