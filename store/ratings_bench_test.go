package store

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/jackc/pgx/v5"
)

// The rated-games reads with 100,000 rated matches stored: 4 seats each,
// among 2,000 players, spread over the four games. The rows are written
// directly, in one transaction (RecordRated would take minutes for the
// setup alone); what is measured is the reads, through the store.
const (
	benchMatches = 100_000
	benchPlayers = 2_000
)

var benchGames = []string{"cabo", "papayoo", "limits", "dacapo"}

// fillRated writes the benchmark's rows into s.
func fillRated(b *testing.B, s Store) {
	b.Helper()
	ctx := context.Background()
	r := rand.New(rand.NewPCG(1, 2))
	type res struct {
		table          string
		no, seat, rank int
		game, player   string
		at             int64 // Unix milliseconds, as both stores keep times
		mu, sigma      float64
	}
	var results []res
	var matches [][]any
	for i := range benchMatches {
		tab, game, at := fmt.Sprintf("b%06d", i), benchGames[i%len(benchGames)], int64(1_000_000+i*1000)
		matches = append(matches, []any{tab, 1, game, at})
		for seat, p := range r.Perm(benchPlayers)[:4] {
			results = append(results, res{tab, 1, seat, seat, game, fmt.Sprintf("player%04d", p), at, 15 + 20*r.Float64(), 1 + 3*r.Float64()})
		}
	}
	var ratings [][]any
	for p := range benchPlayers {
		for _, g := range benchGames {
			mu, sigma := 10+30*r.Float64(), 1+5*r.Float64()
			ratings = append(ratings, []any{fmt.Sprintf("player%04d", p), g, mu, sigma, mu - 3*sigma, 50, 12})
		}
	}
	switch st := s.(type) {
	case *SQLite:
		tx, err := st.db.Begin()
		if err != nil {
			b.Fatal(err)
		}
		for _, m := range matches {
			if _, err := tx.Exec(`INSERT INTO tapis_rated_matches (table_id, no, game, at) VALUES (?, ?, ?, ?)`, m[0], m[1], m[2], m[3]); err != nil {
				b.Fatal(err)
			}
		}
		for _, x := range results {
			if _, err := tx.Exec(`INSERT INTO tapis_rated_results (table_id, no, seat, game, players, player, rank, score,
				mu_before, sigma_before, mu_after, sigma_after, at) VALUES (?, ?, ?, ?, 4, ?, ?, 0, ?, ?, ?, ?, ?)`,
				x.table, x.no, x.seat, x.game, x.player, x.rank, x.mu, x.sigma, x.mu, x.sigma, x.at); err != nil {
				b.Fatal(err)
			}
		}
		for _, x := range ratings {
			if _, err := tx.Exec(`INSERT INTO tapis_ratings (player, game, mu, sigma, ordinal, games, wins) VALUES (?, ?, ?, ?, ?, ?, ?)`, x...); err != nil {
				b.Fatal(err)
			}
		}
		if err := tx.Commit(); err != nil {
			b.Fatal(err)
		}
		if _, err := st.db.Exec(`ANALYZE`); err != nil {
			b.Fatal(err)
		}
	case *Postgres:
		rows := make([][]any, len(results))
		for i, x := range results {
			rows[i] = []any{x.table, x.no, x.seat, x.game, 4, x.player, x.rank, 0, x.mu, x.sigma, x.mu, x.sigma, x.at}
		}
		for _, c := range []struct {
			table string
			cols  []string
			rows  [][]any
		}{
			{"tapis_rated_matches", []string{"table_id", "no", "game", "at"}, matches},
			{"tapis_rated_results", []string{"table_id", "no", "seat", "game", "players", "player", "rank", "score",
				"mu_before", "sigma_before", "mu_after", "sigma_after", "at"}, rows},
			{"tapis_ratings", []string{"player", "game", "mu", "sigma", "ordinal", "games", "wins"}, ratings},
		} {
			if _, err := st.pool.CopyFrom(ctx, pgx.Identifier{c.table}, c.cols, pgx.CopyFromRows(c.rows)); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := st.pool.Exec(ctx, `ANALYZE`); err != nil {
			b.Fatal(err)
		}
	default:
		b.Skip("the memory store has no indexes to measure")
	}
}

// BenchmarkLeaderboard reads a game's first page (50 players) and one
// player's own rank, as GET /api/leaderboard does.
func BenchmarkLeaderboard(b *testing.B) {
	benchRated(b, func(ctx context.Context, s Store, i int) error {
		board, err := s.Leaderboard(ctx, benchGames[i%4], 5, 50, 0)
		if err == nil && len(board) != 50 {
			err = fmt.Errorf("%d players on the board", len(board))
		}
		if err == nil {
			_, err = s.Rank(ctx, benchGames[i%4], fmt.Sprintf("player%04d", i%benchPlayers), 5)
		}
		return err
	})
}

// BenchmarkProfile reads one player's profile (about 200 results), as
// GET /api/players/{id} does.
func BenchmarkProfile(b *testing.B) {
	benchRated(b, func(ctx context.Context, s Store, i int) error {
		p, err := s.Profile(ctx, fmt.Sprintf("player%04d", i%benchPlayers), 20)
		if err == nil && (len(p.Standings) != 4 || len(p.History) < 100 || len(p.Recent) != 20) {
			err = fmt.Errorf("profile of %d standings, %d results", len(p.Standings), len(p.History))
		}
		return err
	})
}

func benchRated(b *testing.B, read func(context.Context, Store, int) error) {
	for _, name := range []string{"sqlite", "postgres"} {
		k := stores(b)[name]
		b.Run(name, func(b *testing.B) {
			s := k.open(b)
			defer s.Close()
			fillRated(b, s)
			ctx := context.Background()
			i := 0
			for b.Loop() {
				if err := read(ctx, s, i); err != nil {
					b.Fatal(err)
				}
				i++
			}
		})
	}
}
