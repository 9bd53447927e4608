package sqldb_test

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"tapis/store"
	"tapis/store/postgres"
	"tapis/store/sqlite"
	"tapis/store/storetest"
)

// The schemas of the versions before migrations, as they made databases:
// with turn_ms (the last of them) and before it. The tests build them by
// hand, as those versions did, and put in rows that must come back.
const (
	sqliteBeforeGoose = `
CREATE TABLE tables (id TEXT PRIMARY KEY, game TEXT NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL, created INTEGER NOT NULL, turn_ms INTEGER NOT NULL DEFAULT 0);
CREATE TABLE seats (table_id TEXT NOT NULL, seat INTEGER NOT NULL, name TEXT NOT NULL, bot TEXT NOT NULL, token_hash TEXT NOT NULL, PRIMARY KEY (table_id, seat)) WITHOUT ROWID;
CREATE TABLE matches (table_id TEXT NOT NULL, no INTEGER NOT NULL, seed INTEGER NOT NULL, over INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (table_id, no)) WITHOUT ROWID;
CREATE TABLE moves (table_id TEXT NOT NULL, no INTEGER NOT NULL, idx INTEGER NOT NULL, seat INTEGER NOT NULL, move TEXT NOT NULL, PRIMARY KEY (table_id, no, idx)) WITHOUT ROWID;
INSERT INTO tables VALUES ('old', 'cabo', 3, '{"hand_size":4}', 1000, 60000), ('done', 'cabo', 2, '{}', 2000, 0);`
	postgresBeforeGoose = `
CREATE TABLE tapis_tables (id text PRIMARY KEY, game text NOT NULL, players integer NOT NULL, options text NOT NULL, created timestamptz NOT NULL, turn_ms bigint NOT NULL DEFAULT 0);
CREATE TABLE tapis_seats (table_id text NOT NULL, seat integer NOT NULL, name text NOT NULL, bot text NOT NULL, token_hash text NOT NULL, PRIMARY KEY (table_id, seat));
CREATE TABLE tapis_matches (table_id text NOT NULL, no integer NOT NULL, seed bigint NOT NULL, over boolean NOT NULL DEFAULT false, PRIMARY KEY (table_id, no));
CREATE TABLE tapis_moves (table_id text NOT NULL, no integer NOT NULL, idx integer NOT NULL, seat integer NOT NULL, move text NOT NULL, PRIMARY KEY (table_id, no, idx));
INSERT INTO tapis_tables VALUES ('old', 'cabo', 3, '{"hand_size":4}', to_timestamp(1), 60000), ('done', 'cabo', 2, '{}', to_timestamp(2), 0);`
	// The rows common to both, in either SQL: a table mid-match with a
	// free seat, and a finished one.
	rowsBeforeGoose = `
INSERT INTO {seats} VALUES ('old', 0, 'Ann', '', 'h1'), ('old', 1, 'random', 'random', ''), ('old', 2, '', '', ''), ('done', 0, 'Bob', '', 'h2'), ('done', 1, 'random', 'random', '');
INSERT INTO {matches} VALUES ('old', 1, 42, {false}), ('done', 1, 7, {true});
INSERT INTO {moves} VALUES ('old', 1, 0, 0, '{"type":"draw"}'), ('old', 1, 1, 0, '{"type":"discard"}');`
)

// sqliteRows and postgresRows are rowsBeforeGoose in each SQL.
var (
	sqliteRows = strings.NewReplacer("{seats}", "seats", "{matches}", "matches", "{moves}", "moves",
		"{false}", "0", "{true}", "1").Replace(rowsBeforeGoose)
	postgresRows = strings.NewReplacer("{seats}", "tapis_seats", "{matches}", "tapis_matches", "{moves}", "tapis_moves",
		"{false}", "false", "{true}", "true").Replace(rowsBeforeGoose)
)

