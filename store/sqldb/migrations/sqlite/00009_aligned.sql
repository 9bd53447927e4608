-- The two schemas aligned (issue 25): SQLite's tables and indexes take
-- PostgreSQL's names (tapis_tables, ...), so that the statements both
-- stores run are written once (store/query.go). Times were already
-- integers of Unix milliseconds here, as they now are in PostgreSQL too.
-- SQLite has no ALTER INDEX ... RENAME: an index is made again under its
-- new name. RENAME keeps every row and moves the indexes with the table.

-- +goose Up
ALTER TABLE tables RENAME TO tapis_tables;
ALTER TABLE seats RENAME TO tapis_seats;
ALTER TABLE matches RENAME TO tapis_matches;
ALTER TABLE moves RENAME TO tapis_moves;
ALTER TABLE players RENAME TO tapis_players;
ALTER TABLE sessions RENAME TO tapis_sessions;
ALTER TABLE queue RENAME TO tapis_queue;
ALTER TABLE chat RENAME TO tapis_chat;
ALTER TABLE ratings RENAME TO tapis_ratings;
ALTER TABLE rated_matches RENAME TO tapis_rated_matches;
ALTER TABLE rated_results RENAME TO tapis_rated_results;
ALTER TABLE secrets RENAME TO tapis_secrets;

DROP INDEX tables_open;
CREATE INDEX tapis_tables_open ON tapis_tables (id) WHERE closed = '';
DROP INDEX tables_waiting;
CREATE INDEX tapis_tables_waiting ON tapis_tables (created) WHERE public = 1 AND closed = '';
DROP INDEX seats_player;
CREATE INDEX tapis_seats_player ON tapis_seats (player) WHERE player <> '';
DROP INDEX players_username;
CREATE UNIQUE INDEX tapis_players_username ON tapis_players (username_key) WHERE username_key <> '';
DROP INDEX sessions_player;
CREATE INDEX tapis_sessions_player ON tapis_sessions (player);
DROP INDEX sessions_expires;
CREATE INDEX tapis_sessions_expires ON tapis_sessions (expires);
DROP INDEX queue_waiting;
CREATE INDEX tapis_queue_waiting ON tapis_queue (game, joined) WHERE table_id = '';
DROP INDEX chat_player;
CREATE INDEX tapis_chat_player ON tapis_chat (player) WHERE player <> '';
DROP INDEX ratings_board;
CREATE INDEX tapis_ratings_board ON tapis_ratings (game, ordinal DESC, player) WHERE fixed = 0;
DROP INDEX rated_results_player;
CREATE INDEX tapis_rated_results_player ON tapis_rated_results (player, at);
