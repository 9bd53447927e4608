-- Rated games (store/ratings.go): whether a table is rated, each player's
-- rating per game (ratings; fixed rows are the bots' anchors), every
-- rated match recorded once (rated_matches, its key what makes a replayed
-- end harmless) and a row per seat of it (rated_results). ordinal is
-- mu - 3 sigma, kept as a column so that the leaderboard reads an index in
-- order. Times are Unix milliseconds, as in tables.

-- +goose Up
ALTER TABLE tables ADD COLUMN rated INTEGER NOT NULL DEFAULT 0;

CREATE TABLE ratings (
	player  TEXT NOT NULL,
	game    TEXT NOT NULL,
	mu      REAL NOT NULL,
	sigma   REAL NOT NULL,
	ordinal REAL NOT NULL,
	games   INTEGER NOT NULL,
	wins    INTEGER NOT NULL,
	fixed   INTEGER NOT NULL DEFAULT 0,
	PRIMARY KEY (player, game)
) WITHOUT ROWID;
CREATE INDEX ratings_board ON ratings (game, ordinal DESC, player) WHERE fixed = 0;

CREATE TABLE rated_matches (
	table_id TEXT NOT NULL,
	no       INTEGER NOT NULL,
	game     TEXT NOT NULL,
	at       INTEGER NOT NULL,
	PRIMARY KEY (table_id, no)
) WITHOUT ROWID;

CREATE TABLE rated_results (
	table_id     TEXT NOT NULL,
	no           INTEGER NOT NULL,
	seat         INTEGER NOT NULL,
	game         TEXT NOT NULL,
	players      INTEGER NOT NULL,
	player       TEXT NOT NULL,
	rank         INTEGER NOT NULL,
	score        INTEGER NOT NULL,
	mu_before    REAL NOT NULL,
	sigma_before REAL NOT NULL,
	mu_after     REAL NOT NULL,
	sigma_after  REAL NOT NULL,
	at           INTEGER NOT NULL,
	PRIMARY KEY (table_id, no, seat)
) WITHOUT ROWID;
CREATE INDEX rated_results_player ON rated_results (player, at);
