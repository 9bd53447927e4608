package sqldb_test

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/hex"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"tapis/store"
	"tapis/store/postgres"
	"tapis/store/sqldb"
	"tapis/store/sqlite"
	"tapis/store/storetest"
)

// rowsVersion8 fills every table of schema version 8 (the last before the
// two schemas were aligned) with one row or two, written as that version
// wrote them: {t} is the tables' prefix, {ms N} a time of N Unix
// milliseconds, {bool 0|1} a boolean and {secret} the server's secret, in
// each SQL's own way.
const rowsVersion8 = `
INSERT INTO {t}tables (id, game, players, options, created, turn_ms, closed, reason, creator, active, host, memory_aid, public, lang, rated)
  VALUES ('t1', 'cabo', 2, '{"hand_size":4}', {ms 1700000000123}, 90000, '', '', '198.51.100.7', {ms 1700000000456}, 0, {bool 1}, {bool 1}, 'fr', {bool 1}),
         ('t2', 'limits', 3, '{}', {ms 1700000001000}, 0, 'expired', 'nobody came', '', {ms 1700000002000}, -1, {bool 0}, {bool 0}, '', {bool 0});
INSERT INTO {t}seats (table_id, seat, name, bot, token_hash, player)
  VALUES ('t1', 0, 'Ann', '', 'h1', 'p1'), ('t1', 1, 'random', 'random', '', ''), ('t2', 0, '', '', '', '');
INSERT INTO {t}matches (table_id, no, seed, over) VALUES ('t1', 1, 42, {bool 1}), ('t1', 2, 43, {bool 0});
INSERT INTO {t}moves (table_id, no, idx, seat, move)
  VALUES ('t1', 1, 0, 0, '{"type":"draw"}'), ('t1', 2, 0, 1, '{"type":"knock"}'), ('t1', 2, 1, 0, '{"type":"draw"}');
INSERT INTO {t}players (id, name, username, username_key, password, created, deleted)
  VALUES ('p1', 'Ann', 'Ann', 'ann', 'hash', {ms 1700000000789}, {bool 0}), ('p2', '', '', '', '', {ms 1700000000999}, {bool 1});
INSERT INTO {t}sessions (hash, player, created, expires) VALUES ('s1', 'p1', {ms 1700000003000}, {ms 1800000000000});
INSERT INTO {t}queue (player, name, game, players, bot, wait_ms, joined, table_id, seat)
  VALUES ('p1', 'Ann', 'cabo', 2, 'random', 30000, {ms 1700000004000}, 't1', 0);
INSERT INTO {t}chat (table_id, no, seat, player, name, text, at) VALUES ('t1', 1, 0, 'p1', 'Ann', 'hello', {ms 1700000005000});
INSERT INTO {t}ratings (player, game, mu, sigma, ordinal, games, wins, fixed)
  VALUES ('p1', 'cabo', 26.5, 7.5, 4, 1, 1, {bool 0}), ('bot:random', 'cabo', 20, 1, 17, 1, 0, {bool 1});
INSERT INTO {t}rated_matches (table_id, no, game, at) VALUES ('t1', 1, 'cabo', {ms 1700000006000});
INSERT INTO {t}rated_results (table_id, no, seat, game, players, player, rank, score, mu_before, sigma_before, mu_after, sigma_after, at)
  VALUES ('t1', 1, 0, 'cabo', 2, 'p1', 0, 10, 25, 8.25, 26.5, 7.5, {ms 1700000006000}),
         ('t1', 1, 1, 'cabo', 2, 'bot:random', 1, 20, 20, 1, 20, 1, {ms 1700000006000});
INSERT INTO {t}secrets (name, value) VALUES ('server', {secret});`

// secretVersion8 is the secret rowsVersion8 keeps.
var secretVersion8 = bytes.Repeat([]byte{0xa5, 0x5a}, store.SecretBytes/2)

// version8Rows writes rowsVersion8 in one SQL: prefix names the tables,
// ms, boolean and secret write a value.
func version8Rows(prefix string, ms func(n string) string, boolean [2]string, secret string) string {
	s := strings.ReplaceAll(rowsVersion8, "{t}", prefix)
	s = strings.NewReplacer("{bool 0}", boolean[0], "{bool 1}", boolean[1], "{secret}", secret).Replace(s)
	for {
		i := strings.Index(s, "{ms ")
		if i < 0 {
			return s
		}
		j := i + strings.IndexByte(s[i:], '}')
		s = s[:i] + ms(s[i+len("{ms "):j]) + s[j+1:]
	}
}