// beforeTurnTime turns a schema of the last version before migrations
// into the one before the time per move: no turn_ms column, so the rows
// have one value fewer.
func beforeTurnTime(schema string) string {
	return strings.NewReplacer(", turn_ms INTEGER NOT NULL DEFAULT 0", "", ", turn_ms bigint NOT NULL DEFAULT 0", "",
		", 60000)", ")", ", 0);", ");").Replace(schema)
}

// A database made by the versions before migrations, with or without the
// time per move, is adopted: it opens, gains the new columns, and every
// table reads back as it was, now with its lifecycle (open, last active
// when created). Opening it again applies no migration twice.
func TestSQLiteAdoptsOlderDatabase(t *testing.T) {
	for name, schema := range map[string]string{"last": sqliteBeforeGoose, "before-turn-time": beforeTurnTime(sqliteBeforeGoose)} {
		t.Run(name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "old.db")
			db, err := sql.Open("sqlite", "file:"+path)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := db.Exec(schema + sqliteRows); err != nil {
				t.Fatal(err)
			}
			db.Close()
			turn := time.Minute
			if name != "last" {
				turn = 0
			}
			checkAdopted(t, func(t *testing.T) store.Store {
				s, err := sqlite.Open(path)
				if err != nil {
					t.Fatalf("opening the old database: %v", err)
				}
				return s
			}, turn, func(t *testing.T, s store.Store) []int64 {
				return sqliteVersions(t, path)
			})
		})
	}
}

// A database file kept as it was written before migrations (made once
// from sqliteBeforeGoose and its rows, and never rewritten) upgrades in
// place: its copy opens with every migration, and reads back whole.
func TestSQLiteUpgradesKeptFile(t *testing.T) {
	old, err := os.ReadFile(filepath.Join("testdata", "before-goose.db"))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "kept.db")
	if err := os.WriteFile(path, old, 0o644); err != nil {
		t.Fatal(err)
	}
	checkAdopted(t, func(t *testing.T) store.Store {
		s, err := sqlite.Open(path)
		if err != nil {
			t.Fatalf("opening the kept database: %v", err)
		}
		return s
	}, time.Minute, func(t *testing.T, s store.Store) []int64 {
		return sqliteVersions(t, path)
	})
}

// The same on PostgreSQL.
func TestPostgresAdoptsOlderDatabase(t *testing.T) {
	for name, schema := range map[string]string{"last": postgresBeforeGoose, "before-turn-time": beforeTurnTime(postgresBeforeGoose)} {
		t.Run(name, func(t *testing.T) {
			dsn := storetest.PostgresURL(t, t)
			storetest.PostgresExec(t, dsn, schema+postgresRows)
			turn := time.Minute
			if name != "last" {
				turn = 0
			}
			checkAdopted(t, func(t *testing.T) store.Store {
				s, err := postgres.Open(context.Background(), dsn)
				if err != nil {
					t.Fatalf("opening the old database: %v", err)
				}
				return s
			}, turn, func(t *testing.T, s store.Store) []int64 {
				conn, err := pgx.Connect(context.Background(), dsn)
				if err != nil {
					t.Fatal(err)
				}
				defer conn.Close(context.Background())
				rows, err := conn.Query(context.Background(), `SELECT version_id FROM tapis_goose_db_version ORDER BY id`)
				if err != nil {
					t.Fatal(err)
				}
				v, err := pgx.CollectRows(rows, pgx.RowTo[int64])
				if err != nil {
					t.Fatal(err)
				}
				return v
			})
		})
	}
}

// sqliteVersions lists the schema versions recorded in the SQLite database
// at path, read on a connection of its own.
func sqliteVersions(t *testing.T, path string) []int64 {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	return versions(t, db.QueryContext, "goose_db_version")
}

