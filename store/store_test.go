package store

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"testing"
)

// kind is one Store implementation under test.
type kind struct {
	// open opens the store. Called again in the same test, it opens the
	// same data, as a server restarting does.
	open func(t testing.TB) Store
	// durable: the data outlives Close.
	durable bool
}

// stores is every Store the behavioural tests run against, each with
// fresh data for the calling test or benchmark.
func stores(tb testing.TB) map[string]kind {
	path := filepath.Join(tb.TempDir(), "t.db")
	return map[string]kind{
		"memory": {open: func(testing.TB) Store { return NewMemory() }},
		"sqlite": {durable: true, open: func(t testing.TB) Store {
			s, err := OpenSQLite(path)
			if err != nil {
				t.Fatal(err)
			}
			return s
		}},
		"postgres": {durable: true, open: postgresOpener(tb)},
	}
}

// fillTable creates table id with a match of n moves. It, openIDs and
// must are written again in storetest: this package's own tests cannot
// import storetest, which imports store.
func fillTable(ctx context.Context, s Store, id string, n int) error {
	if err := s.CreateTable(ctx, Table{ID: id, Game: "cabo", Players: 2, Seats: []Seat{{Name: id}, {Bot: "random"}}}, nil); err != nil {
		return err
	}
	if err := s.StartMatch(ctx, id, 1, uint64(len(id))); err != nil {
		return err
	}
	for m := 0; m < n; m++ {
		if err := s.AppendMove(ctx, id, 1, m, Move{Seat: m % 2, Move: json.RawMessage(fmt.Sprintf(`{"type":"draw","n":%d}`, m))}); err != nil {
			return err
		}
	}
	return nil
}

// openIDs lists the ids Open returns, failing on an error or a Problem.
func openIDs(t *testing.T, s Store) []string {
	t.Helper()
	got, err := s.Open(context.Background())
	must(t, err)
	ids := []string{}
	for _, sm := range got {
		if sm.Problem != "" {
			t.Fatalf("table %s: %s", sm.ID, sm.Problem)
		}
		ids = append(ids, sm.ID)
	}
	return ids
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// rebind numbers a shared statement's parameters as PostgreSQL has them.
func TestRebind(t *testing.T) {
	for q, want := range map[string]string{
		`SELECT 1`:                              `SELECT 1`,
		`DELETE FROM x WHERE a = ?`:             `DELETE FROM x WHERE a = $1`,
		`UPDATE x SET a = ?, b = ? WHERE c = ?`: `UPDATE x SET a = $1, b = $2 WHERE c = $3`,
	} {
		if got := rebind(q); got != want {
			t.Errorf("rebind(%q) = %q, want %q", q, got, want)
		}
	}
	if qSetUsername.pg != `UPDATE tapis_players SET username = $1, username_key = $2, password = $3 WHERE id = $4 AND username_key = ''` {
		t.Errorf("qSetUsername for PostgreSQL: %s", qSetUsername.pg)
	}
}
