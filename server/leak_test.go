package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"testing"

	"tapis/game"
	"tapis/games"
	"tapis/games/cabo"
)

// shadow replays a finished match from the store, keeping what each seat
// should have been sent after every move.
type shadow struct {
	g      game.Game
	states []game.State   // states[k]: after k moves
	events [][]game.Event // events[k]: those of move k+1 (index k)
	// opening holds the events of the match's opening (Config.Log).
	opening []game.Event
}

func replayMatch(t *testing.T, h *harness, table string) *shadow {
	t.Helper()
	sv, err := h.store.Load(context.Background(), table)
	if err != nil {
		t.Fatal(err)
	}
	g := games.Named(sv.Game)
	var opening game.Log
	st, err := g.New(game.Config{Players: sv.Players, Options: sv.Options, Seed: sv.Match.Seed, Log: &opening})
	if err != nil {
		t.Fatal(err)
	}
	sh := &shadow{g: g, states: []game.State{st.Clone()}, opening: opening.Events}
	for i, mv := range sv.Match.Moves {
		m, err := g.UnmarshalMove(mv.Move)
		if err != nil {
			t.Fatal(err)
		}
		var log game.Log
		if err := st.Apply(game.Seat(mv.Seat), m, &log); err != nil {
			t.Fatalf("stored move %d refused: %v", i, err)
		}
		sh.states = append(sh.states, st.Clone())
		sh.events = append(sh.events, log.Events)
	}
	return sh
}

// rounds is the round scores of every round completed in the first n
// moves, from the results as each round ended.
func (sh *shadow) rounds(n int) [][]int {
	out := [][]int{}
	for _, st := range sh.states[:n+1] {
		if r := st.Result(); r.Rounds > len(out) {
			out = append(out, r.RoundScores)
		}
	}
	return out
}

// canon re-encodes JSON so that two encodings of the same value compare.
func canon(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var x any
	if err := json.Unmarshal(b, &x); err != nil {
		t.Fatal(err)
	}
	b, _ = json.Marshal(x)
	return string(b)
}

