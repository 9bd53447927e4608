-- Post-game analysis and the coach (issue 27; store/analysis.go). A
-- finished match's analysis is kept once computed, as its JSON report: it
-- is never computed twice. A table created with the coach on lets its
-- players ask for hints (never a rated one); the hints each seat used in
-- a match are counted for the score sheet. A table made before this
-- migration has no coach.

-- +goose Up
CREATE TABLE tapis_analyses (
	table_id TEXT NOT NULL,
	match_no INTEGER NOT NULL,
	report   BLOB NOT NULL,
	created  INTEGER NOT NULL,
	PRIMARY KEY (table_id, match_no)
) WITHOUT ROWID;

CREATE TABLE tapis_hints (
	table_id TEXT NOT NULL,
	match_no INTEGER NOT NULL,
	seat     INTEGER NOT NULL,
	used     INTEGER NOT NULL,
	PRIMARY KEY (table_id, match_no, seat)
) WITHOUT ROWID;

ALTER TABLE tapis_tables ADD COLUMN coach INTEGER NOT NULL DEFAULT 0;
