-- The schema as it was when migrations began (turn_ms included), in
-- PostgreSQL's types. IF NOT EXISTS adopts a database made before then,
-- which has these tables and no version table, without touching its rows;
-- one made before turn_ms gains that column in migration 2. The tables
-- carry a tapis_ prefix and no schema name, so they land in the
-- connection's search_path: Tapis can share a database, and a schema of
-- its own is one "?search_path=tapis" away.

-- +goose Up
CREATE TABLE IF NOT EXISTS tapis_tables (
	id      text PRIMARY KEY,
	game    text NOT NULL,
	players integer NOT NULL,
	options text NOT NULL,
	created timestamptz NOT NULL,
	turn_ms bigint NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS tapis_seats (
	table_id   text NOT NULL,
	seat       integer NOT NULL,
	name       text NOT NULL,
	bot        text NOT NULL,
	token_hash text NOT NULL,
	PRIMARY KEY (table_id, seat)
);
CREATE TABLE IF NOT EXISTS tapis_matches (
	table_id text NOT NULL,
	no       integer NOT NULL,
	seed     bigint NOT NULL,
	over     boolean NOT NULL DEFAULT false,
	PRIMARY KEY (table_id, no)
);
CREATE TABLE IF NOT EXISTS tapis_moves (
	table_id text NOT NULL,
	no       integer NOT NULL,
	idx      integer NOT NULL,
	seat     integer NOT NULL,
	move     text NOT NULL,
	PRIMARY KEY (table_id, no, idx)
);
