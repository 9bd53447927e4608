package bot

import (
	"fmt"
	"testing"

	"tapis/game"
	"tapis/games"
)

// BenchmarkSearch measures one search iteration (a sample, a walk down
// the tree and a playout) from a position early in a game: ns/op and
// allocs/op are per iteration, and iters/s is their rate on one core.
//
//	go test ./bot -run XXX -bench Search -benchmem
func BenchmarkSearch(b *testing.B) {
	for _, g := range games.All() {
		for _, n := range []int{2, 4} {
			if lo, hi := g.Players(); n < lo || n > hi {
				continue
			}
			b.Run(fmt.Sprintf("%s/%dp", g.Name(), n), func(b *testing.B) {
				st, s, told := position(b, g, n, 5, 12)
				search := newTold(b, g, "hard@1", s, 1, told).(*Search)
				k := game.KnowledgeOf(st, s)
				search.Iterations = 1000
				search.Choose(k) // grow the buffers first
				b.ReportAllocs()
				b.ResetTimer()
				search.Iterations = b.N
				search.Choose(k)
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "iters/s")
			})
		}
	}
}
