-- Players and what comes with them: who sits at a seat (seats.player, ''
-- for a bot or a seat taken with a name only), whether a table is listed
-- in the lobby (public) and in which language (lang), the players
-- themselves, their sessions, the quick-match queue and each table's
-- chat. A table made before this migration is private, with no language,
-- and its seats have no player: it stays reachable by its link only, as
-- it was.
--
-- A guest has no username: username_key is '' and the partial unique
-- index holds only claimed usernames.

-- +goose Up
ALTER TABLE tapis_seats ADD COLUMN player text NOT NULL DEFAULT '';
ALTER TABLE tapis_tables ADD COLUMN public boolean NOT NULL DEFAULT false;
ALTER TABLE tapis_tables ADD COLUMN lang text NOT NULL DEFAULT '';
CREATE INDEX tapis_seats_player ON tapis_seats (player) WHERE player <> '';
CREATE INDEX tapis_tables_waiting ON tapis_tables (created) WHERE public AND closed = '';

CREATE TABLE tapis_players (
	id           text PRIMARY KEY,
	name         text NOT NULL,
	username     text NOT NULL DEFAULT '',
	username_key text NOT NULL DEFAULT '',
	password     text NOT NULL DEFAULT '',
	created      timestamptz NOT NULL,
	deleted      boolean NOT NULL DEFAULT false
);
CREATE UNIQUE INDEX tapis_players_username ON tapis_players (username_key) WHERE username_key <> '';

CREATE TABLE tapis_sessions (
	hash    text PRIMARY KEY,
	player  text NOT NULL,
	created timestamptz NOT NULL,
	expires timestamptz NOT NULL
);
CREATE INDEX tapis_sessions_player ON tapis_sessions (player);
CREATE INDEX tapis_sessions_expires ON tapis_sessions (expires);

CREATE TABLE tapis_queue (
	player   text PRIMARY KEY,
	name     text NOT NULL,
	game     text NOT NULL,
	players  integer NOT NULL,
	bot      text NOT NULL,
	wait_ms  bigint NOT NULL,
	joined   timestamptz NOT NULL,
	table_id text NOT NULL DEFAULT '',
	seat     integer NOT NULL DEFAULT 0
);
CREATE INDEX tapis_queue_waiting ON tapis_queue (game, joined) WHERE table_id = '';

CREATE TABLE tapis_chat (
	table_id text NOT NULL,
	no       integer NOT NULL,
	seat     integer NOT NULL,
	player   text NOT NULL,
	name     text NOT NULL,
	text     text NOT NULL,
	at       timestamptz NOT NULL,
	PRIMARY KEY (table_id, no)
);
CREATE INDEX tapis_chat_player ON tapis_chat (player) WHERE player <> '';
