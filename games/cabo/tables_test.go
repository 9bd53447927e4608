package cabo

import (
	"fmt"
	"os"
	"testing"

	"tapis/bot"
	"tapis/game"
)

// TestTables measures, in games between heuristic bots, the tables the
// search capabilities use: lossCounts (value.go) and biasOdds (sample.go).
// It prints them as Go; run it with CABO_TABLES=1 after a change to the
// heuristic:
//
//	CABO_TABLES=1 go test ./games/cabo -run Tables -v
func TestTables(t *testing.T) {
	if os.Getenv("CABO_TABLES") == "" {
		t.Skip("set CABO_TABLES=1 to measure the tables")
	}
	loss := map[int]int{}
	var odds [8][Values]int
	for seed := uint64(1); seed <= 5000; seed++ {
		st, _ := NewState(game.Config{Players: 2, Seed: seed})
		ps := []game.Player{NewHeuristic(0, seed), NewHeuristic(1, seed+1)}
		rounds := 0
		_, err := bot.PlayWatch(st, ps, 1e6, func(game.State) {
			if st.rounds > rounds {
				rounds = st.rounds
				loss[max(st.roundScores[0], st.roundScores[1])]++
			}
			if st.phase != phaseTurn || seed > 3000 {
				return
			}
			for o := game.Seat(0); o < 2; o++ {
				for j := game.Seat(0); j < 2; j++ {
					for i := 0; i < st.opt.HandSize; i++ {
						if c := st.hands[j][i]; c != none && st.known[o][j]&(1<<uint(i)) == 0 {
							odds[st.biasKind(o, j, i)][c]++
						}
					}
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	fmt.Print("lossCounts: ")
	for x := 0; x <= 60; x++ {
		if loss[x] > 0 {
			fmt.Printf("{%d, %d}, ", x, loss[x])
		}
	}
	fmt.Println()
	for b, hist := range odds {
		best := 0.0
		for c, k := range hist {
			best = max(best, float64(k)/float64(count[c]))
		}
		fmt.Printf("biasOdds %d: {", b)
		for c, k := range hist {
			if best > 0 {
				fmt.Printf("%d, ", max(2, int(255*float64(k)/float64(count[c])/best+0.5)))
			}
		}
		fmt.Println("}")
	}
}
