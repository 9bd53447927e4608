package cabo

import (
	"fmt"
	"math"
	"os"
	"strconv"
	"testing"

	"tapis/bot"
	"tapis/game"
)

// TestProbeSearch plays a search bot against the heuristic and, wherever
// the search overrules its prior (the heuristic's own choice), judges the
// change on the true state: both moves are played on to the end of the
// round with the rollout policy over the same 300 futures, and the gain
// is the mean change of the searcher's chance to win. Win rates over a few
// hundred games are too noisy to tune the search by; this says which of
// its departures from the heuristic help and which hurt.
//
//	CABO_PROBE=60 CABO_BOT=hard@800 go test ./games/cabo -run ProbeSearch -v
func TestProbeSearch(t *testing.T) {
	games, _ := strconv.Atoi(os.Getenv("CABO_PROBE"))
	if games <= 0 {
		t.Skip("set CABO_PROBE to a number of games (and CABO_BOT to a search bot)")
	}
	name := os.Getenv("CABO_BOT")
	var count [kinds][kinds]int
	var gain [kinds][kinds]float64
	var calls, callsWon [2]int
	wins, total, sq := 0.0, 0.0, 0.0
	for g := 0; g < games; g++ {
		seed := uint64(1000 + g)
		me := game.Seat(g % 2)
		st, err := NewState(game.Config{Players: 2, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		p, err := bot.New(Game{}, name, me, seed*7)
		if err != nil {
			t.Fatal(err)
		}
		search, ok := p.(*bot.Search)
		if !ok {
			t.Fatalf("%s is not a search bot", name)
		}
		var ps [2]game.Player
		ps[me], ps[1-me] = p, NewHeuristic(1-me, seed*11)
		var log game.Log
		here := 0.0
		for !st.Over() {
			s := st.ToMove().First()
			k := game.KnowledgeOf(st, s)
			if search.Cheat && s == me {
				k = game.Omniscient(st, s)
			}
			var m game.Move
			if s == me && st.phase != phasePeek && len(st.Legal(s, nil)) > 1 {
				prior := search.Prior.Choose(k)
				m = p.Choose(k)
				count[kindOf(prior)][kindOf(m)]++
				if m != prior {
					x := truthGain(st, s, prior, m, 300)
					gain[kindOf(prior)][kindOf(m)] += x
					here += x
				}
			} else {
				m = ps[s].Choose(k)
			}
			caller, rounds := st.caller, st.rounds
			log.Reset()
			if err := st.Apply(s, m, &log); err != nil {
				t.Fatal(err)
			}
			if st.rounds > rounds && caller >= 0 {
				calls[b2i(caller != me)]++
				if st.last.winners.Has(caller) {
					callsWon[b2i(caller != me)]++
				}
			}
			for _, e := range log.Events {
				for to, pl := range ps {
					if e.To.Has(game.Seat(to)) {
						pl.Observe(e)
					}
				}
			}
		}
		if st.winners.Has(me) {
			wins += 1 / float64(st.winners.Len())
		}
		total += here
		sq += here * here
	}
	n := float64(games)
	mean := total / n
	fmt.Printf("%s: won %.3f of %d games; departures from the prior gain %.4f ± %.4f a game\n",
		name, wins/n, games, mean, 1.96*math.Sqrt((sq/n-mean*mean)/n))
	fmt.Printf("calls: search %d (won %d), heuristic %d (won %d)\n", calls[0], callsWon[0], calls[1], callsWon[1])
	for a := range count {
		for b := range count[a] {
			if count[a][b] > 0 && (a != b || gain[a][b] != 0) {
				fmt.Printf("  prior %s -> %s: %d times, gain %+.3f\n", Kind(a), Kind(b), count[a][b], gain[a][b])
			}
		}
	}
}

// truthGain is how much better move m does than move prior for seat s on
// the true state: the mean change of s's chance to win at the end of the
// round, both played on with the rollout policy, over k futures (the draw
// pile reshuffled, the same for both moves).
func truthGain(st *State, s game.Seat, prior, m game.Move, k int) float64 {
	r := game.NewRNG(99)
	sum := 0.0
	for i := 0; i < k; i++ {
		seed := r.Uint64()
		var v [2]float64
		for j, mv := range []game.Move{prior, m} {
			y := *st
			rr := game.NewRNG(seed)
			rr.Shuffle(y.draw[:y.nDraw])
			y.rng = game.NewRNG(seed + 1)
			start := y.rounds
			if err := y.Apply(s, mv, nil); err != nil {
				panic(err)
			}
			for !y.Over() && y.rounds == start {
				if err := y.Apply(y.ToMove().First(), y.RolloutMove(&rr, nil), nil); err != nil {
					panic(err)
				}
			}
			switch {
			case !y.Over():
				v[j] = y.chance(s, &y.scores)
			case y.winners.Has(s):
				v[j] = 1 / float64(y.winners.Len())
			}
		}
		sum += v[1] - v[0]
	}
	return sum / float64(k)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
