package storetest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"

	"tapis/store"
)

// The rated-games reads with 100,000 rated matches stored: 4 seats each,
// among 2,000 players, spread over the four games. A store's benchmark
// writes RatedRows directly, in one transaction (RecordRated would take
// minutes for the setup alone); what is measured is the reads, through
// the store (BenchLeaderboard, BenchProfile).
const (
	benchMatches = 100_000
	benchPlayers = 2_000
)

var benchGames = []string{"cabo", "papayoo", "limits", "dacapo"}

// The columns of the rows RatedRows returns, in their order.
var (
	RatedMatchColumns  = []string{"table_id", "no", "game", "at"}
	RatedResultColumns = []string{"table_id", "no", "seat", "game", "players", "player", "rank", "score",
		"mu_before", "sigma_before", "mu_after", "sigma_after", "at"}
	RatingColumns = []string{"player", "game", "mu", "sigma", "ordinal", "games", "wins"}
)

// RatedRows returns the rows of the rated-games benchmarks, for the
// tables tapis_rated_matches, tapis_rated_results and tapis_ratings, with
// the columns named above; times are Unix milliseconds, as both SQL
// stores keep them.
func RatedRows() (matches, results, ratings [][]any) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range benchMatches {
		tab, game, at := fmt.Sprintf("b%06d", i), benchGames[i%len(benchGames)], int64(1_000_000+i*1000)
		matches = append(matches, []any{tab, 1, game, at})
		for seat, p := range r.Perm(benchPlayers)[:4] {
			mu, sigma := 15+20*r.Float64(), 1+3*r.Float64()
			results = append(results, []any{tab, 1, seat, game, 4, fmt.Sprintf("player%04d", p), seat, 0, mu, sigma, mu, sigma, at})
		}
	}
	for p := range benchPlayers {
		for _, g := range benchGames {
			mu, sigma := 10+30*r.Float64(), 1+5*r.Float64()
			ratings = append(ratings, []any{fmt.Sprintf("player%04d", p), g, mu, sigma, mu - 3*sigma, 50, 12})
		}
	}
	return matches, results, ratings
}

// BenchLeaderboard reads a game's first page (50 players) and one
// player's own rank, as GET /api/leaderboard does, from s filled with
// RatedRows.
func BenchLeaderboard(b *testing.B, s store.Store) {
	benchRated(b, s, func(ctx context.Context, s store.Store, i int) error {
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

// BenchProfile reads one player's profile (about 200 results), as GET
// /api/players/{id} does, from s filled with RatedRows.
func BenchProfile(b *testing.B, s store.Store) {
	benchRated(b, s, func(ctx context.Context, s store.Store, i int) error {
		p, err := s.Profile(ctx, fmt.Sprintf("player%04d", i%benchPlayers), 20)
		if err == nil && (len(p.Standings) != 4 || len(p.History) < 100 || len(p.Recent) != 20) {
			err = fmt.Errorf("profile of %d standings, %d results", len(p.Standings), len(p.History))
		}
		return err
	})
}

func benchRated(b *testing.B, s store.Store, read func(context.Context, store.Store, int) error) {
	ctx := context.Background()
	i := 0
	for b.Loop() {
		if err := read(ctx, s, i); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
