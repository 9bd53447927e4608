package limits

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"tapis/game"
)

// [decision, 2026-11-24] A round's scores are the accusation's +1 / -2 plus
// the exchange points earned in that round: here the exchanger takes the
// limit card, so its round is +1 -2.
func TestRoundScoresIncludeExchanges(t *testing.T) {
	// Card 6: green 0, so the exchange's two greens are over the limit.
	st := stacked(t, 3, `{"hands":[["red","red","red","red","red"],["green","green","green","green","purple"],["blue","blue","blue","purple","purple"]],"draw":["yellow","yellow","yellow","yellow","purple","red"],"limits":[6,7]}`)
	hideAll(t, st, `["red"]`, `["purple"]`, `["purple"]`)
	do(t, st, 0, `{"type":"place","card":"red"}`)
	do(t, st, 1, `{"type":"exchange","color":"green"}`)
	if got := st.Result().RoundScores; len(got) != 0 {
		t.Fatalf("round scores %v before the first round ends, want none", got)
	}
	do(t, st, 2, `{"type":"place","card":"blue"}`)
	do(t, st, 0, `{"type":"accuse","seat":1}`)
	res := st.Result()
	if fmt.Sprint(res.RoundScores) != "[1 -1 0]" || fmt.Sprint(res.Scores) != "[1 -1 0]" {
		t.Fatalf("round scores %v, scores %v: want [1 -1 0] for both (the exchange's +1 and the card's -2)", res.RoundScores, res.Scores)
	}
	// The next round starts from nothing: its scores are its own.
	if st.gained != [MaxPlayers]int{} {
		t.Fatalf("exchange points %v carried into the next round", st.gained)
	}
}

// The exchange points of a round count for the exchanger even when it is
// neither accuser nor suspect.
func TestRoundScoresOfABystandersExchange(t *testing.T) {
	// Card 7: red 0; seat 0's red is over as soon as it lies on the pile.
	st := stacked(t, 3, `{"hands":[["red","blue","blue","blue","yellow"],["purple","purple","purple","purple","yellow"],["blue","yellow","yellow","green","green"]],"draw":["green","green","green","green","green","green"],"limits":[7,6]}`)
	hideAll(t, st, `["yellow"]`, `["yellow"]`, `["green"]`)
	do(t, st, 0, `{"type":"place","card":"red"}`)
	do(t, st, 1, `{"type":"exchange","color":"purple"}`)
	a := eventOf(t, do(t, st, 2, `{"type":"accuse","seat":0}`), "accuse").Accusation
	if !a.Over || a.Taker != 0 {
		t.Fatalf("accusation %+v, want seat 0's red over red's limit 0", a)
	}
	res := st.Result()
	if fmt.Sprint(res.RoundScores) != "[-2 1 1]" || fmt.Sprint(res.Scores) != "[-2 1 1]" {
		t.Fatalf("round scores %v, scores %v: want [-2 1 1]", res.RoundScores, res.Scores)
	}
}

// Over whole games, at any table size, the round scores of every round add
// up to the scores: nothing scores outside a round.
func TestRoundScoresAddUpToScores(t *testing.T) {
	exchanges := 0
	var buf []game.Move
	for players := MinPlayers; players <= MaxPlayers; players++ {
		for seed := uint64(1); seed <= 60; seed++ {
			st, err := NewState(game.Config{Players: players, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			rng := rand.New(rand.NewPCG(seed, uint64(players)))
			sum := make([]int, players)
			for rounds := 0; !st.Over(); {
				s := st.ToMove().List()[0]
				buf = st.Legal(s, buf[:0])
				m := buf[rng.IntN(len(buf))]
				if kindOf(m) == Exchange {
					exchanges++
				}
				if err := st.Apply(s, m, nil); err != nil {
					t.Fatalf("%d players, seed %d: %v", players, seed, err)
				}
				res := st.Result()
				if res.Rounds == rounds {
					continue
				}
				rounds = res.Rounds
				for i, v := range res.RoundScores {
					sum[i] += v
				}
			}
			if got := st.Result().Scores; fmt.Sprint(got) != fmt.Sprint(sum) {
				t.Fatalf("%d players, seed %d: scores %v, round scores add up to %v", players, seed, got, sum)
			}
		}
	}
	if exchanges == 0 {
		t.Fatal("no game had an exchange: the property was not tried where it matters")
	}
}

// [decision, 2026-11-24] The refill after an accusation starts with the
// seat that took the limit card and goes clockwise, each seat filling up
// completely before the next; when the draw pile runs out, the others
// simply draw nothing.
func TestRefillOrderAndADryDrawPile(t *testing.T) {
	st := stacked(t, 3, `{}`)
	hideAll(t, st, jsonCards(st, 0, 1), jsonCards(st, 1, 1), jsonCards(st, 2, 1))
	// Empty the hands (each keeps its hidden card) and leave 6 cards to
	// draw: 4 for the taker, seat 2, then 2 for seat 0, none for seat 1.
	for s := range st.hand[:3] {
		st.hand[s], st.knownHand[s], st.nHand[s] = [Colours]int8{}, [Colours]int8{}, 0
	}
	st.nDraw, st.above, st.unk = 6, 0, 0
	st.cleanUp(2, nil)
	if st.leader != 2 {
		t.Fatalf("leader %d, want the taker, seat 2", st.leader)
	}
	if got := []int8{st.nHand[0], st.nHand[1], st.nHand[2]}; fmt.Sprint(got) != "[3 1 5]" {
		t.Fatalf("hands of %v cards after the refill, want [3 1 5]: the taker fills up first, then seat 0; seat 1 finds the pile dry", got)
	}
	if st.nDraw != 0 {
		t.Fatalf("%d cards left to draw", st.nDraw)
	}
}
