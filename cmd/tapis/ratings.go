package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"text/tabwriter"

	"tapis/game"
	"tapis/games"
	"tapis/rating"
	"tapis/sim"
)

// simRatings is `tapis sim --ratings`: the bot levels play each other,
// rotated round the table in each of their orders (sim.Config.Shuffle), and each game's ranks (game.Result.Ranks) go
// through package rating in the order the games were dealt, every level
// rated, none fixed. What it prints per game and level is what the
// anchors (rating.Anchors) hold: the ratings bots-against-bots imply.
func simRatings(ctx context.Context, gameName string, levels []string, n int, seed uint64, workers int, stdout, stderr io.Writer) int {
	names := games.Names()
	if gameName != "all" {
		names = []string{gameName}
	}
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "game\tlevel\tmu\tsigma\tdisplay\twins\t")
	for _, name := range names {
		g := games.Named(name)
		if g == nil {
			fail(stderr, "sim", "unknown game %q (have %s, or all)", name, strings.Join(games.Names(), ", "))
			return 2
		}
		type played struct {
			botAt []int
			res   game.Result
		}
		var mu sync.Mutex
		all := make([]played, n)
		cfg := sim.Config{Game: g, Players: len(levels), Bots: levels, Games: n, Seed: seed, Workers: workers, Rotate: true, Shuffle: true,
			OnGame: func(i int, botAt []int, res game.Result) {
				mu.Lock()
				all[i] = played{append([]int(nil), botAt...), res}
				mu.Unlock()
			}}
		if _, err := sim.Run(ctx, cfg); err != nil {
			// sim's errors name the game where it matters ("cabo: 9
			// players: ...", "cabo game 3 (seed ...)").
			fail(stderr, "sim", "%v", err)
			return 2
		}
		rs := make([]rating.Rating, len(levels))
		wins := make([]int, len(levels))
		for i := range rs {
			rs[i] = rating.New()
		}
		for _, p := range all {
			seatRanks := p.res.Ranks()
			in := make([]rating.Rating, len(levels))
			ranks := make([]int, len(levels))
			for s, b := range p.botAt {
				in[s], ranks[s] = rs[b], seatRanks[s]
				if seatRanks[s] == 0 {
					wins[b]++
				}
			}
			out, err := rating.Update(in, ranks)
			if err != nil {
				fail(stderr, "sim", "%s: %v", name, err)
				return 1
			}
			for s, b := range p.botAt {
				rs[b] = out[s]
			}
		}
		for b, r := range rs {
			fmt.Fprintf(tw, "%s\t%s\t%.2f\t%.2f\t%d\t%d\t\n", name, levels[b], r.Mu, r.Sigma, r.Display(), wins[b])
		}
	}
	fmt.Fprintf(tw, "(%d games a game, %d players, seed %d; display is for sigma as printed: an anchor shows 1500 + 24 (mu - 3 sigma) with its own sigma)\n",
		n, len(levels), seed)
	tw.Flush()
	return 0
}
