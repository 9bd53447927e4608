package cabo_test

import (
	"fmt"
	"os"
	"testing"

	"tapis/bot"
	"tapis/game"
	"tapis/games/cabo"
)

func TestRoundHistogram(t *testing.T) {
	if os.Getenv("CABO_GEN") == "" {
		t.Skip("set CABO_GEN=1")
	}
	hist := map[[2]int]int{}
	rounds := 0
	for seed := uint64(1); seed <= 5000; seed++ {
		st, _ := cabo.NewState(game.Config{Players: 2, Seed: seed})
		ps := []game.Player{cabo.NewHeuristic(0, seed*3), cabo.NewHeuristic(1, seed*5)}
		last := 0
		bot.PlayWatch(st, ps, 1e6, func(s game.State) {
			r := s.Result()
			if r.Rounds > last {
				last = r.Rounds
				hist[[2]int{r.RoundScores[0], r.RoundScores[1]}]++
				rounds++
			}
		})
	}
	fmt.Println("rounds", rounds)
	for k, v := range hist {
		fmt.Printf("H %d %d %d\n", k[0], k[1], v)
	}
}