// checkMessages compares every message seat s received with what the
// engine says s may see: its view, its legal moves, its events. Anything
// more would be a leak; anything less, a bug.
func (sh *shadow) checkMessages(t *testing.T, s game.Seat, raw [][]byte) {
	t.Helper()
	var welcome *msg
	for i, b := range raw {
		var m msg
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		where := fmt.Sprintf("seat %d, message %d (%s)", s, i, m.Type)
		switch m.Type {
		case "welcome":
			if m.Seat != s {
				t.Fatalf("%s: welcomed as seat %d", where, m.Seat)
			}
			welcome = &m
		case "state":
			if m.N >= len(sh.states) {
				t.Fatalf("%s: move %d was never stored", where, m.N)
			}
			st := sh.states[m.N]
			if got, want := canon(t, m.View), canon(t, st.View(s)); got != want {
				t.Fatalf("%s: view\n got %s\nwant %s", where, got, want)
			}
			if s >= 0 && !st.Over() {
				// Redraw everything s does not know (State.Sample): the
				// view sent must not change, or it showed a hidden card.
				r := game.NewRNG(uint64(i)*7919 + uint64(m.N))
				if got, want := canon(t, m.View), canon(t, st.Sample(s, &r).View(s)); got != want {
					t.Fatalf("%s: the view depends on cards the seat does not know:\n sent %s\nsampled %s", where, got, want)
				}
			}
			// The score sheet's rounds are the public results' round
			// scores, each as its round ended, and nothing else.
			var sheet struct {
				Rounds [][]int `json:"rounds"`
			}
			if err := json.Unmarshal(b, &sheet); err != nil {
				t.Fatal(err)
			}
			if got, want := canon(t, sheet.Rounds), canon(t, sh.rounds(m.N)); got != want {
				t.Fatalf("%s: rounds\n got %s\nwant %s", where, got, want)
			}
			var want []json.RawMessage
			if s != game.Spectator {
				for _, lm := range st.Legal(s, nil) {
					js, _ := sh.g.MarshalMove(lm)
					want = append(want, js)
				}
			}
			if canon(t, m.Legal) != canon(t, orEmpty(want)) {
				t.Fatalf("%s: legal moves differ", where)
			}
			var evs []any
			if m.By >= 0 {
				for _, e := range sh.events[m.N-1] {
					if e.To.Has(s) {
						evs = append(evs, e.Data)
					}
				}
			} else if m.N == 0 && len(m.Events) > 0 {
				// The state sent as the match starts carries its opening.
				for _, e := range sh.opening {
					if e.To.Has(s) {
						evs = append(evs, e.Data)
					}
				}
			}
			if got, want := canon(t, m.Events), canon(t, orEmpty(evs)); got != want {
				t.Fatalf("%s: events\n got %s\nwant %s", where, got, want)
			}
			if welcome != nil {
				// The history of a (re)connection is every event of the
				// match so far that s may see, less what s saw privately
				// of Cabo's cards (no memory aid at these tables: memory
				// is a rule; memory_test.go checks the aid).
				var hist []any
				// A welcome before the match began has no history: the
				// opening then comes with the match's first state.
				for _, e := range sh.opening {
					if e.To.Has(s) && !(m.By < 0 && m.N == 0 && len(m.Events) > 0) {
						hist = append(hist, forgotten(e))
					}
				}
				for _, evs := range sh.events[:m.N] {
					for _, e := range evs {
						if e.To.Has(s) {
							hist = append(hist, forgotten(e))
						}
					}
				}
				if got, want := canon(t, welcome.History), canon(t, orEmpty(hist)); got != want {
					t.Fatalf("%s: history\n got %s\nwant %s", where, got, want)
				}
				welcome = nil
			}
		case "table", "pong":
		case "watchers":
			// A count and nothing else.
			var w struct {
				Type  string `json:"type"`
				Count int    `json:"count"`
			}
			if err := game.DecodeStrict(b, &w); err != nil || w.Count < 0 {
				t.Fatalf("%s: watchers message %s: %v", where, b, err)
			}
		case "error":
			t.Fatalf("%s: unexpected error %s", where, b)
		default:
			t.Fatalf("%s: unknown message type", where)
		}
	}
}

func orEmpty[T any](x []T) []T {
	if x == nil {
		return []T{}
	}
	return x
}

// caboTruth is the part of Cabo's Dump the leak test reads.
type caboTruth struct {
	Phase string    `json:"phase"`
	Turn  game.Seat `json:"turn"`
	Hands [][]int   `json:"hands"`
	Drawn *int      `json:"drawn"`
}

func truth(t *testing.T, st game.State) caboTruth {
	var d caboTruth
	b, _ := json.Marshal(st.Dump())
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d
}

