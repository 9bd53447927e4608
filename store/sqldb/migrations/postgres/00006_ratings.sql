-- Rated games (store/ratings.go): whether a table is rated, each player's
-- rating per game (tapis_ratings; fixed rows are the bots' anchors), every
-- rated match recorded once (tapis_rated_matches, its key what makes a
-- replayed end harmless) and a row per seat of it (tapis_rated_results).
-- ordinal is mu - 3 sigma, kept as a column so that the leaderboard reads
-- an index in order.

-- +goose Up
ALTER TABLE tapis_tables ADD COLUMN rated boolean NOT NULL DEFAULT false;

CREATE TABLE tapis_ratings (
	player  text COLLATE "C" NOT NULL,
	game    text NOT NULL,
	mu      double precision NOT NULL,
	sigma   double precision NOT NULL,
	ordinal double precision NOT NULL,
	games   integer NOT NULL,
	wins    integer NOT NULL,
	fixed   boolean NOT NULL DEFAULT false,
	PRIMARY KEY (player, game)
);
CREATE INDEX tapis_ratings_board ON tapis_ratings (game, ordinal DESC, player) WHERE NOT fixed;

CREATE TABLE tapis_rated_matches (
	table_id text NOT NULL,
	no       integer NOT NULL,
	game     text NOT NULL,
	at       timestamptz NOT NULL,
	PRIMARY KEY (table_id, no)
);

CREATE TABLE tapis_rated_results (
	table_id     text NOT NULL,
	no           integer NOT NULL,
	seat         integer NOT NULL,
	game         text NOT NULL,
	players      integer NOT NULL,
	player       text NOT NULL,
	rank         integer NOT NULL,
	score        integer NOT NULL,
	mu_before    double precision NOT NULL,
	sigma_before double precision NOT NULL,
	mu_after     double precision NOT NULL,
	sigma_after  double precision NOT NULL,
	at           timestamptz NOT NULL,
	PRIMARY KEY (table_id, no, seat)
);
CREATE INDEX tapis_rated_results_player ON tapis_rated_results (player, at);