// A SQLite database of schema version 8 (names without a prefix) is
// migrated to the aligned schema with every row kept.
func TestSQLiteAlignsVersion8(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v8.db")
	db, err := sql.Open("sqlite", "file:"+path)
	must(t, err)
	must(t, sqldb.MigrateSQLite(context.Background(), db, 8))
	rows := version8Rows("", func(n string) string { return n }, [2]string{"0", "1"}, "x'"+hex.EncodeToString(secretVersion8)+"'")
	_, err = db.Exec(rows)
	must(t, err)
	must(t, db.Close())
	s, err := sqlite.Open(path)
	must(t, err)
	defer s.Close()
	checkVersion8(t, s)
	db, err = sql.Open("sqlite", "file:"+path)
	must(t, err)
	defer db.Close()
	var names []string
	r, err := db.Query(`SELECT name FROM sqlite_master WHERE type IN ('table', 'index') AND name NOT LIKE 'sqlite_%' AND name <> 'goose_db_version' ORDER BY name`)
	must(t, err)
	for r.Next() {
		var n string
		must(t, r.Scan(&n))
		names = append(names, n)
	}
	must(t, r.Err())
	for _, n := range names {
		if !strings.HasPrefix(n, "tapis_") {
			t.Errorf("%s keeps its old name (all: %v)", n, names)
		}
	}
	// Migration 10 (friends and notifications) adds 8 tables and 5
	// indexes to version 9's 12 and 10; migration 11 (clocks) a table
	// and its index; migration 12 (analyses and hints) 2 tables.
	if len(names) != 39 {
		t.Errorf("%d tables and indexes, want 23 tables and 16 indexes: %v", len(names), names)
	}
}

// A PostgreSQL database of schema version 8 (times as timestamptz) is
// migrated to the aligned schema (times as bigint milliseconds) with
// every row kept, and every time the same instant.
func TestPostgresAlignsVersion8(t *testing.T) {
	ctx := context.Background()
	dsn := storetest.PostgresURL(t, t)
	pool, err := pgxpool.New(ctx, dsn)
	must(t, err)
	must(t, sqldb.MigratePostgres(ctx, pool, 8))
	pool.Close()
	rows := version8Rows("tapis_", func(n string) string { return "timestamptz 'epoch' + " + n + " * interval '1 millisecond'" },
		[2]string{"false", "true"}, `'\x`+hex.EncodeToString(secretVersion8)+`'::bytea`)
	storetest.PostgresExec(t, dsn, rows)
	s, err := postgres.Open(ctx, dsn)
	must(t, err)
	defer s.Close()
	checkVersion8(t, s)
	conn, err := pgx.Connect(ctx, dsn)
	must(t, err)
	defer conn.Close(ctx)
	r, err := conn.Query(ctx, `SELECT table_name || '.' || column_name FROM information_schema.columns
		WHERE table_schema = current_schema() AND table_name LIKE 'tapis_%' AND table_name NOT IN ('tapis_leases', 'tapis_goose_db_version')
		  AND data_type LIKE 'timestamp%'`)
	must(t, err)
	left, err := pgx.CollectRows(r, pgx.RowTo[string])
	must(t, err)
	if len(left) != 0 {
		t.Errorf("columns still of a timestamp type: %v", left)
	}
}