// versions lists the schema versions recorded in a SQLite database, in
// the order they were applied.
func versions(t *testing.T, query func(context.Context, string, ...any) (*sql.Rows, error), table string) []int64 {
	t.Helper()
	rows, err := query(context.Background(), `SELECT version_id FROM `+table+` ORDER BY id`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var v []int64
	for rows.Next() {
		var n int64
		if err := rows.Scan(&n); err != nil {
			t.Fatal(err)
		}
		v = append(v, n)
	}
	return v
}

// checkAdopted opens the database made with the rows of rowsBeforeGoose
// twice, and checks that it reads back, takes new tables and lifecycle
// writes, and records each migration once. turn is table old's time per
// move.
func checkAdopted(t *testing.T, open func(*testing.T) store.Store, turn time.Duration, applied func(*testing.T, store.Store) []int64) {
	ctx := context.Background()
	var secret []byte
	for round := 0; round < 2; round++ {
		s := open(t)
		// The server's secret (migration 8) is made in the old database,
		// and kept.
		sec, err := s.Secret(ctx)
		must(t, err)
		if round == 0 {
			secret = sec
		}
		if len(sec) != store.SecretBytes || !bytes.Equal(sec, secret) {
			t.Fatalf("round %d: the server's secret is %d bytes, or another than round 0's", round, len(sec))
		}
		got, err := s.Open(ctx)
		must(t, err)
		old := store.Summary{ID: "old", Game: "cabo", Players: 3, Created: time.UnixMilli(1000), Active: time.UnixMilli(1000),
			Started: true, Seated: 2}
		if round == 1 {
			old.Active = time.UnixMilli(5000)
		}
		if len(got) != 1 || !reflect.DeepEqual(got[0], old) {
			t.Fatalf("round %d: open tables %+v, want only %+v", round, got, old)
		}
		o, err := s.Load(ctx, "old")
		must(t, err)
		wantSeats := []store.Seat{{Name: "Ann", TokenHash: "h1"}, {Name: "random", Bot: "random"}, {}}
		// Made before hosts and the memory aid: no host, the aid off;
		// before players and the lobby: private, no language, and no
		// player at its seats (wantSeats has none).
		if string(o.Options) != `{"hand_size":4}` || o.TurnTime != turn || o.Closed != store.NotClosed || !reflect.DeepEqual(o.Seats, wantSeats) ||
			o.Host != -1 || o.MemoryAid || o.Public || o.Lang != "" {
			t.Fatalf("round %d: the old table read back as %+v", round, o)
		}
		if o.Match == nil || o.Match.Seed != 42 || o.Match.Over || len(o.Match.Moves) != 2 || string(o.Match.Moves[1].Move) != `{"type":"discard"}` {
			t.Fatalf("round %d: the old match read back as %+v", round, o.Match)
		}
		d, err := s.Load(ctx, "done")
		must(t, err)
		if d.Match == nil || !d.Match.Over || d.Seats[0].Name != "Bob" || !d.Created.Equal(time.UnixMilli(2000)) {
			t.Fatalf("round %d: the finished table read back as %+v", round, d)
		}
		if round == 0 {
			must(t, s.CreateTable(ctx, store.Table{ID: "new", Game: "cabo", Players: 2, Seats: []store.Seat{{}, {}}, TurnTime: time.Minute,
				Created: time.UnixMilli(3000), Creator: "198.51.100.7", Host: 1, MemoryAid: true}, &store.Start{No: 1, Seed: 9}))
			must(t, s.Touch(ctx, "old", time.UnixMilli(5000)))
			must(t, s.CloseTable(ctx, "new", store.Expired, "nobody came"))
		} else {
			n, err := s.Load(ctx, "new")
			must(t, err)
			if n.TurnTime != time.Minute || n.Creator != "198.51.100.7" || n.Closed != store.Expired || n.Reason != "nobody came" || n.Match.Seed != 9 ||
				n.Host != 1 || !n.MemoryAid {
				t.Fatalf("a new table in the old database: %+v", n)
			}
		}
		if v := applied(t, s); !reflect.DeepEqual(v, []int64{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}) {
			t.Fatalf("round %d: versions applied %v, want each of 0 to 12 once", round, v)
		}
		must(t, s.Close())
	}
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
