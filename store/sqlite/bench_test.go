package sqlite

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"tapis/store"
	"tapis/store/storetest"
)

// open opens a store on a fresh file for tb.
func open(tb testing.TB) *Store {
	s, err := Open(filepath.Join(tb.TempDir(), "t.db"))
	if err != nil {
		tb.Fatal(err)
	}
	return s
}

// The store's benchmarks (see storetest's Bench functions for what each
// measures), and what a starting server reads.

func BenchmarkAppendMove(b *testing.B) {
	s := open(b)
	defer s.Close()
	storetest.BenchAppendMove(b, s)
}

func BenchmarkAppendPaced(b *testing.B) {
	s := open(b)
	defer s.Close()
	storetest.BenchAppendPaced(b, s)
}

func BenchmarkLeaderboard(b *testing.B) {
	s := open(b)
	defer s.Close()
	fillRated(b, s)
	storetest.BenchLeaderboard(b, s)
}

func BenchmarkProfile(b *testing.B) {
	s := open(b)
	defer s.Close()
	fillRated(b, s)
	storetest.BenchProfile(b, s)
}

// fillRated writes storetest.RatedRows into s, in one transaction.
func fillRated(b *testing.B, s *Store) {
	b.Helper()
	matches, results, ratings := storetest.RatedRows()
	tx, err := s.db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		table string
		cols  []string
		rows  [][]any
	}{
		{"tapis_rated_matches", storetest.RatedMatchColumns, matches},
		{"tapis_rated_results", storetest.RatedResultColumns, results},
		{"tapis_ratings", storetest.RatingColumns, ratings},
	} {
		q := fmt.Sprintf("INSERT INTO %s (%s) VALUES (?%s)", c.table, strings.Join(c.cols, ", "), strings.Repeat(", ?", len(c.cols)-1))
		for _, r := range c.rows {
			if _, err := tx.Exec(q, r...); err != nil {
				b.Fatal(err)
			}
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	if _, err := s.db.Exec(`ANALYZE`); err != nil {
		b.Fatal(err)
	}
}

// BenchmarkOpen lists the open tables of a SQLite store that holds 10,000
// of them (half waiting with a seat free, half playing with 30 moves) and
// as many that a server must not load (finished, or closed): what a
// server reads when it starts. The rows go in as the store writes them,
// in one transaction to keep the set-up short.
func BenchmarkOpen(b *testing.B) {
	const open, other, moves = 10000, 10000, 30
	s, err := Open(filepath.Join(b.TempDir(), "open.db"))
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	tx, err := s.db.Begin()
	if err != nil {
		b.Fatal(err)
	}
	exec := func(q string, args ...any) {
		if _, err := tx.Exec(q, args...); err != nil {
			b.Fatal(err)
		}
	}
	for i := 0; i < open+other; i++ {
		id := fmt.Sprintf("t%05d", i)
		closed := ""
		if i >= open && i%2 == 0 {
			closed = string(store.Abandoned)
		}
		exec(`INSERT INTO tapis_tables (id, game, players, options, created, turn_ms, creator, active, closed) VALUES (?, 'cabo', 3, '{}', ?, 0, '192.0.2.1', ?, ?)`,
			id, i, i, closed)
		exec(`INSERT INTO tapis_seats VALUES (?, 0, 'Ann', '', 'h'), (?, 1, 'random', 'random', ''), (?, 2, '', '', '')`, id, id, id)
		if i < open/2 {
			continue // waiting
		}
		exec(`INSERT INTO tapis_matches (table_id, no, seed, over) VALUES (?, 1, ?, ?)`, id, i, i >= open && i%2 == 1)
		for m := 0; m < moves; m++ {
			exec(`INSERT INTO tapis_moves VALUES (?, 1, ?, ?, '{"type":"draw"}')`, id, m, m%3)
		}
	}
	if err := tx.Commit(); err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		got, err := s.Open(ctx)
		if err != nil {
			b.Fatal(err)
		}
		if len(got) != open || got[0].Seated != 2 || !got[open-1].Started {
			b.Fatalf("%d open tables (first %+v, last %+v), want %d", len(got), got[0], got[len(got)-1], open)
		}
	}
}