// checkCabo reads every Cabo message seat s received against the true
// state (Dump): no face-down card value appears except the drawn card to
// its drawer, and cards the seat saw in its own private events (its
// peeks, its spying, its draw), which must be the true ones; a failed set
// and the round's reveal are shown to all by the rules.
func (sh *shadow) checkCabo(t *testing.T, s game.Seat, raw [][]byte) {
	t.Helper()
	seenCards := 0
	for i, b := range raw {
		var m struct {
			Type    string            `json:"type"`
			N       int               `json:"n"`
			By      game.Seat         `json:"by"`
			View    json.RawMessage   `json:"view"`
			Events  []json.RawMessage `json:"events"`
			History []json.RawMessage `json:"history"`
		}
		json.Unmarshal(b, &m)
		if m.Type != "state" {
			if bytes.Contains(b, []byte(`"seen"`)) && m.Type != "welcome" {
				t.Fatalf("seat %d message %d: a %s message carries cards", s, i, m.Type)
			}
			continue
		}
		where := fmt.Sprintf("seat %d, move %d", s, m.N)
		var v cabo.View
		dec := json.NewDecoder(bytes.NewReader(m.View))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&v); err != nil {
			t.Fatalf("%s: the view has more than Cabo's public view: %v", where, err)
		}
		after := truth(t, sh.states[m.N])
		if v.Drawn != nil && (s < 0 || after.Phase != "drawn" || after.Turn != s || after.Drawn == nil || *after.Drawn != *v.Drawn) {
			t.Fatalf("%s: shown a drawn card %d that is not its own", where, *v.Drawn)
		}
		if m.By < 0 {
			continue
		}
		before := truth(t, sh.states[m.N-1])
		for _, raw := range m.Events {
			var e cabo.Event
			json.Unmarshal(raw, &e)
			if len(e.Seen) == 0 {
				continue
			}
			switch {
			case e.Failed:
				// A failed set is shown to everyone.
			case e.Seat != s:
				t.Fatalf("%s: sees cards of seat %d's %s: %s", where, e.Seat, e.Type, raw)
			case e.Type == "peek_initial":
				for j, sl := range e.Slots {
					if e.Seen[j] != before.Hands[s][sl] {
						t.Fatalf("%s: initial peek shows a wrong card", where)
					}
				}
			case e.Type == "peek" || e.Type == "spy":
				if e.Seen[0] != before.Hands[e.Target.Seat][e.Target.Slot] {
					t.Fatalf("%s: %s shows a wrong card", where, e.Type)
				}
			case e.Type == "draw":
				if after.Drawn == nil || e.Seen[0] != *after.Drawn {
					t.Fatalf("%s: draw shows a wrong card", where)
				}
			default:
				t.Fatalf("%s: a %s event carries cards: %s", where, e.Type, raw)
			}
			seenCards += len(e.Seen)
		}
	}
	if s >= 0 && seenCards == 0 {
		t.Fatalf("seat %d never saw a card: the test checked nothing", s)
	}
}

// Every message sent to each seat and to a spectator, in complete games
// of every registered game (one player reconnecting midway), is exactly
// what the engine lets that seat see; for Cabo, every card value in them
// is checked against the true state.
func TestNoLeak(t *testing.T) {
	for _, g := range games.All() {
		t.Run(g.Name(), func(t *testing.T) {
			h := newHarness(t, testConfig())
			bots := seatsFor(g)
			a := h.create(g.Name(), bots, "Ann", "")
			ca := h.dial(a.Table, a.Token)
			spec := h.dial(a.Table, "")
			b := h.join(a.Table, "Bob")
			cb := h.dial(a.Table, b.Token)
			errs := make(chan error, 1)
			go func() {
				_, err := playRandom(ca, a.Seat, 1, 1<<30)
				errs <- err
			}()
			m, err := playRandom(cb, b.Seat, 2, 20)
			if err != nil {
				t.Fatal(err)
			}
			cb2 := cb
			if m.Status != "over" {
				// Bob's page is refreshed midway.
				cb.ws.CloseNow()
				<-cb.done
				cb2 = h.dial(a.Table, b.Token)
				if _, err := playRandom(cb2, b.Seat, 3, 1<<30); err != nil {
					t.Fatal(err)
				}
			}
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
			for last := (msg{}); last.Status != "over"; {
				last = spec.next("state")
			}
			sh := replayMatch(t, h, a.Table)
			if !sh.states[len(sh.states)-1].Over() {
				t.Fatal("the stored match is not over")
			}
			for _, c := range []struct {
				seat game.Seat
				cl   *client
			}{{a.Seat, ca}, {b.Seat, cb}, {b.Seat, cb2}, {game.Spectator, spec}} {
				sh.checkMessages(t, c.seat, c.cl.messages())
				if g.Name() == "cabo" {
					sh.checkCabo(t, c.seat, c.cl.messages())
				}
			}
			if !slices.Contains([]string{"cabo"}, g.Name()) {
				t.Logf("%s: checked against the engine's views and events only", g.Name())
			}
		})
	}
}

var _ = reflect.DeepEqual

// forgotten is event e as a history without the memory aid gives it back:
// a Cabo event told to fewer than everyone loses its seen cards.
func forgotten(e game.Event) any {
	if ev, ok := e.Data.(cabo.Event); ok && e.To != game.Public {
		ev.Seen = nil
		return ev
	}
	return e.Data
}
