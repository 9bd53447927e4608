-- The two schemas aligned (issue 25): every time is an integer of Unix
-- milliseconds (bigint), as SQLite has always kept them, so that the
-- statements both stores run are written once (store/query.go) with the
-- same arguments. Tapis keeps times to the millisecond, so the old values
-- convert exactly; floor keeps any finer one as Go's UnixMilli would.
-- The names were already the same (SQLite took PostgreSQL's).
-- tapis_leases keeps timestamptz: it is PostgreSQL's alone, and compares
-- with the database's clock (clock_timestamp()).

-- +goose Up
ALTER TABLE tapis_tables
	ALTER COLUMN created TYPE bigint USING floor(extract(epoch FROM created) * 1000)::bigint,
	ALTER COLUMN active TYPE bigint USING floor(extract(epoch FROM active) * 1000)::bigint;
ALTER TABLE tapis_players
	ALTER COLUMN created TYPE bigint USING floor(extract(epoch FROM created) * 1000)::bigint;
ALTER TABLE tapis_sessions
	ALTER COLUMN created TYPE bigint USING floor(extract(epoch FROM created) * 1000)::bigint,
	ALTER COLUMN expires TYPE bigint USING floor(extract(epoch FROM expires) * 1000)::bigint;
ALTER TABLE tapis_queue
	ALTER COLUMN joined TYPE bigint USING floor(extract(epoch FROM joined) * 1000)::bigint;
ALTER TABLE tapis_chat
	ALTER COLUMN at TYPE bigint USING floor(extract(epoch FROM at) * 1000)::bigint;
ALTER TABLE tapis_rated_matches
	ALTER COLUMN at TYPE bigint USING floor(extract(epoch FROM at) * 1000)::bigint;
ALTER TABLE tapis_rated_results
	ALTER COLUMN at TYPE bigint USING floor(extract(epoch FROM at) * 1000)::bigint;
