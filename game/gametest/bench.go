package gametest

import (
	"testing"

	"tapis/game"
)

// Playouts benchmarks uniformly random play. One op is one applied move,
// legal-move generation included; the "moves/s" metric is the engine's speed
// on one core. restart returns a state at the start of a game, reusing
// memory so that a new game costs no allocation either.
func Playouts(b *testing.B, restart func() game.State) {
	rng := game.NewRNG(1)
	buf := make([]game.Move, 0, 1024)
	st := restart()
	b.ReportAllocs()
	for b.Loop() {
		if st.Over() {
			st = restart()
		}
		to := st.ToMove()
		seat := to.Nth(rng.IntN(to.Len()))
		buf = st.Legal(seat, buf[:0])
		if err := st.Apply(seat, buf[rng.IntN(len(buf))], nil); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}
