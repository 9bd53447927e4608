package papayoo

import (
	"testing"

	"tapis/game"
)

// BenchmarkRolloutRound plays a round from the deal with RolloutMove.
func BenchmarkRolloutRound(b *testing.B) {
	start, _ := NewState(game.Config{Players: 4, Seed: 7})
	r := game.NewRNG(1)
	var buf []game.Move
	for i := 0; i < b.N; i++ {
		st := *start
		st.rng = game.NewRNG(uint64(i))
		st.deal(nil)
		for st.rounds == 0 {
			s := st.ToMove().First()
			st.Apply(s, st.RolloutMove(&r, buf), nil)
		}
	}
}

// BenchmarkSample draws a state mid-round, with voids and inferences.
func BenchmarkSample(b *testing.B) {
	st, _ := NewState(game.Config{Players: 4, Seed: 7})
	r := game.NewRNG(1)
	ps := make([]*Heuristic, 4)
	for s := range ps {
		ps[s] = NewHeuristic(game.Seat(s), 1)
	}
	for st.phase == phasePass || st.nTrick != 0 || bitsIn(st.hands[0]) > 8 {
		s := st.ToMove().First()
		st.Apply(s, st.RolloutMove(&r, nil), nil)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st.Sample(st.turn, &r)
	}
}
