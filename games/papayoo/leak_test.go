package papayoo

import (
	"encoding/json"
	"fmt"
	"regexp"
	"testing"

	"tapis/game"
)

var cardRE = regexp.MustCompile(`"([SHDCP](?:[1-9]|1[0-9]|20))"`)

// No event or view tells a seat (or a spectator) a card it may not know:
// a seat knows the cards it was dealt and received, and every card
// played; a spectator only the cards played. The die's Papayoo names a
// card without telling where it is, so it is public.
func TestNoLeaks(t *testing.T) {
	games := uint64(6)
	if raceDetector {
		// Two games a table size under -race: the race phase looks for
		// data races, which two find as well as six (the run without
		// -race plays six), and this test was most of its time here.
		games = 2
	}
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for g := uint64(0); g < games; g++ {
			t.Run(fmt.Sprintf("%dp/%d", n, g), func(t *testing.T) { leakGame(t, n, g) })
		}
	}
}

func leakGame(t *testing.T, n int, seed uint64) {
	st, err := NewState(game.Config{Players: n, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	rng := game.NewRNG(seed)
	known := make(map[game.Seat]map[string]bool)
	reset := func() {
		for s := game.Spectator; int(s) < n; s++ {
			known[s] = map[string]bool{}
			if s >= 0 {
				for _, c := range st.view(s).Hand {
					known[s][c] = true
				}
			}
		}
	}
	reset()
	check := func(s game.Seat, what string, data any) {
		t.Helper()
		js, _ := json.Marshal(data)
		for _, m := range cardRE.FindAllStringSubmatch(string(js), -1) {
			if !known[s][m[1]] {
				t.Fatalf("seat %d is told %s, which it may not know, in %s: %s", s, m[1], what, js)
			}
		}
	}
	var log game.Log
	var buf []game.Move
	for !st.Over() {
		to := st.ToMove()
		s := to.Nth(rng.IntN(to.Len()))
		buf = st.Legal(s, buf[:0])
		m := buf[rng.IntN(len(buf))]
		if rng.IntN(20) == 0 && st.phase == phasePass && st.pass[s] == 0 {
			m = PassMove(pick(st.hands[s], st.passSize(), &rng))
		}
		round := st.rounds
		log.Reset()
		if err := st.Apply(s, m, &log); err != nil {
			t.Fatal(err)
		}
		for _, e := range log.Events {
			ev := e.Data.(Event)
			// What becomes known with this event, before it is checked.
			switch ev.Type {
			case "play":
				for k := range known {
					known[k][ev.Card] = true
				}
			case "die":
				for k := range known {
					known[k][ev.Card] = true
				}
			case "received":
				for _, c := range ev.Cards {
					known[ev.Seat][c] = true
				}
			case "hand":
				if st.rounds > round {
					reset()
				}
			}
			for k := game.Spectator; int(k) < n; k++ {
				if e.To.Has(k) {
					check(k, "event "+ev.Type, ev)
				}
			}
		}
		if st.rounds > round && !st.Over() {
			reset()
		}
		for k := game.Spectator; int(k) < n; k++ {
			check(k, "view", st.View(k))
		}
	}
}
