package postgres

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"tapis/store/storetest"
)

// The store's benchmarks, on a PostgreSQL server of TAPIS_TEST_POSTGRES
// (see storetest's Bench functions for what each measures; the client's
// CPU only, for BenchmarkAppendPaced).

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

func BenchmarkFencedAppendMove(b *testing.B) {
	s := open(b)
	defer s.Close()
	storetest.BenchFencedAppendMove(b, s)
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

// fillRated copies storetest.RatedRows into s.
func fillRated(b *testing.B, s *Store) {
	b.Helper()
	ctx := context.Background()
	matches, results, ratings := storetest.RatedRows()
	for _, c := range []struct {
		table string
		cols  []string
		rows  [][]any
	}{
		{"tapis_rated_matches", storetest.RatedMatchColumns, matches},
		{"tapis_rated_results", storetest.RatedResultColumns, results},
		{"tapis_ratings", storetest.RatingColumns, ratings},
	} {
		if _, err := s.pool.CopyFrom(ctx, pgx.Identifier{c.table}, c.cols, pgx.CopyFromRows(c.rows)); err != nil {
			b.Fatal(err)
		}
	}
	if _, err := s.pool.Exec(ctx, `ANALYZE`); err != nil {
		b.Fatal(err)
	}
}