// checkVersion8 reads back every row of rowsVersion8 through s.
func checkVersion8(t *testing.T, s store.Store) {
	t.Helper()
	ctx := context.Background()
	ms := time.UnixMilli
	t1, err := s.Load(ctx, "t1")
	must(t, err)
	want := store.Table{ID: "t1", Game: "cabo", Players: 2, Options: []byte(`{"hand_size":4}`), Created: ms(1700000000123),
		Seats: []store.Seat{{Name: "Ann", TokenHash: "h1", Player: "p1"}, {Name: "random", Bot: "random"}}, TurnTime: 90 * time.Second,
		Creator: "198.51.100.7", Active: ms(1700000000456), Host: 0, MemoryAid: true, Public: true, Lang: "fr", Rated: true}
	if !reflect.DeepEqual(t1.Table, want) || t1.Closed != store.NotClosed {
		t.Errorf("table t1: %+v, want %+v", t1.Table, want)
	}
	if m := t1.Match; m == nil || m.No != 2 || m.Seed != 43 || m.Over || len(m.Moves) != 2 || string(m.Moves[0].Move) != `{"type":"knock"}` || m.Moves[0].Seat != 1 {
		t.Errorf("table t1's latest match: %+v", t1.Match)
	}
	first, err := s.Match(ctx, "t1", 1)
	must(t, err)
	if m := first.Match; m == nil || m.Seed != 42 || !m.Over || len(m.Moves) != 1 {
		t.Errorf("table t1's match 1: %+v", first.Match)
	}
	t2, err := s.Load(ctx, "t2")
	must(t, err)
	if t2.Closed != store.Expired || t2.Reason != "nobody came" || !t2.Created.Equal(ms(1700000001000)) || !t2.Active.Equal(ms(1700000002000)) ||
		t2.Host != -1 || t2.MemoryAid || t2.Public || t2.Rated || t2.Match != nil {
		t.Errorf("table t2: %+v", t2)
	}
	p1, err := s.Player(ctx, "p1")
	must(t, err)
	if p1 != (store.Player{ID: "p1", Name: "Ann", Username: "Ann", UsernameKey: "ann", Password: "hash", Created: ms(1700000000789)}) {
		t.Errorf("player p1: %+v", p1)
	}
	p2, err := s.Player(ctx, "p2")
	must(t, err)
	if !p2.Deleted || !p2.Created.Equal(ms(1700000000999)) {
		t.Errorf("player p2: %+v", p2)
	}
	ss, err := s.Session(ctx, "s1", ms(1700000010000))
	must(t, err)
	if ss != (store.Session{Hash: "s1", Player: "p1", Created: ms(1700000003000), Expires: ms(1800000000000)}) {
		t.Errorf("session s1: %+v", ss)
	}
	if _, err := s.Session(ctx, "s1", ms(1800000000000)); err != store.ErrNotFound {
		t.Errorf("session s1 once expired: %v", err)
	}
	e, err := s.QueueEntry(ctx, "p1")
	must(t, err)
	if e != (store.Entry{Player: "p1", Name: "Ann", Game: "cabo", Players: 2, Bot: "random", Wait: 30 * time.Second, Joined: ms(1700000004000), Table: "t1"}) {
		t.Errorf("queue entry of p1: %+v", e)
	}
	chat, err := s.Chat(ctx, "t1", 10)
	must(t, err)
	if len(chat) != 1 || chat[0] != (store.Line{Table: "t1", No: 1, Seat: 0, Player: "p1", Name: "Ann", Text: "hello", At: ms(1700000005000)}) {
		t.Errorf("chat of t1: %+v", chat)
	}
	pr, err := s.Profile(ctx, "p1", 10)
	must(t, err)
	if len(pr.Standings) != 1 || pr.Standings[0] != (store.Standing{Player: "p1", Game: "cabo", Mu: 26.5, Sigma: 7.5, Games: 1, Wins: 1}) ||
		len(pr.Recent) != 1 || !pr.Recent[0].At.Equal(ms(1700000006000)) || pr.Recent[0].MuBefore != 25 || pr.Recent[0].SigmaBefore != 8.25 {
		t.Errorf("profile of p1: %+v", pr)
	}
	res, err := s.MatchResults(ctx, "t1", 1)
	must(t, err)
	if len(res) != 2 || res[1].Player != "bot:random" || res[1].Score != 20 || !res[1].At.Equal(ms(1700000006000)) {
		t.Errorf("results of t1's match 1: %+v", res)
	}
	board, err := s.Leaderboard(ctx, "cabo", 1, 10, 0)
	must(t, err)
	if len(board) != 1 || board[0].Player != "p1" || board[0].Rank != 1 {
		t.Errorf("cabo's leaderboard: %+v", board)
	}
	sec, err := s.Secret(ctx)
	must(t, err)
	if !bytes.Equal(sec, secretVersion8) {
		t.Errorf("the server's secret changed: %x", sec)
	}
}
