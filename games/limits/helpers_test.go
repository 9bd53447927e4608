package limits

import (
	"encoding/json"
	"strings"
	"testing"

	"tapis/game"
)

// stacked starts a game from a REPLAY.md stack.
func stacked(t *testing.T, players int, stack string) *State {
	t.Helper()
	st, err := NewState(game.Config{Players: players, Seed: 1, Stacks: []json.RawMessage{json.RawMessage(stack)}})
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return st
}

// do applies a move given as REPLAY.md JSON and returns its events.
func do(t *testing.T, st *State, s game.Seat, move string) []game.Event {
	t.Helper()
	m, err := Game{}.UnmarshalMove([]byte(move))
	if err != nil {
		t.Fatalf("move %s: %v", move, err)
	}
	var log game.Log
	if err := st.Apply(s, m, &log); err != nil {
		t.Fatalf("seat %d %s refused: %v", s, move, err)
	}
	if err := st.Check(); err != nil {
		t.Fatalf("after seat %d %s: %v", s, move, err)
	}
	return log.Events
}

// refused checks that a move is refused with an error containing want,
// and changes nothing.
func refused(t *testing.T, st *State, s game.Seat, move, want string) {
	t.Helper()
	m, err := Game{}.UnmarshalMove([]byte(move))
	if err != nil {
		t.Fatalf("move %s: %v", move, err)
	}
	before := *st
	err = st.Apply(s, m, nil)
	if err == nil {
		t.Fatalf("seat %d %s was applied, want refused (%s)", s, move, want)
	}
	if !strings.Contains(err.Error(), want) {
		t.Fatalf("seat %d %s: error %q, want it to say %q", s, move, err, want)
	}
	if *st != before {
		t.Fatalf("seat %d %s: a refused move changed the state", s, move)
	}
}

// hideAll makes every seat hide the given cards (a JSON list each).
func hideAll(t *testing.T, st *State, cards ...string) {
	t.Helper()
	for s, c := range cards {
		do(t, st, game.Seat(s), `{"type":"hide","cards":`+c+`}`)
	}
}

// handOf is seat s's hand in REPLAY.md notation, colour order.
func handOf(st *State, s game.Seat) string { return strings.Join(names(&st.hand[s]), ",") }

func hiddenOf(st *State, s game.Seat) string { return strings.Join(names(&st.hidden[s]), ",") }

// drawTop is the draw pile's top k cards, top first.
func drawTop(st *State, k int) string {
	var out []string
	for i := int(st.nDraw) - 1; i >= 0 && len(out) < k; i-- {
		out = append(out, colourNames[st.draw[i]])
	}
	return strings.Join(out, ",")
}

// eventOf returns the first event of that type, or fails.
func eventOf(t *testing.T, evs []game.Event, typ string) Event {
	t.Helper()
	for _, e := range evs {
		if ev := e.Data.(Event); ev.Type == typ {
			return ev
		}
	}
	t.Fatalf("no %q event in %v", typ, evs)
	return Event{}
}
