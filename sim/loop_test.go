package sim

import (
	"fmt"
	"runtime"
	"testing"

	"tapis/game"
	"tapis/games"
)

// tables lists every game at every table size it allows.
func tables() []struct {
	g game.Game
	n int
} {
	var out []struct {
		g game.Game
		n int
	}
	for _, g := range games.All() {
		lo, hi := g.Players()
		for n := lo; n <= hi; n++ {
			out = append(out, struct {
				g game.Game
				n int
			}{g, n})
		}
	}
	return out
}

// randomConfig is a run of random bots, checked (defaults filled in).
func randomConfig(tb testing.TB, g game.Game, n int) *Config {
	c := &Config{Game: g, Players: n, Bots: []string{"random"}, Games: 1, Seed: 1}
	if err := c.check(); err != nil {
		tb.Fatal(err)
	}
	return c
}

// BenchmarkSimLoop measures the simulator's loop as `tapis sim --workers 1`
// runs it with random bots: one op is one move, a game's setup (deal, bots)
// included. moves/s compares with the game's BenchmarkPlayout, the bare
// engine; allocs/move counts setups' allocations too, spread over moves.
func BenchmarkSimLoop(b *testing.B) {
	for _, tc := range tables() {
		b.Run(fmt.Sprintf("%s/%dp", tc.g.Name(), tc.n), func(b *testing.B) {
			w := newWorker(randomConfig(b, tc.g, tc.n))
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			b.ResetTimer()
			for i := 0; w.t.moves < int64(b.N); i++ {
				if err := w.play(i); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			runtime.ReadMemStats(&after)
			b.ReportMetric(float64(w.t.moves)/b.Elapsed().Seconds(), "moves/s")
			b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(w.t.moves), "allocs/move")
		})
	}
}

// Once a game is set up, its moves allocate nothing: fewer than one
// allocation per 1,000 moves, for every game and table size, the round
// ends' score bookkeeping and the final tally included.
func TestSimLoopAllocs(t *testing.T) {
	const chunk, runs = 20, 4 // games per measured call, measured calls
	for _, tc := range tables() {
		t.Run(fmt.Sprintf("%s/%dp", tc.g.Name(), tc.n), func(t *testing.T) {
			c := randomConfig(t, tc.g, tc.n)
			w := newWorker(c)
			// AllocsPerRun calls once more to warm up; every call plays
			// games set up beforehand.
			ms := make([]match, (runs+1)*chunk)
			for i := range ms {
				if err := c.setup(i, &ms[i]); err != nil {
					t.Fatal(err)
				}
			}
			next := 0
			allocs := testing.AllocsPerRun(runs, func() {
				for range chunk {
					if err := w.run(&ms[next]); err != nil {
						t.Fatal(err)
					}
					next++
				}
			})
			perCall := float64(w.t.moves) / float64(runs+1)
			if perCall < 1000 {
				t.Fatalf("only %.0f moves a call: too few to count per 1,000", perCall)
			}
			if per1000 := allocs / perCall * 1000; per1000 >= 1 {
				t.Fatalf("%.0f allocations per %.0f moves: %.2f per 1,000 moves, want < 1", allocs, perCall, per1000)
			}
		})
	}
}
