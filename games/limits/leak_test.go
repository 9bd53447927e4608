package limits

import (
	"bytes"
	"encoding/json"
	"testing"

	"tapis/game"
)

// Every event a seat other than the actor receives (and every public
// one) tells it nothing it may not know: no hidden or drawn card of
// another seat. The check is structural (which fields an audience gets)
// and by sampling: what seat t is told of another seat's place, hide or
// exchange is the same in every state t cannot tell from the true one.
func TestNoLeaks(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 8
	}
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for i := 0; i < games; i++ {
			st, err := NewState(game.Config{Players: n, Seed: uint64(i*31 + n)})
			if err != nil {
				t.Fatal(err)
			}
			r := game.NewRNG(uint64(i))
			var buf []game.Move
			for !st.Over() {
				to := st.ToMove()
				a := to.Nth(r.IntN(to.Len()))
				buf = st.Legal(a, buf[:0])
				m := buf[r.IntN(len(buf))]
				// Samples for every other seat and a spectator, before.
				type probe struct {
					t game.Seat
					y *State
				}
				var probes []probe
				if kindOf(m) != Accuse {
					for o := game.Spectator; o < game.Seat(n); o++ {
						if o == a {
							continue
						}
						sr := game.NewRNG(r.Uint64())
						probes = append(probes, probe{o, st.Sample(o, &sr).(*State)})
					}
				}
				var log game.Log
				if err := st.Apply(a, m, &log); err != nil {
					t.Fatal(err)
				}
				for _, e := range log.Events {
					checkAudience(t, a, e)
				}
				for _, p := range probes {
					var ylog game.Log
					if p.y.Apply(a, m, &ylog) != nil {
						continue // a's move is not possible with a's sampled cards
					}
					if got, want := eventsJSON(ylog.For(p.t)), eventsJSON(log.For(p.t)); !bytes.Equal(got, want) {
						t.Fatalf("%d players: seat %d is told different things in states it cannot tell apart:\n true: %s\n sample: %s", n, p.t, want, got)
					}
					vt, _ := json.Marshal(st.View(p.t))
					vy, _ := json.Marshal(p.y.View(p.t))
					if !bytes.Equal(vt, vy) {
						t.Fatalf("seat %d's view depends on what it cannot know:\n true: %s\n sample: %s", p.t, vt, vy)
					}
				}
			}
		}
	}
}

// checkAudience fails when an event carries private cards to anyone but
// the actor: own hidden cards (hide) and drawn cards (draw) are the
// actor's alone; the exchange's shown cards and the accusation's reveal
// are public by the rules.
func checkAudience(t *testing.T, actor game.Seat, e game.Event) {
	t.Helper()
	ev := e.Data.(Event)
	private := (ev.Type == "hide" || ev.Type == "draw") && len(ev.Cards) > 0
	if !private {
		return
	}
	for s := game.Spectator; s < MaxPlayers; s++ {
		if s != ev.Seat && e.To.Has(s) {
			t.Fatalf("seat %d is told seat %d's private cards: %+v", s, ev.Seat, ev)
		}
	}
}

func eventsJSON(evs []game.Event) []byte {
	var out []byte
	for _, e := range evs {
		data, _ := json.Marshal(e.Data)
		out = append(out, data...)
		out = append(out, '\n')
	}
	return out
}
