package cabo

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"tapis/game"
)

// table drives one game from stacked deals and move JSON, failing the test
// on any surprise.
type table struct {
	t   *testing.T
	st  *State
	log game.Log
}

// newTable starts a game; stacks are REPLAY.md stack objects, one a round.
func newTable(t *testing.T, players int, opts string, stacks ...string) *table {
	t.Helper()
	c := game.Config{Players: players, Seed: 1}
	if opts != "" {
		c.Options = json.RawMessage(opts)
	}
	for _, s := range stacks {
		c.Stacks = append(c.Stacks, json.RawMessage(s))
	}
	st, err := NewState(c)
	if err != nil {
		t.Fatalf("NewState: %v", err)
	}
	return &table{t: t, st: st}
}

func (tb *table) move(js string) game.Move {
	tb.t.Helper()
	m, err := Game{}.UnmarshalMove([]byte(js))
	if err != nil {
		tb.t.Fatalf("UnmarshalMove(%s): %v", js, err)
	}
	return m
}

// do applies a move that must be legal, listed by Legal, and accepted.
func (tb *table) do(s game.Seat, js string) {
	tb.t.Helper()
	m := tb.move(js)
	if !game.Contains(tb.st.Legal(s, nil), m) {
		tb.t.Fatalf("seat %d: %s is not in Legal", s, js)
	}
	if err := tb.st.Apply(s, m, &tb.log); err != nil {
		tb.t.Fatalf("seat %d: %s refused: %v", s, js, err)
	}
	if err := tb.st.Check(); err != nil {
		tb.t.Fatalf("after %s: %v", js, err)
	}
}

// refuse applies a move that must be refused with an error containing
// want, and checks that nothing changed.
func (tb *table) refuse(s game.Seat, js, want string) {
	tb.t.Helper()
	m := tb.move(js)
	if game.Contains(tb.st.Legal(s, nil), m) {
		tb.t.Fatalf("seat %d: %s is in Legal but should be refused", s, js)
	}
	before := *tb.st
	err := tb.st.Apply(s, m, &tb.log)
	if err == nil {
		tb.t.Fatalf("seat %d: %s was accepted, want an error about %q", s, js, want)
	}
	if !strings.Contains(err.Error(), want) {
		tb.t.Fatalf("seat %d: %s: error %q does not mention %q", s, js, err, want)
	}
	if !reflect.DeepEqual(before, *tb.st) {
		tb.t.Fatalf("seat %d: refused %s changed the state", s, js)
	}
}

// peekAll makes every seat do its initial peek of slots 0 and 1.
func (tb *table) peekAll() {
	tb.t.Helper()
	for s := 0; s < tb.st.Players(); s++ {
		tb.do(game.Seat(s), `{"type":"peek_initial","slots":[0,1]}`)
	}
}

// callAndEnd: the seat to move calls Cabo, every other seat draws and
// discards, and the round ends.
func (tb *table) callAndEnd() {
	tb.t.Helper()
	caller := tb.st.turn
	tb.do(caller, `{"type":"cabo"}`)
	for i := 1; i < tb.st.Players(); i++ {
		s := tb.st.turn
		tb.do(s, `{"type":"draw"}`)
		tb.do(s, `{"type":"discard"}`)
	}
}

// events returns the logged events seat s may see, as JSON lines.
func (tb *table) events(s game.Seat) []string {
	var out []string
	for _, e := range tb.log.For(s) {
		data, _ := json.Marshal(e.Data)
		out = append(out, string(data))
	}
	return out
}

// lastEvent returns the last logged event of a type that seat s may see.
func (tb *table) lastEvent(s game.Seat, typ string) Event {
	tb.t.Helper()
	evs := tb.log.For(s)
	for i := len(evs) - 1; i >= 0; i-- {
		if e := evs[i].Data.(Event); e.Type == typ {
			return e
		}
	}
	tb.t.Fatalf("seat %d saw no %q event", s, typ)
	return Event{}
}

func (tb *table) hand(s game.Seat) []int {
	var out []int
	for _, c := range tb.st.hands[s][:tb.st.opt.HandSize] {
		out = append(out, int(c))
	}
	return out
}

func (tb *table) eq(what string, got, want any) {
	tb.t.Helper()
	if !reflect.DeepEqual(got, want) {
		tb.t.Fatalf("%s: got %v, want %v", what, got, want)
	}
}

func deal(hands [][]int, discard int, draw ...int) string {
	h, _ := json.Marshal(hands)
	d, _ := json.Marshal(draw)
	return fmt.Sprintf(`{"hands":%s,"discard":%d,"draw":%s}`, h, discard, d)
}
