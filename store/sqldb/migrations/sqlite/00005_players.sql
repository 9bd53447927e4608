-- Players and what comes with them: who sits at a seat (seats.player, ''
-- for a bot or a seat taken with a name only), whether a table is listed
-- in the lobby (public) and in which language (lang), the players
-- themselves, their sessions, the quick-match queue and each table's
-- chat. A table made before this migration is private, with no language,
-- and its seats have no player: it stays reachable by its link only, as
-- it was.
--
-- A guest has no username: username_key is '' and the partial unique
-- index holds only claimed usernames. Times are Unix milliseconds, as in
-- tables.

-- +goose Up
ALTER TABLE seats ADD COLUMN player TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
ALTER TABLE tables ADD COLUMN lang TEXT NOT NULL DEFAULT '';
CREATE INDEX seats_player ON seats (player) WHERE player <> '';
CREATE INDEX tables_waiting ON tables (created) WHERE public = 1 AND closed = '';

CREATE TABLE players (
	id           TEXT PRIMARY KEY,
	name         TEXT NOT NULL,
	username     TEXT NOT NULL DEFAULT '',
	username_key TEXT NOT NULL DEFAULT '',
	password     TEXT NOT NULL DEFAULT '',
	created      INTEGER NOT NULL,
	deleted      INTEGER NOT NULL DEFAULT 0
);
CREATE UNIQUE INDEX players_username ON players (username_key) WHERE username_key <> '';

CREATE TABLE sessions (
	hash    TEXT PRIMARY KEY,
	player  TEXT NOT NULL,
	created INTEGER NOT NULL,
	expires INTEGER NOT NULL
);
CREATE INDEX sessions_player ON sessions (player);
CREATE INDEX sessions_expires ON sessions (expires);

CREATE TABLE queue (
	player   TEXT PRIMARY KEY,
	name     TEXT NOT NULL,
	game     TEXT NOT NULL,
	players  INTEGER NOT NULL,
	bot      TEXT NOT NULL,
	wait_ms  INTEGER NOT NULL,
	joined   INTEGER NOT NULL,
	table_id TEXT NOT NULL DEFAULT '',
	seat     INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX queue_waiting ON queue (game, joined) WHERE table_id = '';

CREATE TABLE chat (
	table_id TEXT NOT NULL,
	no       INTEGER NOT NULL,
	seat     INTEGER NOT NULL,
	player   TEXT NOT NULL,
	name     TEXT NOT NULL,
	text     TEXT NOT NULL,
	at       INTEGER NOT NULL,
	PRIMARY KEY (table_id, no)
) WITHOUT ROWID;
CREATE INDEX chat_player ON chat (player) WHERE player <> '';
